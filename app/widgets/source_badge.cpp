#include "widgets/source_badge.h"

#include "models/source_badges.h"

#include <QApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QRegularExpression>
#include <QStringList>

SourceBadge::SourceBadge(QWidget* parent) : QLabel(parent) {
  setup();
  restyle();
}

SourceBadge::SourceBadge(Kind kind, const QString& detail, QWidget* parent) : QLabel(parent) {
  setup();
  set(kind, detail);
}

void SourceBadge::setup() {
  // Badges sit beside the title: they keep their natural size (a tall, wrapped title must not stretch them
  // into boxes) and break a long text onto more lines instead of widening the header.
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  setAlignment(Qt::AlignCenter);
}

void SourceBadge::changeEvent(QEvent* e) {
  QLabel::changeEvent(e);
  // The application font follows the theme (bigger on a projector): the line breaks follow the font.
  if (e->type() == QEvent::FontChange || e->type() == QEvent::ApplicationFontChange) rewrap();
}

void SourceBadge::followApplicationFont() {
  // A label with a style sheet keeps the font it was first polished with when the application font changes
  // later (badges built before the projector theme stayed small): take the theme's font explicitly.
  setFont(QApplication::font());
  // The same goes for palette(text) in the dashed badges' style: it was resolved against the palette of the first
  // polish, so after a switch to the dark projector theme their text stayed dark on black. Polish again.
  setStyleSheet(styleSheet());
}

void SourceBadge::setLineChars(int chars) {
  if (chars == m_lineChars) return;
  m_lineChars = chars;
  rewrap();
}

void SourceBadge::setCompact(bool compact) {
  if (compact == m_compact) return;
  m_compact = compact;
  rewrap();
}

QString SourceBadge::compactText() const {
  if (m_kind != Kind::Recorded) return m_full;
  // "recorded on <device>, <date>": the date goes (the tooltip keeps it).
  static const QRegularExpression date(QStringLiteral(",\\s*\\d{4}-\\d{2}-\\d{2}$"));
  QString shorter = m_full;
  shorter.remove(date);
  return shorter;
}

int SourceBadge::widthAt(int chars) const {
  const QFontMetrics fm(font());
  auto widest = [&](const QStringList& ls) {
    int w = 0;
    for (const QString& l : ls) w = std::max(w, fm.horizontalAdvance(l));
    return w;
  };
  return sizeHint().width() - widest(text().split(QLatin1Char('\n'))) + widest(lines(chars));
}

void SourceBadge::rewrap() {
  QLabel::setText(lines(m_lineChars).join(QLatin1Char('\n')));
  adjustSize();
}

QStringList SourceBadge::lines(int chars) const {
  // About `chars` characters a line, broken at spaces by hand (a word-wrapping QLabel guesses its own shape and
  // height badly): short badges stay on one line, long ones ("recorded on …, date") take two or three.
  const QFontMetrics fm(font());
  const int cap = fm.averageCharWidth() * chars;
  const QStringList words = shownText().split(QLatin1Char(' '), Qt::SkipEmptyParts);
  QStringList lines;
  QString line;
  for (const QString& w : words) {
    const QString next = line.isEmpty() ? w : line + QLatin1Char(' ') + w;
    if (!line.isEmpty() && fm.horizontalAdvance(next) > cap) {
      lines << line;
      line = w;
    } else {
      line = next;
    }
  }
  if (!line.isEmpty()) lines << line;
  return lines;
}

QString SourceBadge::textFor(Kind kind, const QString& detail) {
  switch (kind) {
    case Kind::MeasuredHere:  // never "measured here · measured here (…)": the rule is in models/source_badges
      return QString::fromStdString(gpulab::models::badge_text(gpulab::models::SourceKind::measured_here, detail.toStdString()));
    case Kind::Recorded: return detail.isEmpty() ? tr("recorded") : detail;
    case Kind::Datasheet: return detail.isEmpty() ? tr("datasheet") : tr("datasheet · %1").arg(detail);
    case Kind::Model: return detail.isEmpty() ? tr("model") : tr("model · %1").arg(detail);
    case Kind::Unavailable: return detail.isEmpty() ? tr("not available") : detail;
    case Kind::Published: return detail.isEmpty() ? tr("published") : tr("published: %1").arg(detail);
  }
  return {};
}

void SourceBadge::set(Kind kind, const QString& detail) {
  m_kind = kind;
  m_detail = detail;
  m_full = textFor(kind, detail);
  restyle();
  rewrap();
}

void SourceBadge::restyle() {
  // Solid = measured, outlined = recorded, dashed = datasheet or model: the same code as the plots' marks.
  QString style;
  switch (m_kind) {
    case Kind::MeasuredHere:
      style = QStringLiteral("background:#009E73; color:white; border-radius:6px; padding:2px 8px; font-weight:bold;");
      break;
    case Kind::Recorded:
      style = QStringLiteral("background:transparent; color:#0072B2; border:2px solid #0072B2; border-radius:6px; padding:1px 7px; font-weight:bold;");
      break;
    case Kind::Datasheet:
    case Kind::Model:
      style = QStringLiteral("background:transparent; color:palette(text); border:2px dashed #777; border-radius:6px; padding:1px 7px;");
      break;
    case Kind::Unavailable:
      style = QStringLiteral("background:transparent; color:#D55E00; border:2px solid #D55E00; border-radius:6px; padding:1px 7px;");
      break;
    case Kind::Published:
      // A double outline in the published colour (Okabe–Ito reddish purple): neither solid (measured here) nor
      // a single outline (recorded) nor dashed (datasheet).
      style = QStringLiteral("background:transparent; color:#A8558A; border:4px double #CC79A7; border-radius:6px; padding:0px 6px; font-weight:bold;");
      break;
  }
  setStyleSheet(style);
  setToolTip(tr("Where this figure comes from: measured on this machine now, replayed from a recording made on "
                "another machine, published by others who measured a real GPU (with its source), or computed from "
                "datasheet figures and a model."));
}

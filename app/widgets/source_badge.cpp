#include "widgets/source_badge.h"

SourceBadge::SourceBadge(QWidget* parent) : QLabel(parent) { restyle(); }

SourceBadge::SourceBadge(Kind kind, const QString& detail, QWidget* parent) : QLabel(parent) { set(kind, detail); }

QString SourceBadge::textFor(Kind kind, const QString& detail) {
  switch (kind) {
    case Kind::MeasuredHere: return detail.isEmpty() ? tr("measured here") : tr("measured here · %1").arg(detail);
    case Kind::Recorded: return detail.isEmpty() ? tr("recorded") : detail;
    case Kind::Datasheet: return detail.isEmpty() ? tr("datasheet") : tr("datasheet · %1").arg(detail);
    case Kind::Model: return detail.isEmpty() ? tr("model") : tr("model · %1").arg(detail);
    case Kind::Unavailable: return detail.isEmpty() ? tr("not available") : detail;
  }
  return {};
}

void SourceBadge::set(Kind kind, const QString& detail) {
  m_kind = kind;
  m_detail = detail;
  setText(textFor(kind, detail));
  restyle();
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
  }
  setStyleSheet(style);
  setToolTip(tr("Where this figure comes from: measured on this machine now, replayed from a recording made on "
                "another machine, or computed from datasheet figures and a model."));
}

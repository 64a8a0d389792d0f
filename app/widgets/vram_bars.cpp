#include "widgets/vram_bars.h"

#include "format.h"
#include "widgets/onscreen_hint.h"

#include <QFontMetrics>
#include <QHideEvent>
#include <QPainter>
#include <QPainterPath>
#include <QShowEvent>

#include <algorithm>
#include <cmath>

QColor vramPartColour(const QString& part) {
  using namespace okabe_ito;
  if (part.contains(QLatin1String("eights"))) return blue;
  if (part.startsWith(QLatin1String("KV"))) return bluish_green;
  if (part.startsWith(QLatin1String("Activ"))) return sky_blue;
  if (part.startsWith(QLatin1String("Grad"))) return vermillion;
  if (part.startsWith(QLatin1String("FP32 master"))) return reddish_purple;
  if (part.startsWith(QLatin1String("Adam m"))) return orange;
  if (part.startsWith(QLatin1String("Adam v"))) return yellow;
  if (part.startsWith(QLatin1String("LoRA"))) return reddish_purple;
  return QColor(150, 150, 150);  // overhead
}


double VramBar::total() const {
  double t = 0;
  for (const auto& s : segments)
    if (!s.hollow) t += s.bytes;
  return t;
}

namespace {
// A round axis top: 1, 2 or 5 times a power of ten, at or above v.
double niceCeil(double v) {
  if (!(v > 0)) return 1e9;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}
double stackTotal(const VramBar& b) {
  double t = 0;
  for (const auto& s : b.segments) t += s.bytes;  // hollow segments take room on the axis too
  return t;
}
}  // namespace

namespace {
// A bar's label may break after a slash ("FP16/" "BF16") when its slot is too narrow for it on one line.
QString wrappableLabel(const QString& label) {
  QString out = label;
  return out.replace(QLatin1Char('/'), QStringLiteral("/\u200B"));
}
}  // namespace

VramBars::VramBars(QWidget* parent) : QWidget(parent) {
  m_timer.setInterval(16);  // ~60 Hz
  m_timer.setTimerType(Qt::PreciseTimer);
  connect(&m_timer, &QTimer::timeout, this, &VramBars::tick);
  setMinimumSize(minimumSizeHint());
  setNothingToShow(this, true);  // no bars yet
}

double VramBars::progress() const {
  if (m_durationMs <= 0) return 1;
  const qint64 ms = m_elapsedBeforePause + (m_timer.isActive() ? m_clock.elapsed() : 0);
  const double t = std::clamp(double(ms) / m_durationMs, 0.0, 1.0);
  return 1 - std::pow(1 - t, 3);  // ease-out cubic: fast start, gentle landing
}

double VramBars::shown(int bar, int seg) const {
  const double to = m_target[bar].segments[seg].bytes;
  const double from = m_from[bar][seg];
  return from + (to - from) * progress();
}

double VramBars::displayedTotal(int bar) const {
  if (bar < 0 || bar >= m_target.size()) return 0;
  double t = 0;
  for (int s = 0; s < m_target[bar].segments.size(); ++s)
    if (!m_target[bar].segments[s].hollow) t += shown(bar, s);
  return t;
}

void VramBars::setBars(const QVector<VramBar>& bars) {
  // Start each matching segment from what is on screen now, so a change mid-animation continues smoothly.
  QVector<QVector<double>> from(bars.size());
  for (int b = 0; b < bars.size(); ++b) {
    from[b].resize(bars[b].segments.size());
    for (int s = 0; s < bars[b].segments.size(); ++s) {
      double v = 0;
      for (int ob = 0; ob < m_target.size(); ++ob) {
        if (m_target[ob].label != bars[b].label) continue;
        for (int os = 0; os < m_target[ob].segments.size(); ++os)
          if (m_target[ob].segments[os].name == bars[b].segments[s].name) v = shown(ob, os);
      }
      from[b][s] = v;
    }
  }
  double top = m_capacity;
  for (const auto& b : bars) top = std::max(top, stackTotal(b));
  const double newScale = niceCeil(top * 1.05);
  const double p = progress();
  m_scaleFrom = m_scaleTo > 0 ? m_scaleFrom + (m_scaleTo - m_scaleFrom) * p : newScale;
  m_scaleTo = newScale;
  m_target = bars;
  setNothingToShow(this, m_target.isEmpty());  // an export skips it then (widgets/onscreen_hint.h)
  m_from = from;
  // Nobody watches a hidden widget: land on the new sizes at once; animate only what a class can see.
  m_elapsedBeforePause = isVisible() ? 0 : m_durationMs;
  m_clock.restart();
  if (isVisible()) m_timer.start();
  else m_timer.stop();
  update();
}

void VramBars::setCapacity(double bytes, const QString& label) {
  m_capacity = bytes;
  m_capacityLabel = label;
  double top = m_capacity;
  for (const auto& b : m_target) top = std::max(top, stackTotal(b));
  const double newScale = niceCeil(top * 1.05);
  if (newScale != m_scaleTo) {
    const double p = progress();
    m_scaleFrom = m_scaleTo > 0 ? m_scaleFrom + (m_scaleTo - m_scaleFrom) * p : newScale;
    m_scaleTo = newScale;
    // Re-base the segments too so one clock drives both.
    for (int b = 0; b < m_target.size(); ++b)
      for (int s = 0; s < m_target[b].segments.size(); ++s) m_from[b][s] = shown(b, s);
    m_elapsedBeforePause = 0;
    m_clock.restart();
    if (isVisible()) m_timer.start();
  }
  update();
}

void VramBars::setTheme(const Theme& theme) {
  m_theme = theme;
  update();
}

void VramBars::setTitle(const QString& title) {
  m_title = title;
  update();
}

void VramBars::setEmptyText(const QString& text) {
  m_emptyText = text;
  update();
}

void VramBars::tick() {
  if (progress() >= 1.0) {
    m_elapsedBeforePause = m_durationMs;  // finished: progress() must stay at 1 once the timer stops
    m_timer.stop();
  }
  update();
}

void VramBars::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_elapsedBeforePause < m_durationMs && !m_target.isEmpty()) {
    m_clock.restart();
    m_timer.start();
  }
}

void VramBars::hideEvent(QHideEvent* e) {
  // Paused while hidden: remember how far the animation got and stop the timer.
  if (m_timer.isActive()) {
    m_elapsedBeforePause += m_clock.elapsed();
    m_timer.stop();
  }
  QWidget::hideEvent(e);
}

void VramBars::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const Theme& t = m_theme;
  p.fillRect(rect(), t.surface);

  QFont base(QStringLiteral("DejaVu Sans"));
  base.setPointSize(t.plotFontPt);
  QFont bold = base;
  bold.setBold(true);
  QFont small = base;
  small.setPointSize(std::max(7, t.plotFontPt - 1));
  const QFontMetrics fm(base), fmb(bold);

  int top = 6;
  if (!m_title.isEmpty()) {
    QFont tf = bold;
    tf.setPointSize(t.plotFontPt + 2);
    p.setFont(tf);
    p.setPen(t.text);
    // Wraps onto a second line rather than running off a narrow widget (projector fonts).
    const QRect room(8, top, width() - 16, 3 * QFontMetrics(tf).height());
    const QRect used = QFontMetrics(tf).boundingRect(room, Qt::AlignLeft | Qt::TextWordWrap, m_title);
    p.drawText(QRect(8, top, width() - 16, used.height()), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_title);
    top += used.height() + 4;
  }

  if (m_target.isEmpty()) {
    if (isBeingExported(this)) return;  // "Press Run (Space) …" is for the screen, never a slide
    p.setFont(base);
    p.setPen(t.mutedText);
    p.drawText(rect().adjusted(16, top, -16, -16), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    return;
  }

  // Legend: each segment name once, in order of first appearance.
  p.setFont(small);
  const QFontMetrics fms(small);
  int lx = 8, ly = top;
  QVector<QString> seen;
  for (const auto& b : m_target) {
    for (const auto& s : b.segments) {
      if (seen.contains(s.name)) continue;
      seen.push_back(s.name);
      const int w = fms.horizontalAdvance(s.name) + 22;
      if (lx + w > width() - 8) {
        lx = 8;
        ly += fms.height() + 3;
      }
      const QRect sw(lx, ly + 2, 12, fms.height() - 4);
      if (s.hollow) {
        p.setPen(QPen(t.mutedText, 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
      } else {
        p.setPen(Qt::NoPen);
        p.setBrush(s.color);
      }
      p.drawRect(sw);
      p.setPen(t.text);
      p.drawText(lx + 16, ly, w, fms.height(), Qt::AlignLeft | Qt::AlignVCenter, s.name);
      lx += w + 6;
    }
  }
  top = ly + fms.height() + 8;

  const double scale = m_scaleFrom + (m_scaleTo - m_scaleFrom) * progress();
  double step = niceCeil(scale / 5) >= scale ? scale / 4 : niceCeil(scale / 5);
  auto tickText = [](double v) { return fmtBytes(v, 3).replace(QStringLiteral(".00 "), QStringLiteral(" ")); };
  // The axis is as wide as its widest tick label ("50.0 GB"), so none is clipped at the left edge.
  int axisW = fm.horizontalAdvance(QStringLiteral("00 GB"));
  for (double v = 0; v <= scale * 1.0001; v += step) axisW = std::max(axisW, fm.horizontalAdvance(tickText(v)));
  axisW += 16;
  // Room under the bars for the longest label and caption as they wrap in a bar's slot (a narrow slot on a small
  // screen wraps "short by 7.4 GB" into three lines, and "FP16/BF16" after its slash).
  const int nBars = std::max<int>(1, int(m_target.size()));
  const double slotW = double(width() - axisW - 10) / nBars;
  const int wrapW = int(std::max(20.0, slotW - 12));
  int labelH = fmb.height(), captionH = 2 * fms.height();
  // Each bar's total and where it is written. They are written after the card's dashed line, on the plot's own
  // colour, so a line that crosses a total (a bar just under the card, in the projector's large font) passes behind
  // it instead of striking it through; the card's label keeps clear of them.
  struct Total {
    QRectF box;
    QString text;
    bool bold = true;
  };
  QVector<Total> totals;
  for (int b = 0; b < m_target.size(); ++b) {
    if (spannedByPrevious(b)) continue;
    const VramBar& bar = m_target[b];
    const int textW = spansNext(b) ? int(std::max(20.0, 2 * slotW - 12)) : wrapW;
    const QString label = wrappableLabel(bar.label);
    const QFontMetrics& lf = fmb.horizontalAdvance(bar.label) > textW ? fms : fmb;
    labelH = std::max(labelH, lf.boundingRect(QRect(0, 0, textW, 1000), Qt::AlignHCenter | Qt::TextWordWrap, label).height());
    captionH = std::max(captionH, fms.boundingRect(QRect(0, 0, textW, 1000), Qt::AlignHCenter | Qt::TextWordWrap,
                                                   bar.caption).height());
  }
  const int bottomText = labelH + captionH + 10;
  const QRect plot(axisW, top + fm.height(), width() - axisW - 10, height() - top - fm.height() - bottomText - 4);
  if (plot.height() < 40 || plot.width() < 40) return;
  // Fewer gridlines on a short plot, so their labels never touch (a projector's large font on a small screen).
  const double minGapPx = 1.3 * fm.height();
  while (step < scale && plot.height() * step / scale < minGapPx) step = niceCeil(step * 1.01);
  auto yOf = [&](double bytes) { return plot.bottom() - bytes / scale * plot.height(); };

  // Axis with a few GB ticks.
  p.setFont(base);
  for (double v = 0; v <= scale * 1.0001; v += step) {
    const double y = yOf(v);
    p.setPen(QPen(t.grid, 1));
    p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    p.setPen(t.mutedText);
    p.drawText(QRectF(0, y - fm.height() / 2.0, axisW - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
               tickText(v));
  }

  // Bars.
  const int n = m_target.size();
  const double slot = double(plot.width()) / n;
  const double barW = std::min(slot * 0.62, 170.0);
  for (int b = 0; b < n; ++b) {
    const VramBar& bar = m_target[b];
    const double cx = plot.left() + slot * (b + 0.5);
    const double x0 = cx - barW / 2;
    double acc = 0;
    for (int s = 0; s < bar.segments.size(); ++s) {
      const VramSegment& seg = bar.segments[s];
      const double v = std::max(0.0, shown(b, s));
      const QRectF r(x0, yOf(acc + v), barW, yOf(acc) - yOf(acc + v));
      if (seg.hollow) {
        p.setPen(QPen(t.mutedText, 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
      } else {
        p.setPen(QPen(t.surface, 1));
        p.setBrush(seg.color);
      }
      p.drawRect(r);
      // The segment's name and size inside it, when there is room.
      const QString txt = seg.name + QStringLiteral(" ") + fmtBytes(v, 3);
      if (r.height() >= fms.height() + 2 && fms.horizontalAdvance(txt) < barW - 6) {
        p.setFont(small);
        p.setPen(seg.hollow ? t.mutedText : (seg.color.lightnessF() > 0.6 ? QColor(0, 0, 0) : QColor(255, 255, 255)));
        p.drawText(r, Qt::AlignCenter, txt);
      }
      acc += v;
    }
    // What does not fit: the part above the card line, hatched in the "bad" colour.
    const double solid = displayedTotal(b);
    if (m_capacity > 0 && solid > m_capacity) {
      const QRectF over(x0, yOf(solid), barW, yOf(m_capacity) - yOf(solid));
      p.setPen(QPen(t.bad, 2));
      p.setBrush(QBrush(t.bad, Qt::BDiagPattern));
      p.drawRect(over);
    }
    if (bar.highlight) {
      p.setPen(QPen(t.text, t.isProjector() ? 4 : 3));
      p.setBrush(Qt::NoBrush);
      p.drawRect(QRectF(x0 - 3, yOf(stackTotal(bar) > 0 ? std::max(acc, 0.0) : 0) - 3, barW + 6,
                        yOf(0) - yOf(acc) + 6));
    }
    // Total above the bar; in the smaller font when the bold one would touch the neighbour's total.
    const QString totalText = fmtBytes(solid, 3);
    const bool fitsBold = fmb.horizontalAdvance(totalText) <= slot - 10;
    // Ten bars or more on a narrow panel: a total that fits in neither font is left out rather than written over
    // its neighbour's ("203 MB203 MB"); the caption under the bar and the tooltip still give it.
    const bool fitsSmall = fms.horizontalAdvance(totalText) <= slot - 4;
    if (fitsBold || fitsSmall) {
      const int totalH = fitsBold ? fmb.height() : fms.height();
      const double totalW = (fitsBold ? fmb : fms).horizontalAdvance(totalText);
      const QRectF tight(cx - totalW / 2, yOf(acc) - totalH - 2, totalW, totalH);
      totals.push_back({tight, totalText, fitsBold});
    }
    p.setFont(bold);
    p.setPen(t.text);  // the segments and the hatch left their own pens (white on white for a label after them)
    // Label and caption under it (under it and the next, for a pair).
    if (spannedByPrevious(b)) continue;
    // A gap between neighbours' texts: narrow bars wrap their caption ("fits," / "14 GB left") rather than
    // running into the next one.
    const double textW = spansNext(b) ? std::max(20.0, 2 * slot - 12) : std::max(20.0, slot - 12);
    const double textX = spansNext(b) ? cx + slot / 2 : cx;
    if (fmb.horizontalAdvance(bar.label) > textW) p.setFont(small);  // "FP16/BF16" on a narrow bar: smaller, wrapped
    p.drawText(QRectF(textX - textW / 2, plot.bottom() + 4, textW, labelH), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
               wrappableLabel(bar.label));
    p.setFont(small);
    p.setPen(bar.good ? t.good : t.bad);
    p.drawText(QRectF(textX - textW / 2, plot.bottom() + 4 + labelH, textW, captionH + 4),
               Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, bar.caption);
  }

  // The card: a dashed line, then the totals over it, then its name.
  if (m_capacity > 0) {
    p.setPen(QPen(t.text, t.isProjector() ? 3 : 2, Qt::DashLine));
    p.drawLine(QPointF(plot.left(), yOf(m_capacity)), QPointF(plot.right(), yOf(m_capacity)));
  }
  for (const Total& total : totals) {
    p.fillRect(total.box.adjusted(-2, 0, 2, 0), t.surface);
    p.setFont(total.bold ? bold : small);
    p.setPen(t.text);
    p.drawText(total.box.adjusted(-2, 0, 2, 0), Qt::AlignCenter, total.text);
  }
  if (m_capacity > 0) {
    const double y = yOf(m_capacity);
    p.setFont(bold);
    const QString lbl = m_capacityLabel;
    const int w = fmb.horizontalAdvance(lbl) + 8;
    // Above the line at the right end, unless a bar's total is written there (a short last bar's total sits just
    // under the line): then below it, then at the left end; on a squashed plot where every bar's total is near the
    // line, in the plot's top right corner with a stroke of the dashed line before it.
    const double h = fmb.height(), right = plot.right() - w, left = plot.left() + 2;
    const QRectF places[] = {{right, y - h - 2, double(w), h}, {right, y + 3, double(w), h},
                             {left, y - h - 2, double(w), h}, {left, y + 3, double(w), h}};
    const QRectF corner(right, plot.top() + 2, w, h);
    QRectF box = corner;
    for (const QRectF& place : places) {
      const bool clear = std::none_of(totals.begin(), totals.end(),
                                      [&](const Total& total) { return total.box.intersects(place); });
      if (clear) {
        box = place;
        break;
      }
    }
    if (box == corner) p.drawLine(QPointF(corner.left() - 28, corner.center().y()), QPointF(corner.left() - 4, corner.center().y()));
    p.fillRect(box, t.surface);
    p.setPen(t.text);
    p.drawText(box, Qt::AlignCenter, lbl);
  }
}

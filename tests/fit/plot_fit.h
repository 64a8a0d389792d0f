#pragma once
// What makes a QCustomPlot unreadable on a small screen even when the widget itself fits: tick labels written
// over each other, an axis title wider than its axis (it runs into the neighbouring chart), and text items drawn
// on top of one another. Each finding is one line of text for the fit test's report.
#include <QFontMetrics>
#include <QStringList>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace fit {

// The rectangle a text item paints, from its anchor, alignment, font and padding (as QCPItemText draws it).
inline QRectF textItemRect(QCPItemText* item) {
  const QPointF at = item->position->pixelPosition();
  const QFontMetrics fm(item->font());
  QRectF r = fm.boundingRect(QRect(0, 0, 10000, 10000), item->textAlignment() | Qt::TextDontClip, item->text());
  const QMargins pad = item->padding();
  r.setSize(r.size() + QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom()));
  const Qt::Alignment a = item->positionAlignment();
  double x = at.x() - r.width() / 2, y = at.y() - r.height() / 2;
  if (a & Qt::AlignLeft) x = at.x();
  if (a & Qt::AlignRight) x = at.x() - r.width();
  if (a & Qt::AlignTop) y = at.y();
  if (a & Qt::AlignBottom) y = at.y() - r.height();
  return QRectF(x, y, r.width(), r.height());
}

// Tick labels of one axis that overlap their neighbour (vertical axes: closer than a line of text; horizontal:
// closer than half of the two labels' widths).
inline int overlappingTickLabels(QCPAxis* axis) {
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  const QFontMetrics fm(axis->tickLabelFont());
  struct Mark {
    double px;
    double extent;
  };
  QVector<Mark> marks;
  for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
    if (labels[i].trimmed().isEmpty() || !axis->range().contains(ticks[i])) continue;
    const double extent = axis->orientation() == Qt::Vertical
                              ? fm.height() * (labels[i].count(QLatin1Char('\n')) + 1)
                              : double(fm.boundingRect(QRect(0, 0, 10000, 10000), 0, labels[i]).width());
    marks.push_back({axis->coordToPixel(ticks[i]), extent});
  }
  std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.px < b.px; });
  int overlaps = 0;
  for (int i = 1; i < marks.size(); ++i)
    if (marks[i].px - marks[i - 1].px < 0.85 * (marks[i].extent + marks[i - 1].extent) / 2) ++overlaps;
  return overlaps;
}

// Data marks a legend drawn inside its data area hides: graph points drawn with a mark and the tops of bars,
// counted where they lie in the legend's rectangle (less a pixel's border). Lines are not counted: a key over a
// stretch of a model curve still leaves it readable; a key over a measured point hides the measurement.
inline int marksUnderLegend(QCustomPlot* plot, QString* example) {
  QCPLegend* legend = plot->legend;
  if (!legend || !legend->visible() || legend->layout() == plot->plotLayout() || legend->itemCount() == 0) return 0;
  const QRectF box = QRectF(legend->outerRect()).adjusted(1, 1, -1, -1);
  if (box.isEmpty()) return 0;
  int hidden = 0;
  auto note = [&](const QString& name) {
    if (example->isEmpty()) *example = name.left(40);
  };
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    if (!p->visible() || !p->keyAxis()) continue;
    const bool marks = qobject_cast<QCPBars*>(p) ||
                       (qobject_cast<QCPGraph*>(p) && !static_cast<QCPGraph*>(p)->scatterStyle().isNone());
    QCPPlottableInterface1D* points = p->interface1D();
    if (!marks || !points) continue;
    const QRect area = p->keyAxis()->axisRect()->rect();
    for (int k = 0; k < points->dataCount(); ++k) {
      // A bar's is the middle of its top (of the stack it sits on); a graph's, its point.
      const QPointF px = points->dataPixelPosition(k);
      if (std::isfinite(px.x()) && std::isfinite(px.y()) && area.contains(px.toPoint()) && box.contains(px))
        ++hidden, note(p->name());
    }
  }
  return hidden;
}

inline QStringList plotProblems(QCustomPlot* plot) {
  QStringList problems;
  if (!plot->isVisible() || plot->width() <= 0) return problems;
  for (QCPAxisRect* rect : plot->axisRects()) {
    if (!rect->visible()) continue;
    if (rect->height() < 60 || rect->width() < 120)
      problems << QStringLiteral("data area %1×%2 too small to read").arg(rect->width()).arg(rect->height());
    for (QCPAxis* axis : rect->axes()) {
      if (!axis->visible()) continue;
      if (axis->tickLabels())
        if (const int n = overlappingTickLabels(axis))
          problems << QStringLiteral("%1 tick labels overlap on the axis \"%2\"").arg(n).arg(axis->label());
      if (!axis->label().isEmpty()) {
        const QFontMetrics fm(axis->labelFont());
        const int need = fm.boundingRect(QRect(0, 0, 10000, 10000), 0, axis->label()).width();
        const int room = axis->orientation() == Qt::Horizontal ? rect->outerRect().width() : rect->outerRect().height();
        if (need > room + 2)
          problems << QStringLiteral("axis title \"%1\" needs %2 px, its chart is %3 px").arg(axis->label()).arg(need).arg(room);
      }
    }
  }
  // A key wider than the chart, or whose entries are squeezed: its names run off the edge ("t memcpy (this C…").
  if (QCPLegend* legend = plot->legend; legend && legend->visible() && legend->itemCount() > 0) {
    const QRect box = legend->outerRect();
    if (!plot->rect().adjusted(-1, -1, 1, 1).contains(box))
      problems << QStringLiteral("the legend (%1×%2) runs off the %3×%4 chart").arg(box.width()).arg(box.height()).arg(plot->width()).arg(plot->height());
    for (int i = 0; i < legend->itemCount(); ++i)
      if (QCPAbstractLegendItem* item = legend->item(i); item && item->visible() &&
                                                         item->outerRect().width() + 2 < item->minimumOuterSizeHint().width()) {
        auto* named = qobject_cast<QCPPlottableLegendItem*>(item);
        problems << QStringLiteral("legend entry cut: \"%1\"").arg(named ? named->plottable()->name().left(40) : QString());
        break;
      }
  }
  QString underLegend;
  if (const int n = marksUnderLegend(plot, &underLegend))
    problems << QStringLiteral("the legend hides %1 data points (\"%2\")").arg(n).arg(underLegend);
  // Text items drawn over each other (more than a quarter of the smaller one covered).
  QVector<QPair<QString, QRectF>> texts;
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible() && !t->text().trimmed().isEmpty())
      texts.push_back({t->text().simplified(), textItemRect(t)});
  int overlapping = 0;
  QString example;
  for (int i = 0; i < texts.size(); ++i)
    for (int j = i + 1; j < texts.size(); ++j) {
      const QRectF both = texts[i].second & texts[j].second;
      const double smaller = std::min(texts[i].second.width() * texts[i].second.height(),
                                      texts[j].second.width() * texts[j].second.height());
      if (!both.isEmpty() && both.width() * both.height() > 0.25 * smaller) {
        ++overlapping;
        if (example.isEmpty()) example = texts[i].first.left(30) + QStringLiteral("\" over \"") + texts[j].first.left(30);
      }
    }
  if (overlapping) problems << QStringLiteral("%1 text labels drawn over each other (\"%2\")").arg(overlapping).arg(example);
  return problems;
}

}  // namespace fit

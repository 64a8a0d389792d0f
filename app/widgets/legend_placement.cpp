#include "widgets/legend_placement.h"

#include "qcustomplot.h"
#include "widgets/plot_style.h"

#include <QEvent>
#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace {

// Where the inset layout puts a legend of this size in this corner of the data area.
QRectF legendRectAt(const QRect& area, const QSize& size, Qt::Alignment corner) {
  const double x = corner & Qt::AlignRight ? area.right() + 1 - size.width() : area.left();
  const double y = corner & Qt::AlignBottom ? area.bottom() + 1 - size.height() : area.top();
  return QRectF(x, y, size.width(), size.height());
}

// How much of the data a legend at `r` would hide: a mark (a point, a bar's top) weighs most, a point of a line
// some, a text item's anchor as much as a mark.
double hiddenData(QCustomPlot* plot, const QRectF& r) {
  double cost = 0;
  for (int i = 0; i < plot->graphCount(); ++i) {
    QCPGraph* g = plot->graph(i);
    if (!g->visible() || g->data()->isEmpty()) continue;
    const bool marks = !g->scatterStyle().isNone();
    const bool line = g->lineStyle() != QCPGraph::lsNone && g->pen().style() != Qt::NoPen;
    QPointF last(1e9, 1e9);
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
      if (!std::isfinite(it->value)) continue;
      const QPointF p = g->coordsToPixels(it->key, it->value);
      if (marks && r.contains(p)) cost += 10;
      if (line) {  // the segment from the previous point, sampled, so a sparse line counts where it runs
        for (int s = 1; s <= 8 && last.x() < 1e8; ++s) {
          const QPointF q = last + (p - last) * (s / 8.0);
          if (r.contains(q)) cost += 1;
        }
      }
      last = p;
    }
  }
  for (int i = 0; i < plot->plottableCount(); ++i) {
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
    if (!bars || !bars->visible()) continue;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
      if (r.contains(bars->coordsToPixels(it->key, it->value))) cost += 10;
  }
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible() && !t->text().isEmpty())
      if (r.contains(t->position->pixelPosition())) cost += 10;
  return cost;
}

}  // namespace

double moveLegendOffData(QCustomPlot* plot, const QList<Qt::Alignment>& corners) {
  QCPLegend* legend = plot->legend;
  QCPLayoutInset* inset = plot->axisRect()->insetLayout();
  if (!legend || !legend->visible() || corners.isEmpty()) return 0;
  const int index = inset->elements(false).indexOf(legend);
  if (index < 0) return 0;  // a legend in a row of its own hides nothing
  const QRect area = inset->rect();  // the axis rect less the inset layout's margins
  const QSize size = legend->outerRect().size();
  if (area.isEmpty() || size.isEmpty()) return 0;
  Qt::Alignment best = corners.front();
  double bestCost = -1;
  for (Qt::Alignment c : corners) {
    const double cost = hiddenData(plot, legendRectAt(area, size, c));
    if (bestCost < 0 || cost < bestCost) bestCost = cost, best = c;
  }
  if (inset->insetAlignment(index) == best) return bestCost;
  inset->setInsetAlignment(index, best);
  plot->replot();
  return bestCost;
}

int keyColumnsWidth(const QVector<int>& widths, int columns) {
  QVector<int> column(columns, 0);
  for (int i = 0; i < widths.size(); ++i) column[i % columns] = std::max(column[i % columns], widths[i]);
  int total = 0;
  for (int w : column) total += w;
  return total;
}

namespace {

// Keys to a row: the most (one to three) whose columns fit the plot's width, each column as wide as its widest
// key (text, icon and padding). Keys fill rows first, so key i sits in column i % columns.
int legendColumnsThatFit(QCustomPlot* plot) {
  QCPLegend* legend = plot->legend;
  QVector<int> widths;  // each key as it asks to be drawn: icon, padding, text and its margins
  for (int i = 0; i < legend->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = legend->item(i)) widths << item->minimumOuterSizeHint().width();
  const int frame = legend->margins().left() + legend->margins().right() + 8;  // and a little for rounding
  for (int columns = std::min<int>(3, widths.size()); columns > 1; --columns)
    if (frame + legend->columnSpacing() * (columns - 1) + keyColumnsWidth(widths, columns) <= plot->width())
      return columns;
  return 1;
}

// What the keys' flow depends on: which keys there are and in which cells, their names, the legend's font and
// wrap, and the plot's width. Re-flowing (measuring every key's text and moving every key) is done only when this
// changed: a page that redraws unchanged keys once a frame (a slider moving a curve), or a plot resized only in
// height, pays nothing.
QString legendFitInputs(QCustomPlot* plot) {
  QCPLegend* legend = plot->legend;
  QString in = QString::number(plot->width()) + QLatin1Char('|') + legend->font().toString() + QLatin1Char('|') +
               QString::number(legend->wrap());
  for (int i = 0; i < legend->elementCount(); ++i) {  // in cell order, holes included: a key in a stray cell refits
    QCPLayoutElement* cell = legend->elementAt(i);
    in += QLatin1Char('|') + QString::number(quintptr(cell), 16);
    // A key's own font too: a theme sets the keys' fonts, and a key grown under an unchanged legend font and width
    // was squeezed into the old columns ("FP32 · recorded on Second Lab Machine, 2…" on a 768-line projector).
    if (auto* key = qobject_cast<QCPPlottableLegendItem*>(cell))
      in += QLatin1Char(':') + key->plottable()->name() + QLatin1Char('@') + key->font().toString();
  }
  return in;
}

// `force`: the legend was just placed (its fill order set), so its keys are flowed whatever the inputs say.
// A key wider than the chart in one column ("host memcpy · recorded on Second Lab Machine, 2026-11-20" on a 1024 px
// projector with the side column open) is drawn a few points smaller, down to three quarters of the theme's size,
// rather than cut; back to the theme's size when the chart is wide again. The theme's size is the font the legend
// had when this code did not set it last.
void fitLegendFont(QCustomPlot* plot) {
  QCPLegend* legend = plot->legend;
  const int current = legend->font().pointSize();
  if (current <= 0) return;
  const bool ours = plot->property("gpulabLegendShrunkPt").toInt() == current;
  const int full = ours ? plot->property("gpulabLegendFullPt").toInt() : current;
  const int least = std::max(8, full * 3 / 4);
  const int frame = legend->margins().left() + legend->margins().right() + 8;
  auto widestAt = [&](int pt) {
    QFont f = legend->font();
    f.setPointSize(pt);
    legend->setFont(f);  // the keys too
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
      if (QCPAbstractLegendItem* item = legend->item(i)) widest = std::max(widest, item->minimumOuterSizeHint().width());
    return widest;
  };
  int pt = full;
  if (plot->width() > 0)
    while (pt > least && widestAt(pt) + frame > plot->width()) --pt;
  if (legend->font().pointSize() != pt) widestAt(pt);
  plot->setProperty("gpulabLegendFullPt", full);
  plot->setProperty("gpulabLegendShrunkPt", pt);
}

void rewrapLegend(QCustomPlot* plot, bool force = false) {
  if (!force && plot->property("gpulabLegendFitInputs").toString() == legendFitInputs(plot)) return;
  // The keys' font first, so the columns are counted at the size they will be drawn. A new font size alone moves
  // no key between cells: only a new column count (or a hole) re-flows them.
  fitLegendFont(plot);
  const int columns = legendColumnsThatFit(plot);
  const bool changed = plot->legend->wrap() != columns;
  plot->legend->setWrap(columns);
  // Re-flows the keys there now: keys added after a clearGraphs() land in the old grid's leftover columns. Keys that
  // already fill the first cells in order (only a name changed) stay where they are.
  bool flowed = true;
  for (int i = 0, seenHole = 0; i < plot->legend->elementCount(); ++i) {
    if (!plot->legend->elementAt(i)) seenHole = 1;
    else if (seenHole) flowed = false;
  }
  if (changed || !flowed || force) plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
  plot->setProperty("gpulabLegendFitInputs", legendFitInputs(plot));
  if (changed) plot->replot(QCustomPlot::rpQueuedReplot);
}

class LegendRewrapOnResize : public QObject {
 public:
  explicit LegendRewrapOnResize(QCustomPlot* plot) : QObject(plot), m_plot(plot) {
    setObjectName(QStringLiteral("legendRewrapOnResize"));
    plot->installEventFilter(this);
  }
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == m_plot && event->type() == QEvent::Resize) rewrapLegend(m_plot);
    return QObject::eventFilter(watched, event);
  }

 private:
  QCustomPlot* m_plot;
};

}  // namespace

bool legendIsAbove(QCustomPlot* plot) { return plot->legend && plot->legend->layout() == plot->plotLayout(); }

void placeLegendAboveFitting(QCustomPlot* plot) {
  if (!plot->legend) return;
  if (legendIsAbove(plot)) {
    rewrapLegend(plot);  // nothing when its keys, their names and the width are as they were
  } else {
    placeLegendAbove(plot, plot->legend->wrap());
    rewrapLegend(plot, true);
  }
  if (!plot->findChild<QObject*>(QStringLiteral("legendRewrapOnResize"), Qt::FindDirectChildrenOnly))
    new LegendRewrapOnResize(plot);
}

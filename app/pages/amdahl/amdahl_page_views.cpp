// The Amdahl page's drawing: the law against workers (with the measured marks at the slider's share), the measured
// run close up (each recording's run its own series), and the data-loading bars; how the two small plots share the
// room; and the theme they are drawn in.
#include "app_context.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/models/amdahl_model.hpp"
#include "pages/amdahl/amdahl_page.h"
#include "pages/amdahl/amdahl_page_detail.h"
#include "qcustomplot.h"
#include "widgets/legend_placement.h"
#include "widgets/plot_style.h"
#include "widgets/recorded_look.h"
#include "widgets/spread_marks.h"
#include "widgets/stacked_or_tabbed.h"

#include <QFontMetrics>
#include <QSpinBox>
#include <QTabBar>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

using namespace gpulab::models;
using namespace amdahl_page_detail;

void AmdahlPage::replot() {
  // Only what the changed controls feed is redrawn: a slider dragged on one plot must not pay for all three.
  const unsigned parts = std::exchange(m_dirty, 0u);
  if (parts & Readouts) updateReadouts();
  const Theme& t = m_ctx.theme();
  // The small plots' keys decide how the lower pane is laid out: it is fitted again only when their texts changed.
  const auto keysOf = [](const QCustomPlot* p) {
    QStringList names;
    for (int i = 0; i < p->legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(p->legend->item(i))) names << item->plottable()->name();
    return names;
  };
  const QStringList scaleKeys = keysOf(m_scalePlot), barKeys = keysOf(m_barPlot);
  const double s = serialShare();
  const int n = workers();

  QVector<double> mx, my, lows, highs;
  for (const Point& p : m_measured) mx << p.threads, my << p.speedup, lows << p.range.low, highs << p.range.high;
  for (QCPErrorBars* bars : {m_runSpread, m_bigSpread}) bars->data()->clear();
  const auto setRecordedData = [this](QList<QCPGraph*>& graphs, const std::function<bool(double)>& drawn) {
    for (int i = 0; i < graphs.size() && i < int(m_recorded.size()); ++i) {
      QVector<double> rx, ry;
      for (const Point& p : m_recorded[size_t(i)].points)
        if (drawn(m_recorded[size_t(i)].share)) rx << p.threads, ry << p.speedup;
      graphs[i]->setData(rx, ry);
    }
  };
  if (parts & Law) {
    QVector<double> xs, ys, ideal;
    for (int i = 0; i <= 200; ++i) {
      const double x = std::pow(10.0, 4.0 * i / 200.0);
      xs << x;
      ys << amdahl_speedup(s, x);
      ideal << x;
    }
    m_curve->setData(xs, ys, true);
    m_ideal->setData(xs, ideal, true);
    if (s > 0) {
      const double lim = amdahl_limit(s);
      m_limit->setData({1.0, k_maxWorkers * 1.15}, {lim, lim}, true);
      m_limit->setVisible(true);
      m_limitText->setVisible(true);
      m_limitText->position->setCoords(1.15, lim * 1.08);
      m_limitText->setText(tr("ceiling 1/s = %1").arg(fmtLimit(s)));
    } else {
      m_limit->setData(QVector<double>{}, QVector<double>{});
      m_limitText->setVisible(false);
    }
    // Attached only now that the curve has points: a tracer on an empty graph logs "graph has no data".
    m_tracer->setGraph(m_curve);
    m_tracer->setGraphKey(n);
    m_tracer->updatePosition();
    m_tracerText->setText(tr("%1 at %2").arg(fmtTimes(amdahl_speedup(s, n)), fmtCount(n)));
    // The big plot's curve is the slider's share: measured points belong on it only when they were run at that
    // share (a 30 % job under the 5 % curve would look like the law failing). The close-up always has them.
    const auto sameShare = [s](double share) { return share >= 0 && std::fabs(share - s) < 1e-9; };
    m_measuredBig->setData(sameShare(m_runShare) ? mx : QVector<double>{}, sameShare(m_runShare) ? my : QVector<double>{});
    for (int i = 0; sameShare(m_runShare) && i < my.size(); ++i) m_bigSpread->addData(my[i] - lows[i], highs[i] - my[i]);
    if (m_recordedStale & Law) remakeRecordedGraphs(m_plot, m_recordedBig);  // recordings or theme changed
    m_recordedStale &= ~unsigned(Law);
    setRecordedData(m_recordedBig, sameShare);
    for (QCPGraph* g : QList<QCPGraph*>{m_measuredBig} + m_recordedBig) {  // the key lists only the marks there
      if (g->data()->isEmpty()) g->removeFromLegend();
      else g->addToLegend();
    }
    m_plot->replot();
  }
  if (parts & Scaling) {
    // The close-up: threads on a linear axis, the model at the share the run used (not the slider's, which may
    // have moved since).
    double maxT = m_maxThreads->value();
    for (const Point& p : m_measured) maxT = std::max(maxT, p.threads);
    for (const auto& run : m_recorded)
      for (const Point& p : run.points) maxT = std::max(maxT, p.threads);
    const double runShare = m_runShare >= 0 ? m_runShare : (!m_recorded.empty() ? m_recorded.front().share : s);
    QVector<double> tx, tm, ti;
    for (int i = 0; i <= 100; ++i) {
      const double x = 1 + (maxT - 1) * i / 100.0;
      tx << x;
      tm << amdahl_speedup(runShare, x);
      ti << x;
    }
    m_runIdeal->setData(tx, ti, true);
    m_runModel->setData(tx, tm, true);
    m_runModel->setName(tr("Amdahl at s = %1").arg(fmtPercent(runShare)));
    m_runMeasured->setData(mx, my);
    for (int i = 0; i < my.size(); ++i) m_runSpread->addData(my[i] - lows[i], highs[i] - my[i]);
    if (m_recordedStale & Scaling) remakeRecordedGraphs(m_scalePlot, m_runRecorded);
    m_recordedStale &= ~unsigned(Scaling);
    setRecordedData(m_runRecorded, [](double) { return true; });
    // The key lists only what is drawn: no "measured here" before this machine has measured.
    if (m_runMeasured->data()->isEmpty()) m_runMeasured->removeFromLegend();
    else m_runMeasured->addToLegend();
    m_scalePlot->xAxis->setRange(0.7, maxT + 0.3);
    // Threads are whole numbers: ticks on them only, about five across (quarter threads crowded a projector).
    const double tickStep = std::max(1.0, std::ceil(maxT / 5));
    auto threadTicks = m_scalePlot->xAxis->ticker().dynamicCast<QCPAxisTickerFixed>();
    if (!threadTicks) {
      threadTicks.reset(new QCPAxisTickerFixed);
      threadTicks->setScaleStrategy(QCPAxisTickerFixed::ssNone);
      m_scalePlot->xAxis->setTicker(threadTicks);
    }
    threadTicks->setTickStep(tickStep);
    double top = std::max(2.0, maxT) * 1.08;
    for (double v : my) top = std::max(top, v * 1.15);
    m_scalePlot->yAxis->setRange(0, top);
    if (mx.isEmpty() && m_recorded.empty())
      m_scaleNote->setText(tr("Space: measure"));
    else if (mx.isEmpty())
      m_scaleNote->setText(tr("hollow: recorded"));
    else
      m_scaleNote->setText(tr("run at s = %1").arg(fmtPercent(runShare)));
    if (keysOf(m_scalePlot) != scaleKeys) placeLegendAboveFitting(m_scalePlot);  // as many to a row as fit
    m_scalePlot->replot();
  }
  if (parts & Loading) {
    // Data loading, before and after: two stacked horizontal bars in units of the old job's time. A value moves the
    // bars and their total; the bars, their key and their ticks are made once.
    if (!m_loadBars) makeLoadingBars();
    const double L = loadingShare(), k = gpuFactor();
    m_loadBars->setData({2.0, 1.0}, {L, L});
    m_gpuBars->setData({2.0, 1.0}, {1.0 - L, (1.0 - L) / k});
    m_loadBars->setBrush(t.cpu);
    m_loadBars->setPen(QPen(t.cpu.darker(130)));
    m_gpuBars->setBrush(t.gpu);
    m_gpuBars->setPen(QPen(t.gpu.darker(130)));
    // Room right of the shorter bar for its total at the theme's font (it was cut at the plot's edge on a
    // projector): the range grows until the text fits, from the data area's current width.
    const QString totalText = tr("%1 → %2").arg(fmtFixed(L + (1 - L) / k, 2), fmtTimes(partial_speedup(1 - L, k), 2));
    QFont tf(QStringLiteral("DejaVu Sans"), t.plotFontPt);
    tf.setBold(true);
    m_barAreaPx = m_barPlot->axisRect()->width();
    const double areaPx = std::max(120, m_barAreaPx);
    const double textShare = (QFontMetrics(tf).horizontalAdvance(totalText) + 16) / areaPx;
    const double end = L + (1 - L) / k + 0.02;
    m_barPlot->xAxis->setRange(0, std::max(1.6, std::min(4.0, end / std::max(0.2, 1 - textShare))));
    m_barTotal->position->setCoords(L + (1 - L) / k + 0.02, 1.0);
    m_barTotal->setText(totalText);
    m_barTotal->setColor(t.text);
    m_barTotal->setFont(tf);
    m_barPlot->replot();
  }
  // Their keys decide the pane's layout: fitted again only when a key's text changed (a resize fits it too).
  if ((parts & (Scaling | Loading)) && (keysOf(m_scalePlot) != scaleKeys || keysOf(m_barPlot) != barKeys))
    fitLowerPane();
}

void AmdahlPage::makeLoadingBars() {
  m_loadBars = new QCPBars(m_barPlot->yAxis, m_barPlot->xAxis);
  m_gpuBars = new QCPBars(m_barPlot->yAxis, m_barPlot->xAxis);
  m_loadBars->setName(tr("loading data (CPU)"));
  m_gpuBars->setName(tr("GPU maths"));
  m_gpuBars->moveAbove(m_loadBars);
  for (auto* b : {m_loadBars, m_gpuBars}) b->setWidth(0.6);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  ticker->addTick(2, tr("before"));
  ticker->addTick(1, tr("after"));
  m_barPlot->yAxis->setTicker(ticker);
  m_barPlot->yAxis->setRange(0.4, 2.6);
  m_barPlot->xAxis->ticker()->setTickCount(4);
  m_barPlot->xAxis->setLabel(tr("time (old job = 1)"));  // short: the bars share the width with the close-up
  m_barTotal = new QCPItemText(m_barPlot);
  m_barTotal->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  m_barPlot->legend->setVisible(true);
  // The bars and their total fill the axis rect: the key goes above it, as many keys to a row as fit.
  placeLegendAboveFitting(m_barPlot);
}

void AmdahlPage::remakeRecordedGraphs(QCustomPlot* plot, QList<QCPGraph*>& graphs) {
  for (QCPGraph* g : graphs) plot->removeGraph(g);
  graphs.clear();
  const Theme& t = m_ctx.theme();
  for (size_t i = 0; i < m_recorded.size(); ++i) {
    QCPGraph* g = plot->addGraph();
    const QString label = m_recordedLabels.value(int(i));
    g->setName(label);  // "recorded on AMD EPYC, 2026-12-01": the key says which recording
    styleRecordedGraph(g, t, t.cpu, m_recorded[i].source);
    g->setLineStyle(QCPGraph::lsNone);  // marks only, as the measured ones on the law's plot
    tagSource(g, label);
    graphs << g;
  }
}

namespace {

// The width of `plot`'s widest key: its name, icon and the padding between.
int keyWidth(const QCustomPlot* plot) {
  const QCPLegend* legend = plot->legend;
  const QFontMetrics fm(legend->font());
  int widest = 0;
  for (int i = 0; i < legend->itemCount(); ++i)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
      widest = std::max(widest, fm.horizontalAdvance(item->plottable()->name()));
  return widest + legend->iconSize().width() + legend->iconTextPadding();
}

// The width a one-column key of `plot` takes above it, its margins included.
int legendWidth(const QCustomPlot* plot) {
  return keyWidth(plot) + plot->legend->margins().left() + plot->legend->margins().right();
}

// The height of `plot`'s key above it when the plot is `width` wide: one to three keys a row.
int keyHeight(const QCustomPlot* plot, int width) {
  const QCPLegend* legend = plot->legend;
  const int keys = legend->itemCount();
  if (keys == 0 || !legend->visible()) return 0;
  // Counted as placeLegendAboveFitting counts them, so the rows reckoned here are the rows it lays out.
  const int columns = std::clamp(width / (keyWidth(plot) + 24), 1, 3);
  const int rows = (keys + columns - 1) / columns;
  const int row = std::max(QFontMetrics(legend->font()).height(), legend->iconSize().height()) + legend->rowSpacing();
  return rows * row + legend->margins().top() + legend->margins().bottom();
}

// The room a plot's axes take at the theme's fonts: the x tick and title lines (with padding) below the data, and
// the y title's length along it.
struct AxesRoom {
  int below = 0, yTitle = 0;
  QFont tick, title;
};
AxesRoom axesRoom(const Theme& t, const QString& yLabel) {
  const QFont tickFont(QStringLiteral("DejaVu Sans"), t.plotFontPt);
  QFont bold = tickFont;
  bold.setBold(true);
  const QFontMetrics tick(tickFont), title(bold);
  return {tick.height() + title.height() + 24, title.horizontalAdvance(yLabel) + 12, tickFont, bold};
}

}  // namespace

// The law's least readable height at the theme's fonts: its tick and axis-title lines and a data area a class can
// read. Below it and the small plots' (fitLowerPane) the views take turns.
void AmdahlPage::fitPlotSizes(const Theme& t) {
  const AxesRoom axes = axesRoom(t, m_plot->yAxis->label());
  m_plot->setMinimumHeight(std::max(axes.below + 150, axes.yTitle));
  fitLowerPane();
}

void AmdahlPage::fitLowerPane() {
  const AxesRoom axes = axesRoom(m_ctx.theme(), m_scaleYTitle);
  const int spacing = m_lowerLayout->spacing();
  const int width = std::max(m_visual->width(), 320);
  const int room = width - spacing;
  // What each plot needs across: the close-up its widest key on a row (a recording's name is long), the bars their
  // key and their axes ("before" and the title under the data).
  const int scaleNeed = legendWidth(m_scalePlot);
  const int barAxes = QFontMetrics(axes.title).horizontalAdvance(m_barPlot->xAxis->label()) +
                      QFontMetrics(axes.tick).horizontalAdvance(tr("before")) + 30;
  const int barNeed = std::max(legendWidth(m_barPlot), barAxes);
  // Each plot's least height at a width: its keys in the rows that width allows, the x axis, and a data area
  // readable and as tall as the y title along it.
  const auto least = [&](QCustomPlot* p, int plotWidth) {
    return keyHeight(p, plotWidth) + axes.below + std::max(90, axes.yTitle);
  };
  // One above the other when side by side would cut a key, but only where the views have the height for both
  // (each view alone behind a tab at worst): rather a long key cut at the close-up's edge than the page pushed
  // off the screen. Views held at their least height by the stacked plots may have no more: side by side again.
  const int stackedMin = least(m_scalePlot, width) + least(m_barPlot, width) + spacing;
  const int viewHeight = m_visual->height() - m_visual->tabs()->sizeHint().height();
  const bool stackedNow = m_lowerLayout->direction() == QBoxLayout::TopToBottom;
  const bool heldByStack = stackedNow && m_visual->height() <= m_visual->minimumSizeHint().height();
  const bool sideBySide = room >= scaleNeed + barNeed || stackedMin >= viewHeight || heldByStack;
  // Side by side, the width is shared in proportion to the needs; one above the other, each has all of it and the
  // close-up the larger share of the height (the bars read at any height, its points do not).
  const int scaleWidth = sideBySide ? room * scaleNeed / (scaleNeed + barNeed) : width;
  int scaleMin = least(m_scalePlot, scaleWidth), barMin = least(m_barPlot, sideBySide ? room - scaleWidth : width);
  int paneMin = sideBySide ? std::max(scaleMin, barMin) : scaleMin + barMin + spacing;
  // Where even side by side is more than the views have (a projector at 1366×768 with a run and two recordings:
  // five keys), the plots share what there is rather than lose their foot below the pane; and the close-up's y
  // title goes where it would be longer than the data area beside it (its ticks, and the law's plot, say speed-up).
  if (sideBySide && m_visual->height() > 0 && paneMin > viewHeight) {
    paneMin = std::max(viewHeight, 150);
    scaleMin = std::min(scaleMin, paneMin);
    barMin = std::min(barMin, paneMin);
  }
  const bool yTitleFits = scaleMin - keyHeight(m_scalePlot, scaleWidth) - axes.below >= axes.yTitle;
  if (const QString yLabel = yTitleFits ? m_scaleYTitle : QString(); m_scalePlot->yAxis->label() != yLabel) {
    m_scalePlot->yAxis->setLabel(yLabel);
    m_scalePlot->replot(QCustomPlot::rpQueuedReplot);
  }
  const auto direction = sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
  const int scaleStretch = sideBySide ? scaleNeed : 3, barStretch = sideBySide ? barNeed : 2;
  if (direction == m_lowerLayout->direction() && paneMin == m_lowerPane->minimumHeight() &&
      scaleMin == m_scalePlot->minimumHeight() && barMin == m_barPlot->minimumHeight() &&
      m_lowerLayout->stretch(0) == scaleStretch && m_lowerLayout->stretch(1) == barStretch)
    return;
  m_lowerLayout->setDirection(direction);
  m_lowerLayout->setStretch(0, scaleStretch);
  m_lowerLayout->setStretch(1, barStretch);
  m_scalePlot->setMinimumHeight(scaleMin);
  m_barPlot->setMinimumHeight(barMin);
  m_lowerPane->setMinimumHeight(paneMin);
  m_visual->updateGeometry();
  m_visual->relayout();
}

void AmdahlPage::applyTheme(const Theme& t) {
  Page::applyTheme(t);
  fitPlotSizes(t);
  for (QCustomPlot* p : {m_plot, m_scalePlot, m_barPlot}) stylePlot(p, t);
  styleGraph(m_curve, t, t.accent, SeriesKind::Model);
  // The law is this page's main line: dotted like every model, but as thick as a measured line so a
  // projector shows it.
  QPen curvePen = seriesPen(t, t.accent, SeriesKind::Model);
  curvePen.setWidthF(t.lineWidth);
  m_curve->setPen(curvePen);
  styleGraph(m_ideal, t, t.model, SeriesKind::Model);
  styleGraph(m_limit, t, t.bad, SeriesKind::Datasheet);
  styleGraph(m_measuredBig, t, t.cpu, SeriesKind::Measured);
  styleGraph(m_runIdeal, t, t.model, SeriesKind::Model);
  m_runIdeal->setName(tr("perfect: N×"));
  m_runModel->setPen(curvePen);
  styleGraph(m_runMeasured, t, t.cpu, SeriesKind::Measured);
  for (QCPErrorBars* bars : {m_runSpread, m_bigSpread}) bars->setPen(QPen(t.cpu.darker(140), 1.5));
  m_runMeasured->setName(tr("measured here"));
  m_scalePlot->legend->setVisible(true);
  placeLegendAboveFitting(m_scalePlot);  // a small plot: any corner of it would hide a line
  m_tracer->setPen(QPen(t.accent, t.lineWidth));
  m_tracer->setBrush(t.surface);
  m_tracer->setSize(t.markerSize + 4);
  QFont f(QStringLiteral("DejaVu Sans"), t.plotFontPt);
  f.setBold(true);
  m_tracerText->setFont(f);
  m_tracerText->setColor(t.accent);
  m_limitText->setFont(f);
  m_limitText->setColor(t.bad);
  QFont small(QStringLiteral("DejaVu Sans"), legendFontPt(t));
  m_scaleNote->setFont(small);
  m_scaleNote->setColor(t.mutedText);
  updateReadouts();
  m_recordedStale = Law | Scaling;  // the recordings' graphs are styled for the theme
  m_dirty = All;  // a new theme restyles every plot
  replot();
}


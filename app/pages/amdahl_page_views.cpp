// The Amdahl page's drawing: the law against workers (with the measured marks at the slider's share), the measured
// run close up, and the data-loading bars; and the theme they are drawn in.
#include "app_context.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/models/amdahl_model.hpp"
#include "pages/amdahl_page.h"
#include "pages/amdahl_page_detail.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/spread_marks.h"
#include "widgets/stacked_or_tabbed.h"

#include <QFontMetrics>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace gpulab::models;
using namespace amdahl_page_detail;

void AmdahlPage::replot() {
  // Only what the changed controls feed is redrawn: a slider dragged on one plot must not pay for all three.
  const unsigned parts = std::exchange(m_dirty, 0u);
  const Theme& t = m_ctx.theme();
  const double s = serialShare();
  const int n = workers();

  QVector<double> mx, my, rx, ry, lows, highs;
  for (const Point& p : m_measured) mx << p.threads, my << p.speedup, lows << p.range.low, highs << p.range.high;
  for (QCPErrorBars* bars : {m_runSpread, m_bigSpread}) bars->data()->clear();
  for (const Point& p : m_recorded) rx << p.threads, ry << p.speedup;
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
    m_recordedBig->setData(sameShare(m_recordedShare) ? rx : QVector<double>{},
                           sameShare(m_recordedShare) ? ry : QVector<double>{});
    for (QCPGraph* g : {m_measuredBig, m_recordedBig}) {  // the key lists only the marks that are there
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
    for (const Point& p : m_recorded) maxT = std::max(maxT, p.threads);
    const double runShare = m_runShare >= 0 ? m_runShare : (m_recordedShare >= 0 ? m_recordedShare : s);
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
    m_runRecorded->setData(rx, ry);
    m_scalePlot->xAxis->setRange(0.7, maxT + 0.3);
    // Threads are whole numbers: ticks on them only, about five across (quarter threads crowded a projector).
    QSharedPointer<QCPAxisTickerFixed> threadTicks(new QCPAxisTickerFixed);
    threadTicks->setTickStep(std::max(1.0, std::ceil(maxT / 5)));
    threadTicks->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    m_scalePlot->xAxis->setTicker(threadTicks);
    double top = std::max(2.0, maxT) * 1.08;
    for (double v : my) top = std::max(top, v * 1.15);
    m_scalePlot->yAxis->setRange(0, top);
    if (mx.isEmpty() && rx.isEmpty())
      m_scaleNote->setText(tr("Space: measure"));
    else if (mx.isEmpty())
      m_scaleNote->setText(tr("hollow: recorded"));
    else
      m_scaleNote->setText(tr("run at s = %1").arg(fmtPercent(runShare)));
    m_scalePlot->replot();
  }
  if (parts & Loading) {
    // Data loading, before and after: two stacked horizontal bars in units of the old job's time.
    m_barPlot->clearPlottables();
    m_barPlot->clearItems();
    const double L = loadingShare(), k = gpuFactor();
    auto* loadBars = new QCPBars(m_barPlot->yAxis, m_barPlot->xAxis);
    auto* gpuBars = new QCPBars(m_barPlot->yAxis, m_barPlot->xAxis);
    loadBars->setName(tr("loading data (CPU)"));
    gpuBars->setName(tr("GPU maths"));
    loadBars->setData({2.0, 1.0}, {L, L});
    gpuBars->setData({2.0, 1.0}, {1.0 - L, (1.0 - L) / k});
    gpuBars->moveAbove(loadBars);
    for (auto* b : {loadBars, gpuBars}) b->setWidth(0.6);
    loadBars->setBrush(t.cpu);
    loadBars->setPen(QPen(t.cpu.darker(130)));
    gpuBars->setBrush(t.gpu);
    gpuBars->setPen(QPen(t.gpu.darker(130)));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(2, tr("before"));
    ticker->addTick(1, tr("after"));
    m_barPlot->yAxis->setTicker(ticker);
    m_barPlot->yAxis->setRange(0.4, 2.6);
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
    m_barPlot->xAxis->ticker()->setTickCount(4);
    m_barPlot->xAxis->setLabel(tr("time, share of the old job"));
    auto* total = new QCPItemText(m_barPlot);
    total->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    total->position->setCoords(L + (1 - L) / k + 0.02, 1.0);
    total->setText(totalText);
    total->setColor(t.text);
    total->setFont(tf);
    m_barPlot->legend->setVisible(true);
    placeLegendAbove(m_barPlot, 2);  // the bars and their total fill the axis rect: the key goes above it
    m_barPlot->replot();
  }
}

// Each plot's least readable height at the theme's fonts: its tick and axis-title lines, the key above the small
// plots, a data area a class can read, and room along the y axis for its title. Below these the views take turns.
void AmdahlPage::fitPlotSizes(const Theme& t) {
  const QFontMetrics tick(QFont(QStringLiteral("DejaVu Sans"), t.plotFontPt));
  QFont bold(QStringLiteral("DejaVu Sans"), t.plotFontPt);
  bold.setBold(true);
  const QFontMetrics title(bold);
  const QFontMetrics key(QFont(QStringLiteral("DejaVu Sans"), legendFontPt(t)));
  const int axes = tick.height() + title.height() + 24;  // x ticks and title, padding
  const int yTitle = title.horizontalAdvance(m_scalePlot->yAxis->label()) + 12;
  m_plot->setMinimumHeight(std::max(axes + 150, yTitle));
  const int small = std::max(2 * key.height() + axes + 90, 2 * key.height() + yTitle);
  for (QCustomPlot* p : {m_scalePlot, m_barPlot}) p->setMinimumHeight(small);
  m_lowerPane->setMinimumHeight(small);
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
  styleGraph(m_recordedBig, t, t.cpu, SeriesKind::Recorded);
  styleGraph(m_runIdeal, t, t.model, SeriesKind::Model);
  m_runIdeal->setName(tr("perfect: N×"));
  m_runModel->setPen(curvePen);
  styleGraph(m_runMeasured, t, t.cpu, SeriesKind::Measured);
  for (QCPErrorBars* bars : {m_runSpread, m_bigSpread}) bars->setPen(QPen(t.cpu.darker(140), 1.5));
  m_runMeasured->setName(tr("measured here"));
  styleGraph(m_runRecorded, t, t.cpu, SeriesKind::Recorded);
  m_runRecorded->setName(tr("recorded"));
  m_scalePlot->legend->setVisible(true);
  placeLegendAbove(m_scalePlot, 2);  // a small plot: any corner of it would hide a line
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
  m_dirty = All;  // a new theme restyles every plot
  replot();
}


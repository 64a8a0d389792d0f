// The batch page's drawing: the sweep plot (model line, recorded sweeps, this sweep with its spread, the crossovers)
// and the small roofline, from the sweep and the model (models/batch_model); the strip's sentences.
#include "app_context.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "pages/batch/batch_page.h"
#include "models/device_words.h"
#include "qcustomplot.h"
#include "widgets/legend_placement.h"
#include "widgets/plot_style.h"
#include "widgets/roofline_plot.h"
#include "widgets/recorded_look.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"

#include <QLabel>

#include <algorithm>
#include <set>
#include <cmath>
#include <limits>

using gpulab::Precision;

namespace {

QString precName(Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }

// A recorded sweep's device on the legend: its short name, and for a device that is neither the CPU backend nor a
// GPU (a CPU-type Vulkan device, the emulator) what it is first, so it is never taken for a GPU.
QString recordedDeviceName(const batch_model::RecordedSweep& s) {
  const QString name = QString::fromStdString(s.deviceName);
  if (s.device.is_gpu || s.device.device_class == gpulab::DeviceClass::cpu) return name;
  return QObject::tr("%1 (%2)").arg(QString::fromStdString(s.device.noun), name);
}

// The sweep plot's graphs handed out in drawing order, reusing those of the last redraw: a redraw moves data
// into graphs it already has (their legend keys stay) and makes one only where the picture gained a series.
class GraphPool {
 public:
  explicit GraphPool(QCustomPlot* plot) : m_plot(plot) {}
  QCPGraph* next() { return m_used < m_plot->graphCount() ? m_plot->graph(m_used++) : (++m_used, m_plot->addGraph()); }
  // Removes the graphs this redraw did not use (a recording closed, the model not yet known).
  void dropUnused() {
    while (m_plot->graphCount() > m_used) m_plot->removeGraph(m_plot->graphCount() - 1);
  }

 private:
  QCustomPlot* m_plot;
  int m_used = 0;
};

// An item kept between redraws: made the first time it is shown, hidden (not deleted) while not needed.
template <typename Item>
Item* shownItem(Item*& item, QCustomPlot* plot) {
  if (!item) item = new Item(plot);
  item->setVisible(true);
  return item;
}
void hideItem(QCPAbstractItem* item) {
  if (item) item->setVisible(false);
}

}  // namespace

void BatchPage::addRecordedToRoofline(const batch_model::RecordedSweep& rs, const QString& name, const QString& source,
                                      QVector<RooflinePlot::Point>& points, QVector<RooflinePlot::Roof>& roofs,
                                      QStringList& withoutTriad) const {
  const Theme& theme = m_ctx.theme();
  const QColor hue = rs.device.is_gpu ? theme.gpu : theme.cpu;
  const QString device = QString::fromStdString(rs.deviceName);
  for (std::size_t i = 0; i < rs.batches.size(); ++i) {
    RooflinePlot::Point rp;
    rp.intensity = rs.intensities[i];
    rp.flops = rs.flopsPerS[i];
    rp.color = hue;
    rp.recorded = true;
    rp.source = rs.source;
    rp.device = device;
    rp.group = tr("B sweep · %1").arg(name);
    rp.tooltip = tr("B = %1, %2 on %3\n%4 at %5 FLOP/B\n%6")
                     .arg(fmtCount(static_cast<long long>(rs.batches[i])), precName(rs.precision), device,
                          fmtSi(rs.flopsPerS[i], "FLOP/s"), fmtFixed(rs.intensities[i], 2), source);
    points << rp;
  }
  if (!(rs.bandwidth > 0)) {
    withoutTriad << device;
    return;
  }
  // The recording's own roofs: its triad (the sweep's, or the one the sweep's plan runs there) and, where it was
  // recorded, the device's FMA peak; never this machine's, which the model roof is.
  RooflinePlot::Roof roof;
  roof.label = tr("%1 %2 triad%3 · %4")
                   .arg(device, fmtSi(rs.bandwidth, "B/s"),
                        rs.peakFlops > 0 ? tr(", %1 FMA peak").arg(fmtSi(rs.peakFlops, "FLOP/s")) : QString(), source);
  roof.bandwidth = rs.bandwidth;
  roof.peakFlops = rs.peakFlops;
  roof.color = hue;
  roof.kind = SeriesKind::Recorded;
  roof.source = rs.source;
  roofs << roof;
}

void BatchPage::replot() {
  const Theme& theme = m_ctx.theme();
  GraphPool graphs(m_plot);
  stylePlot(m_plot, theme);
  useLogAxis(m_plot, true);
  useLogAxis(m_plot, false, QStringLiteral("FLOP/s"));
  m_plot->xAxis->setLabel(tr("Batch size B (rows of X)"));
  m_plot->yAxis->setLabel(tr("Achieved speed"));
  m_plot->legend->setVisible(true);

  // What is set before a sweep has points, what was run after (the model's state says which).
  const batch_model::SweepSetup shown = shownSetup();
  // Green only for a real GPU: a CPU-type Vulkan device (lavapipe) is drawn in the CPU's colour.
  const QColor hw = shown.isGpu ? theme.gpu : theme.cpu;
  const Precision p = shown.precision;
  const double di = shown.dIn, dout = shown.dOut;
  const double bpe = gpulab::bytes_per_element(p);
  const double peak = peakFlops();

  const QVector<long long> planned = batches();
  double bmin = planned.isEmpty() ? 1 : double(planned.front()), bmax = planned.isEmpty() ? 1024 : double(planned.back());
  for (const SweepPoint& s : m_state.points) {
    bmin = std::min(bmin, double(s.batch));
    bmax = std::max(bmax, double(s.batch));
  }
  double ylo = std::numeric_limits<double>::infinity(), yhi = 0;

  // The model, as soon as a bandwidth is known: attainable = min(peak, I(B) · bandwidth).
  if (m_bandwidth > 0 && peak > 0) {
    QVector<double> xs, ys;
    for (double lb = std::log2(bmin); lb <= std::log2(bmax) + 1e-9; lb += 0.05) {
      const double b = std::exp2(lb);
      const double I = gpulab::models::arithmetic_intensity(b, di, dout, bpe);
      xs << b;
      ys << gpulab::models::attainable_flops(peak, m_bandwidth, I);
    }
    QCPGraph* g = graphs.next();
    g->setName(tr("model: min(%1 peak, FLOP/B × %2)").arg(fmtSi(peak, "FLOP/s"), fmtSi(m_bandwidth, "B/s")));
    g->setData(xs, ys, true);
    styleGraph(g, theme, theme.model, SeriesKind::Model);
    tagSource(g, tr("model"));
    for (double y : ys) {
      ylo = std::min(ylo, y);
      yhi = std::max(yhi, y);
    }
    const double bx = modelCrossoverBatch();
    if (bx > 0) {
      auto* line = shownItem(m_modelLine, m_plot);
      line->point1->setCoords(bx, 1);
      line->point2->setCoords(bx, 2);
      line->setPen(seriesPen(theme, theme.model, SeriesKind::Model));
    } else {
      hideItem(m_modelLine);
    }
  } else {
    hideItem(m_modelLine);
  }

  // Recorded sweeps of the same shape (the batch plan's, models/batch_model): hollow marks, so a laptop class sees
  // what a datacentre GPU does.
  const SourcedResults inputs = sourcedResults();
  const std::vector<batch_model::RecordedSweep> recorded =
      batch_model::recordedSweeps(inputs, static_cast<long long>(di), static_cast<long long>(dout));
  QVector<RooflinePlot::Point> roofPts;
  QVector<RooflinePlot::Roof> recordedRoofs;
  QStringList withoutTriad;  // recorded sweeps whose recording has no triad to read them against
  for (const batch_model::RecordedSweep& rs : recorded) {
    const QString source = m_ctx.results().sourceLabel(rs.source);
    QCPGraph* g = graphs.next();
    // The device once: the recording's label names it already unless the sweep ran on another of its devices.
    const QString device = recordedDeviceName(rs);
    // On the key without the badge's "recorded on " (the hollow marks say it; the CSV keeps the whole label): with
    // two recordings the one-column key was wider than the plot on a 1366x768 projector and cut the second name.
    QString shown = source;
    if (shown.startsWith(tr("recorded on "))) shown = shown.mid(tr("recorded on ").size());
    g->setName(source.contains(device) ? tr("%1 · %2").arg(precName(rs.precision), shown)
                                       : tr("%1 %2 · %3").arg(device, precName(rs.precision), shown));
    g->setData(QVector<double>(rs.batches.begin(), rs.batches.end()),
               QVector<double>(rs.flopsPerS.begin(), rs.flopsPerS.end()));
    styleRecordedGraph(g, theme, rs.device.is_gpu ? theme.gpu : theme.cpu, rs.source);
    tagSource(g, source);
    for (double y : rs.flopsPerS) {
      ylo = std::min(ylo, y);
      yhi = std::max(yhi, y);
    }
    for (double x : rs.batches) {
      bmin = std::min(bmin, x);
      bmax = std::max(bmax, x);
    }
    addRecordedToRoofline(rs, g->name(), source, roofPts, recordedRoofs, withoutTriad);
  }

  // This sweep, measured here.
  {
    QVector<double> xs, ys, lows, highs;
    std::vector<SweepPoint> sorted = m_state.points;
    std::sort(sorted.begin(), sorted.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.batch < b.batch; });
    for (const SweepPoint& s : sorted) {
      xs << double(s.batch);
      ys << s.flopsPerS;
      lows << s.lowFlopsPerS;
      highs << s.highFlopsPerS;
      ylo = std::min(ylo, s.flopsPerS);
      yhi = std::max(yhi, s.flopsPerS);
      RooflinePlot::Point rp;
      rp.intensity = s.intensity;
      rp.flops = s.flopsPerS;
      rp.color = hw;
      rp.group = tr("B sweep");
      rp.tooltip = tr("B = %1, %2×%3 %4 on %5\n%6 (samples %8 – %9) at %7 FLOP/B\nmeasured here")
                       .arg(fmtCount(s.batch))
                       .arg(int(di))
                       .arg(int(dout))
                       .arg(precName(p), QString::fromStdString(m_state.ran.device), fmtSi(s.flopsPerS, "FLOP/s"), fmtFixed(s.intensity, 2),
                            fmtSi(s.lowFlopsPerS, "FLOP/s"), fmtSi(s.highFlopsPerS, "FLOP/s"));
      roofPts << rp;
    }
    QCPGraph* g = graphs.next();
    graphs.dropUnused();
    g->setName(m_state.points.empty() ? tr("measured here (press Run sweep)")
                                 : tr("measured here: %1 %2×%3").arg(precName(p)).arg(int(di)).arg(int(dout)));
    g->setData(xs, ys, true);
    styleGraph(g, theme, hw, SeriesKind::Measured);
    tagSource(g, tr("measured here"));
    if (!m_spread) m_spread = addSpreadBars(g, ys, lows, highs, hw.darker(140));
    else setSpreadBars(m_spread, g, ys, lows, highs, hw.darker(140));
  }

  // The measured crossover.
  if (m_crossFound && m_crossBatch > 0) {
    auto* line = shownItem(m_crossLine, m_plot);
    line->point1->setCoords(double(m_crossBatch), 1);
    line->point2->setCoords(double(m_crossBatch), 2);
    line->setPen(QPen(theme.good, theme.lineWidth));
    auto* t = shownItem(m_crossText, m_plot);
    t->position->setType(QCPItemPosition::ptPlotCoords);
    t->position->setCoords(double(m_crossBatch), std::isfinite(ylo) ? ylo : 1);
    t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    t->setPadding(QMargins(6, 2, 2, 4));
    t->setText(tr("measured crossover\nB = %1").arg(fmtCount(m_crossBatch)));
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(theme.plotFontPt);
    f.setBold(true);
    t->setFont(f);
    t->setColor(theme.good.darker(theme.dark ? 80 : 130));
    t->setTextAlignment(Qt::AlignLeft);
  } else {
    hideItem(m_crossLine);
    hideItem(m_crossText);
  }
  if (const double bx = modelCrossoverBatch(); bx > 0 && m_bandwidth > 0) {
    auto* t = shownItem(m_ridgeText, m_plot);
    t->position->setCoords(bx, std::isfinite(yhi) && yhi > 0 ? yhi : 1);
    t->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    t->setPadding(QMargins(2, 2, 6, 2));
    t->setText(tr("model ridge\nB ≈ %1").arg(fmtFixed(bx, bx < 10 ? 1 : 0)));
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(theme.plotFontPt);
    t->setFont(f);
    t->setColor(theme.mutedText);
    t->setTextAlignment(Qt::AlignRight);
  } else {
    hideItem(m_ridgeText);
  }

  // One badge per source drawn: "measured here" only once this machine has measured a point.
  m_badge->setVisible(!m_state.points.empty());
  std::set<int> drawn;
  for (const batch_model::RecordedSweep& rs : recorded) drawn.insert(rs.source);
  m_recordedBadges.show(drawn, tr("Hollow marks"));
  fitBadges();
  if (m_state.points.empty() && recorded.empty()) {
    // Nothing measured yet: say what will appear here rather than leave an empty grid.
    auto* hint = shownItem(m_hint, m_plot);
    hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    hint->position->setCoords(0.5, 0.45);
    hint->setText(tr("Run sweep (Space):\none point per batch size"));
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(theme.plotFontPt);
    hint->setFont(f);
    hint->setColor(theme.mutedText);
    hint->setTextAlignment(Qt::AlignCenter);
  } else {
    hideItem(m_hint);
  }
  if (!std::isfinite(ylo) || yhi <= 0) {
    ylo = shown.onGpu ? 1e11 : 1e9;
    yhi = shown.onGpu ? 1e15 : 1e11;
  }
  m_plot->xAxis->setRange(bmin / 1.5, bmax * 1.5);
  m_plot->yAxis->setRange(ylo / 2, yhi * 2.5);
  // The key above the chart, as many entries to a row as fit: inside, with two recordings' long names, it ran
  // past the chart's left edge and over the slow points at small B.
  placeLegendAboveFitting(m_plot);
  m_plot->replot();

  // The small roofline: the model's roof for this device and the sweep's points.
  QVector<RooflinePlot::Roof> roofs;
  if (peak > 0) {
    RooflinePlot::Roof r;
    r.label = tr("model roof");
    r.peakFlops = peak;
    r.bandwidth = m_bandwidth;
    r.color = theme.model;
    r.kind = SeriesKind::Model;
    roofs << r;
  }
  roofs << recordedRoofs;
  m_roof->setRoofs(roofs);
  m_roof->setPoints(roofPts);
  // A recorded sweep drawn without its memory roof says why on the chart.
  m_roof->setTitle(withoutTriad.isEmpty()
                       ? tr("Each point on the roofline")
                       : tr("Each point on the roofline\n%1: no triad recorded, no memory roof")
                             .arg(withoutTriad.join(QStringLiteral(", "))));

  // The strip.
  const double ridge = modelRidge();
  const double bx = modelCrossoverBatch();
  // The roof's source: a catalogued GPU's datasheet, else the device's own clock model, or the CPU's FMA peak.
  const bool sheet = shown.onGpu && m_ctx.gpuInfo() && gpulab::models::find_gpu(m_ctx.gpuInfo()->name);
  QString peakWhat = sheet ? tr("datasheet") : shown.onGpu ? tr("device model") : tr("FMA");
  // Beside it, the FMA peak the roofs suite measured on the sweep's device (only where one was measured).
  if (!m_state.points.empty() && m_state.measuredPeakGflops > 0)
    peakWhat += tr("; measured %1").arg(fmtSi(m_state.measuredPeakGflops * 1e9, "FLOP/s"));
  if (m_bandwidth > 0 && peak > 0) {
    m_modelLabel->setText(tr("<b>Model</b>: %1 peak (%2) ÷ %3 triad = ridge <b>%4 FLOP/B</b> → compute-bound "
                             "from <b>B ≈ %5</b>")
                              .arg(fmtSi(peak, "FLOP/s"), peakWhat, fmtSi(m_bandwidth, "B/s"),
                                   fmtFixed(ridge, ridge < 10 ? 1 : 0),
                                   bx > 0 ? fmtFixed(bx, bx < 10 ? 1 : 0) : tr("never at this width")));
  } else {
    m_modelLabel->setText(tr("<b>Model</b>: %1 peak (%2); the bandwidth is measured at the start of the sweep.")
                              .arg(fmtSi(peak, "FLOP/s"), peakWhat));
  }
  const QString warning = busyWarningHtml(m_busy, theme);
  m_crossLabel->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                        QStringLiteral("<b>%1</b>").arg(crossoverText().toHtmlEscaped()));
  if (m_state.points.empty()) {
    const double i1 = gpulab::models::arithmetic_intensity(1, di, dout, bpe);
    m_lastLabel->setText(tr("%1 sizes planned; B = 1 does %2 FLOP/B, B = %3 does %4 FLOP/B (%5).")
                             .arg(planned.size())
                             .arg(fmtFixed(i1, 2), fmtCount(static_cast<long long>(bmax)),
                                  fmtFixed(gpulab::models::arithmetic_intensity(bmax, di, dout, bpe), 1), precName(p)));
  }
}

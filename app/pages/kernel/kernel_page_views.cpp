// "Inside the kernel": drawing the views from the traces — one warp's load, shared memory, what it adds up to (the
// per-step table is in kernel_page_table.cpp).
#include "pages/kernel/kernel_page.h"
#include "pages/kernel/kernel_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/kernel/model/kernel_recorded.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/kernel_views.h"
#include "widgets/plot_object_pool.h"
#include "widgets/plot_style.h"
#include "widgets/roofline_plot.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <cmath>
#include <limits>

using namespace gpulab;
using namespace gpulab::kernelview;
using namespace kernelpage_detail;

void KernelPage::refreshInstructionChoices() {
  auto t = selectedTrace();
  const QSignalBlocker block(m_instruction);
  const int previous = m_instruction->currentData().toInt();
  const QString previousName = m_instruction->currentText();
  m_instruction->clear();
  if (!t) return;
  for (std::size_t i = 0; i < t->instructions.size(); ++i) {
    const auto& ins = t->instructions[i];
    if (sample_warps(*t, int(i)).empty()) continue;
    m_instruction->addItem(tr("%1 (%2, %3 B per lane)")
                               .arg(qs(ins.name), ins.shared ? tr("shared") : tr("global"))
                               .arg(ins.access_bytes),
                           int(i));
  }
  int pick = m_instruction->findText(previousName);
  if (pick < 0) pick = m_instruction->findData(previous);
  if (pick < 0) pick = 0;
  m_instruction->setCurrentIndex(pick);
}

void KernelPage::refreshWarp() {
  auto t = selectedTrace();
  if (!t || m_instruction->count() == 0) {
    m_warpView->setMessage(!emu::kernel_tracing_available() ? unavailableReason()
                                                            : tr("Trace a step to see what one warp's request fetched."));
    return;
  }
  const int instruction = m_instruction->currentData().toInt();
  const std::vector<int> warps = sample_warps(*t, instruction);
  {
    const QSignalBlocker block(m_warp);
    m_warp->setRange(warps.empty() ? 0 : warps.front(), warps.empty() ? 0 : warps.back());
  }
  const WarpSample* s = find_sample(*t, instruction, m_warp->value());
  if (!s && !warps.empty()) s = find_sample(*t, instruction, warps.front());
  if (!s) {
    m_warpView->setMessage(tr("No warp of block 0 ran this instruction."));
    return;
  }
  const InstructionTrace& ins = t->instructions[std::size_t(instruction)];
  const RequestView v = request_view(*t, *s);
  // The step's totals over all global loads are in the results strip below.
  const QStringList lines = WarpLoadView::requestLines(ins, v);
  m_warpView->setRequest(v, tr("One warp's load: warp %1 of block 0, “%2”, step %3")
                                .arg(s->warp)
                                .arg(qs(ins.name))
                                .arg(qs(step_label(t->step))),
                         lines);
}

void KernelPage::refreshShared() {
  const Theme& theme = m_ctx.theme();
  const std::vector<StepRow> rows = stepRows();
  // Reuse per step.
  // The charts keep their bars and labels between redraws: a trace arriving moves their data (plot_object_pool.h).
  QCustomPlot* p = m_reusePlot;
  m_reusePool->begin();
  stylePlot(p, theme);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  QVector<double> keys, values;
  double top = 1;
  for (const StepRow& r : rows) {
    const double key = QString::fromStdString(r.step).left(2).toInt();
    keys << key;
    values << r.shared_reuse;
    ticker->addTick(key, QString::fromStdString(r.step).left(2));
    top = std::max(top, r.shared_reuse);
    if (r.shared_reuse == 0) {
      auto* none = m_reusePool->text(QStringLiteral("none/%1").arg(key));
      none->position->setCoords(key, 0);
      none->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
      // A dash, as in the table: on a half-width chart seven steps leave each bar about 20 px, and two words
      // "none" side by side ran into each other.
      none->setText(tr("—"));
      none->setColor(theme.mutedText);
    }
  }
  auto* bars = m_reusePool->bars(QStringLiteral("reuse"), p->xAxis, p->yAxis);
  m_reusePool->end();
  bars->setData(keys, values);
  bars->setWidth(0.6);
  bars->setBrush(theme.gpu);
  bars->setPen(QPen(theme.gpu.darker(130)));
  bars->setName(tr("reads per staged element"));
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(0.4, 7.6);
  p->xAxis->setLabel(tr("ladder step"));
  // Short enough for the axis of a half-width chart on a projector at 1366×768 (about 310 px tall); "staged" is in
  // the title, the tooltip and the text below.
  p->yAxis->setLabel(tr("reads per element"));
  p->yAxis->setRange(0, top * 1.15);
  p->legend->setVisible(false);
  setPlotTitle(p, tr("Reuse of shared memory"), theme);
  p->replot();

  // The chosen step's shared instructions: wavefronts per request against the conflict-free count.
  QCustomPlot* c = m_conflictPlot;
  m_conflictPool->begin();
  stylePlot(c, theme);
  auto t = selectedTrace();
  QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
  QVector<double> k2, actual, ideal;
  double ctop = 1;
  if (t) {
    int i = 0;
    for (const InstructionTrace& ins : t->instructions) {
      if (!ins.shared || ins.requests == 0) continue;
      ++i;
      k2 << i;
      actual << double(ins.wavefronts) / double(ins.requests);
      ideal << double(ins.ideal_wavefronts) / double(ins.requests);
      names->addTick(i, QString::fromStdString(ins.name).replace(QLatin1String("load "), QLatin1String("ld "))
                            .replace(QLatin1String("store "), QLatin1String("st ")));
      ctop = std::max(ctop, actual.back());
    }
  }
  auto* actualBars = m_conflictPool->bars(QStringLiteral("traced"), c->xAxis, c->yAxis);
  actualBars->setData(k2, actual);
  actualBars->setWidth(0.35);
  actualBars->setBrush(theme.bad);
  actualBars->setPen(QPen(theme.bad.darker(130)));
  actualBars->setName(tr("traced"));
  auto* idealBars = m_conflictPool->bars(QStringLiteral("conflict-free"), c->xAxis, c->yAxis);
  QVector<double> k2i;
  for (double k : k2) k2i << k + 0.37;
  idealBars->setData(k2i, ideal);
  idealBars->setWidth(0.35);
  idealBars->setBrush(theme.model);
  idealBars->setPen(QPen(theme.model.darker(130)));
  idealBars->setName(tr("conflict-free"));
  c->xAxis->setTicker(names);
  c->xAxis->setTickLabelRotation(k2.size() > 3 ? 30 : 0);
  c->xAxis->setRange(0.4, std::max(1.0, double(k2.size())) + 0.8);
  c->xAxis->setLabel(t ? tr("instruction (step %1)").arg(qs(t->step).left(2)) : tr("instruction"));
  setPlotTitle(c, tr("Bank conflicts"), theme);
  // Per warp request: the title and tooltip say so; the full phrase does not fit the axis on a projector.
  c->yAxis->setLabel(tr("wavefronts"));
  c->yAxis->setRange(0, ctop * 1.25);
  c->legend->setVisible(!k2.isEmpty());
  if (k2.isEmpty() && t) {
    auto* none = m_conflictPool->text(QStringLiteral("none"));
    none->position->setType(QCPItemPosition::ptAxisRectRatio);
    none->position->setCoords(0.5, 0.5);
    // Two short lines: the chart is as narrow as 140 px in a 1366×768 window.
    none->setText(tr("no shared memory\nin step %1").arg(qs(t->step).left(2)));
    none->setColor(theme.mutedText);
  }
  m_conflictPool->end();
  c->replot();

  if (t) {
    const StepRow r = summarize(*t);
    m_sharedText->setText(
        r.shared_stored
            ? tr("Step %1 staged <b>%2</b> into shared memory and read <b>%3</b> back out: each staged element was "
                 "read <b>%4×</b>. Bank conflicts: <b>%5</b> extra wavefronts per shared request. <i>%6.</i>")
                  .arg(qs(step_label(r.step)), fmtBytes(double(r.shared_stored)), fmtBytes(double(r.shared_loaded)),
                       fmtFixed(r.shared_reuse, 1), fmtFixed(r.conflicts_per_request, 2), kernelTraceProvenance())
            : tr("Step %1 reads every operand straight from global memory: nothing is staged in shared memory. "
                 "<i>%2.</i>")
                  .arg(qs(step_label(r.step)), kernelTraceProvenance()));
  } else {
    m_sharedText->setText(tr("<i>%1.</i> Trace a step to see its shared-memory traffic.").arg(kernelTraceProvenance()));
  }
}

std::optional<KernelPage::RecordedStep> KernelPage::recordedSpeed(const std::string& step) const {
  const SourcedResults in = sourcedResults();
  const auto speed = kernel_recorded::recordedSpeed(in, gpulab::emu::module_variant_of(step));
  if (!speed) return std::nullopt;
  RecordedStep out;
  out.flops = speed->flops;
  // Not tr("%1³"): QString::arg reads the superscript as part of the placeholder's number.
  out.size = speed->m == speed->n && speed->n == speed->k ? QString::number(speed->m) + QStringLiteral("³")
                                                           : tr("%1×%2×%3").arg(speed->m).arg(speed->n).arg(speed->k);
  out.source = m_ctx.results().sourceLabel(speed->source);
  out.device = qs(speed->device);
  return out;
}

void KernelPage::refreshTotals() {
  const Theme& theme = m_ctx.theme();
  const std::vector<StepRow> rows = stepRows();

  // Bytes per FLOP, log scale: the ladder spans two decades.
  QCustomPlot* p = m_bytesPlot;
  m_bytesPool->begin();
  stylePlot(p, theme);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const StepRow& r : rows)
    if (r.bytes_per_flop > 0) lo = std::min(lo, r.bytes_per_flop), hi = std::max(hi, r.bytes_per_flop);
  if (!(hi > 0)) lo = 0.01, hi = 10;
  const double base = std::pow(10.0, std::floor(std::log10(lo)) - 0.0) / 2;
  for (const StepRow& r : rows) {
    const int i = QString::fromStdString(r.step).left(2).toInt();
    auto* b = m_bytesPool->bars(QStringLiteral("bar/%1").arg(i), p->xAxis, p->yAxis);
    b->setBaseValue(base);
    b->setWidth(0.65);
    b->setData({double(i)}, {std::max(base, r.bytes_per_flop)});
    b->setBrush(stepColour(i - 1));
    b->setPen(QPen(stepColour(i - 1).darker(130)));
    b->removeFromLegend();
    auto* label = m_bytesPool->text(QStringLiteral("label/%1").arg(i));
    label->position->setCoords(i, r.bytes_per_flop);
    label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    label->setText(fmtFixed(r.bytes_per_flop, r.bytes_per_flop < 0.1 ? 3 : 2));
    label->setColor(theme.text);
    label->setClipToAxisRect(false);
  }
  m_bytesPool->end();
  for (const QString& s : stepNames()) ticker->addTick(s.left(2).toInt(), s.left(2));
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(0.4, 7.6);
  p->xAxis->setLabel(tr("ladder step"));
  setPlotTitle(p, tr("Bytes per FLOP"), theme);
  useLogAxis(p, false);
  p->yAxis->setRange(base, hi * 3);
  p->yAxis->setLabel(tr("bytes / FLOP"));
  p->legend->setVisible(false);
  p->replot();

  // The roofline of the chosen card, each step placed at its traced intensity.
  const models::GpuSpec* card = nullptr;
  for (const models::GpuSpec& g : models::catalogue())
    if (qs(g.name) == m_card->currentText()) card = &g;
  QVector<RooflinePlot::Roof> roofs;
  QVector<RooflinePlot::Point> points;
  QStringList note;
  if (card && card->fp32_tflops) {
    const double peak = *card->peak_flops_for(Precision::fp32), bw = card->bandwidth_bytes_s();
    roofs.push_back({tr("%1 FP32 · datasheet").arg(qs(card->name)), peak, bw, theme.model, SeriesKind::Datasheet, true});
    for (const StepRow& r : rows) {
      const RooflinePlacement pl = place_on_roofline(r.intensity, peak, bw);
      if (pl.attainable <= 0) continue;
      RooflinePlot::Point pt;
      pt.intensity = pl.intensity;
      pt.flops = pl.attainable;
      const int i = QString::fromStdString(r.step).left(2).toInt();
      pt.color = stepColour(i - 1);
      pt.group = qs(step_label(r.step));
      pt.tooltip = tr("%1: %2 FLOP/B (traced on the CPU emulator) → at most %3 on the %4 (datasheet roofline), %5 % "
                      "of its FP32 peak; %6")
                       .arg(qs(step_label(r.step)), fmtFixed(r.intensity, 2), fmtSi(pl.attainable, "FLOP/s"),
                            qs(card->name), fmtFixed(100 * pl.share_of_peak, 1),
                            pl.memory_bound ? tr("memory-bound") : tr("compute-bound"));
      points.push_back(pt);
    }
    // With a GPU recording open: the same kernels measured on a real GPU, hollow marks at the traced intensity.
    // They are that GPU's speed against this card's roofs (say so when the devices differ).
    int recordedSteps = 0;
    QString recordedFrom;
    for (const StepRow& r : rows) {
      const std::optional<RecordedStep> rec = recordedSpeed(r.step);
      if (!rec) continue;
      RooflinePlot::Point pt;
      pt.intensity = r.intensity;
      pt.flops = rec->flops;
      pt.recorded = true;
      pt.device = rec->device;
      pt.color = stepColour(QString::fromStdString(r.step).left(2).toInt() - 1);
      pt.group = tr("recorded on a GPU");
      pt.tooltip = tr("%1 measured at %2: %3 (%4)").arg(qs(step_label(r.step)), rec->size, fmtSi(rec->flops, "FLOP/s"),
                                                      rec->source);
      points.push_back(pt);
      ++recordedSteps;
      recordedFrom = rec->source;
    }
    if (recordedSteps > 0)
      note << tr("Hollow marks: %1 of the seven steps %2 (their own size, against this card's roofs).")
                  .arg(recordedSteps)
                  .arg(recordedFrom);
    if (!rows.empty()) {
      const StepRow& first = rows.front();
      const StepRow& last = rows.back();
      const RooflinePlacement a = place_on_roofline(first.intensity, peak, bw);
      const RooflinePlacement b = place_on_roofline(last.intensity, peak, bw);
      // The traced bytes are what the warps ask the memory system for; L1 and L2 serve repeats, so this is the
      // ceiling if every fetched sector came from DRAM, not a bound on what the caches allow.
      note << tr("On the %1 (datasheet: %2 FP32, %3/s), if every fetched sector came from memory, step %4 would be "
                 "held to %5 (%6 % of peak) and step %7 to %8 (%9 %); caches lift the early steps above that.")
                  .arg(qs(card->name), fmtSi(peak, "FLOP/s"), fmtBytes(bw), qs(step_label(first.step)),
                       fmtSi(a.attainable, "FLOP/s"), fmtFixed(100 * a.share_of_peak, 1), qs(step_label(last.step)),
                       fmtSi(b.attainable, "FLOP/s"), fmtFixed(100 * b.share_of_peak, 1));
    }
  }
  note << tr("<i>Published</i> (siboehm/SGEMM_CUDA, RTX A6000, 4092²): a similar ladder went from <b>1.3 %</b> of "
             "cuBLAS (naive) to <b>93.7 %</b> (warp tiles, its kernel 10; this app's step 7 adds double buffering, which "
             "kernel 10 lacks).");
  m_rooflineNote->setToolTip(tr("The traced bytes are requests to the memory system; L1 and L2 serve repeated reads, "
                                "so a step can run above this roof when its data stays in cache, and below it "
                                "because of latency and instruction limits"));
  // Rebuilt only when its roofs or points changed (a trace of a step, another card, a theme's colours): a trace's
  // redraw used to restyle it and rebuild it twice however little had changed.
  if (roofs != m_roofline->roofs() || points != m_roofline->points()) {
    m_roofline->setTitle(tr("Datasheet roofline\n(traced intensity)"));
    m_roofline->setRoofs(roofs);
    m_roofline->setPoints(points);
    m_roofline->rebuildNow();
  }
  // The shared chart's own axis title is too long for half a page (a rebuild, by a resize too, writes its own).
  QCustomPlot* roof = m_roofline->plot();
  if (roof->xAxis->label() != tr("FLOP / byte") || roof->yAxis->label() != tr("ceiling")) {
    roof->xAxis->setLabel(tr("FLOP / byte"));
    roof->yAxis->setLabel(tr("ceiling"));
    roof->replot();
  }
  m_rooflineNote->setText(note.join(QLatin1Char(' ')));

  refreshTable();
}

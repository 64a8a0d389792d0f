// The matrix-multiply page's drawing: the bars (measured solid, each recording's hollow in its own look, a wrong
// answer as a red note), the peak lines (a model dashed, a measured FMA peak solid) and the badges, from
// matmul_model; and the rows' words. The strip under the chart is matmul_page_strip.cpp.
#include "app_context.h"
#include "format.h"
#include "models/guarded_conclusions.h"
#include "models/measured_peak.h"
#include "models/measured_spread.h"
#include "pages/crowded_labels.h"
#include "pages/matmul/matmul_page.h"
#include "pages/matmul/matmul_page_detail.h"
#include "qcustomplot.h"
#include "widgets/ladder_text.h"
#include "widgets/plot_object_pool.h"
#include "widgets/plot_style.h"
#include "widgets/recorded_look.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"

#include <QCheckBox>
#include <QLabel>
#include <QMap>
#include <QPushButton>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

using namespace gpulab;
using matmul_detail::shape;

QString MatmulPage::rowName(const matmul_model::Row& row) const {
  using Kind = MatmulWayKind;
  switch (row.way.kind) {
    case Kind::cpu_naive: return tr("CPU naive loop (professor)");
    case Kind::cpu_reordered: return tr("CPU reordered loop");
    case Kind::cpu_blas_one: return tr("CPU BLAS, 1 thread");
    case Kind::cpu_blas_all: {
      const int threads = std::max(1, m_ctx.cpuInfo().threads > 0 ? m_ctx.cpuInfo().threads : m_ctx.cpuInfo().compute_units);
      return tr("CPU BLAS, %1 threads").arg(threads);
    }
    default: break;
  }
  // The ladder's own words for its steps (gpulab/gemm_ladder.hpp); anything else as the recording spells it.
  QString step = row.step ? ladderWords(*row.step) : QString::fromStdString(row.variant);
  if (row.number > 0) step = QString::number(row.number) + QLatin1Char(' ') + step;
  // Who ran it, in device_words' short words: "GPU", "Vulkan GPU", "Vulkan on the CPU" (lavapipe is no GPU).
  const QString noun = QString::fromStdString(row.device.noun);
  if (row.device.device_class == DeviceClass::cuda_gpu) return noun + QLatin1Char(' ') + step;  // "GPU 1 naive"
  return tr("%1: %2").arg(noun, step);
}

QString MatmulPage::rowTip(const matmul_model::Row& row) const {
  using Kind = MatmulWayKind;
  switch (row.way.kind) {
    case Kind::cpu_naive: return tr("Three nested loops, one cell after another, one core: the professor");
    case Kind::cpu_reordered:
      return tr("The same loops in i-k-j order: memory is read in a straight line, so the cache and SIMD lanes help");
    case Kind::cpu_blas_one: return tr("OpenBLAS on one core: blocking for the caches, SIMD, fused multiply-add");
    case Kind::cpu_blas_all: return tr("OpenBLAS on every core: the CPU's own small stadium");
    default: break;
  }
  const QString device = QString::fromStdString(row.device.label);
  if (!row.live) return tr("Only in an opened recording (%1): this machine cannot run it").arg(device);
  if (!row.device.is_gpu)
    return tr("A compute shader on %1: the ladder's code, but the CPU does the work, so it is no stadium").arg(device);
  return tr("A kernel on %1 (the stadium): each ladder step keeps what the last did and adds one idea").arg(device);
}

void MatmulPage::updateGpuNote() {
  if (!m_gpuNote) return;
  const DeviceWords words = m_ctx.gpuInfo() ? device_words(*m_ctx.gpuInfo()) : DeviceWords{};
  if (m_ctx.gpuInfo() && words.is_gpu) {
    m_gpuNote->setVisible(false);
    return;
  }
  m_gpuNote->setVisible(true);
  m_gpuNote->setToolTip(m_ctx.gpuReason());
  if (m_ctx.gpuInfo())
    m_gpuNote->setText(tr("No GPU here: its rows run on %1. Open a recording (File → Open) to see a GPU's ladder.")
                           .arg(QString::fromStdString(words.label)));
  else
    m_gpuNote->setText(tr("No GPU here. Open a recording (File → Open) to see a GPU's kernel ladder as hollow bars."));
}

void MatmulPage::replot() {
  const Theme& th = m_ctx.theme();
  const bool logAxis = m_log->isChecked();
  // The bar sets, whiskers and labels of the last redraw, given this one's data and places (plot_object_pool.h).
  m_pool->begin();
  stylePlot(m_plot, th);
  m_plot->yAxis->grid()->setVisible(false);

  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (int i = 0; i < m_rows.size(); ++i) ticker->addTick(i, m_rows[i].name);
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setRange(-0.6, double(m_rows.size()) - 0.4);

  // Reference rates at this size: the professor, and the best library on each kind of hardware.
  const auto results = inputs();
  const std::vector<matmul_model::Row> models = rowModels();
  const matmul_model::Refs refs = matmul_model::refs(results, models, currentShape());
  QString naiveSrc;
  const double naive = refs.naive;
  const double naiveRef = naive > 0 ? naive : naiveGflopsForEstimate(m_n, &naiveSrc);
  const double cpuPeak = m_ctx.cpuInfo().peak_gflops_fp32;
  const double gpuPeak = m_ctx.gpuInfo() ? m_ctx.gpuInfo()->peak_gflops_fp32 : 0.0;
  const std::string gpuPeakSource = m_ctx.gpuInfo() ? m_ctx.gpuInfo()->peak_source : std::string();
  // The roofs suite's FMA peaks of the devices whose bars are measured here (0: not measured): drawn as lines too.
  double cpuMeasuredPeak = 0, gpuMeasuredPeak = 0;
  auto percentText = [](double share) { return fmtFixed(100 * share, share < 0.1 ? 1 : 0); };
  // The GPU slot's device in device_words' words: its peak line never says "GPU" for lavapipe.
  const QString gpuNoun = m_ctx.gpuInfo() ? QString::fromStdString(device_words(*m_ctx.gpuInfo()).noun) : tr("GPU");

  // First pass: what to draw, and the value range.
  struct Bar {
    int row;
    double value;
    int source;  // -1: measured here; else the recording's index (its own bars, look and badge)
    bool gpu;
    QString text;
    models::RateRange range = {};  // measured bars: the samples' spread, drawn as a whisker
    QString oneLine = {};          // what is said when the row's bars leave room for one line of text each
    QString kept = {};             // what must stay readable where the rest may be elided ("": all of text)
  };
  QVector<Bar> bars;
  struct Note {
    int row;
    QString text;
    QColor color;
  };
  QVector<Note> notes;
  double vmax = 0, vmin = 1e300;
  bool anyCpu = false, anyGpu = false;
  // A bar names its recording without the badge's "recorded on " (the hollow bar says that), and where one line
  // is all there is room for, by its device alone unless both recordings are of the same device: the chart beside
  // a 1366 px window's controls is narrow, and two recordings' bars must still be told apart.
  QHash<int, QString> shortNames, shorterNames;
  {
    const int recordings = int(m_ctx.results().recordings().size());
    QStringList devices;
    for (int s = 0; s < recordings; ++s) {
      const QString label = m_ctx.results().sourceLabel(s);
      shortNames[s] = label.startsWith(QStringLiteral("recorded on ")) ? label.mid(12) : label;
      devices << (shortNames[s].contains(QStringLiteral(", ")) ? shortNames[s].section(QStringLiteral(", "), 0, -2)
                                                                : shortNames[s]);
    }
    for (int s = 0; s < recordings; ++s) shorterNames[s] = devices.count(devices[s]) > 1 ? shortNames[s] : devices[s];
  }
  QString firstPending;
  for (const Row& r : m_rows)
    if (m_pending.contains(r.key)) {
      firstPending = r.key;
      break;
    }
  for (int i = 0; i < m_rows.size(); ++i) {
    const Row& row = m_rows[i];
    const bool gpu = row.model.gpu_side;
    const Result* res = measuredFor(row);
    const bool pending = m_pending.contains(row.key);
    if (res && !pending) {
      if (!res->error.empty()) {
        notes.push_back({i, tr("not run: %1").arg(QString::fromStdString(res->error)), th.mutedText});
      } else if (!res->check.passed) {
        // A wrong answer is never a bar: its speed means nothing.
        notes.push_back({i, tr("✗ wrong answer: max rel err %1").arg(res->check.max_rel_err, 0, 'e', 1), th.bad});
      } else if (res->gflops > 0) {
        // Two short lines read better on a projector than one long one: the rate and speed-up, then the shares.
        const models::RateRange range = models::gflops_range(*res);
        const QString spread = QString::fromStdString(models::spread_text(range));
        // The spread opens the second line: the first (rate, speed-up) is the one that must fit beside the bar.
        QStringList parts{fmtSi(res->gflops * 1e9, "FLOP/s")}, shares{spread};
        shares.removeAll(QString());
        if (row.model.way.kind == MatmulWayKind::cpu_naive) parts << tr("the professor");
        else if (naiveRef > 0)
          parts << tr("%1%2× the professor").arg(naive > 0 ? QString() : QStringLiteral("≈"), fmtSi(res->gflops / naiveRef, "", 3).trimmed());
        // The device's own FMA peak from the roofs suite, measured here (0: none: no share is offered for it).
        const double measuredPeak = matmul_model::measuredPeakGflops(results, *res, -1);
        (gpu ? gpuMeasuredPeak : cpuMeasuredPeak) = std::max(gpu ? gpuMeasuredPeak : cpuMeasuredPeak, measuredPeak);
        const matmul_model::Shares sh =
            matmul_model::shares(row.model, res->gflops, refs, cpuPeak, gpuPeak, measuredPeak);
        if (sh.ofLibrary > 0)
          shares << tr("%1 % of %2").arg(fmtFixed(100 * sh.ofLibrary, sh.ofLibrary < 0.1 ? 1 : 0), sh.libraryIsGpu ? tr("cuBLAS") : tr("BLAS"));
        // Above a measured peak means that peak was measured low (a busy shared machine): say so, not "140 %".
        if (sh.aboveMeasuredPeak) shares << tr("above the measured peak");
        else if (sh.ofMeasuredPeak > 0) shares << tr("%1 % of measured peak").arg(percentText(sh.ofMeasuredPeak));
        // The chart's own peak line beside it: a GPU's datasheet or clock model; the CPU's start-up FMA burst only
        // where the roofs suite has not measured its peak (the same kind of figure twice would say nothing).
        const std::string& lineSource = gpu ? gpuPeakSource : m_ctx.cpuInfo().peak_source;
        const bool lineMeasured = lineSource.rfind("measured", 0) == 0;
        if (gpu || sh.ofMeasuredPeak <= 0) {
          if (sh.abovePeak) shares << (lineMeasured ? tr("above the measured peak") : tr("above the model peak"));
          else if (sh.ofPeak > 0)
            shares << (lineMeasured || sh.ofMeasuredPeak <= 0 ? tr("%1 % of peak") : tr("%1 % of model"))
                          .arg(percentText(sh.ofPeak));
        }
        bars.push_back({i, res->gflops, -1, gpu, QStringLiteral("✓ ") + parts.join(QStringLiteral(" · ")) +
                                                      (shares.isEmpty() ? QString() : QLatin1Char('\n') + shares.join(QStringLiteral(" · "))),
                        range, QStringLiteral("✓ ") + parts.join(QStringLiteral(" · "))});
        vmax = std::max(vmax, res->gflops);
        vmin = std::min(vmin, res->gflops);
        (gpu ? anyGpu : anyCpu) = true;
      }
    } else if (pending) {
      notes.push_back({i, row.key == firstPending ? tr("running…") : tr("waiting…"), th.mutedText});
    } else if (m_notes.contains(row.key)) {
      notes.push_back({i, m_notes.value(row.key), th.mutedText});
    }
    // One hollow bar per recording with a result here: two recordings are two sources, never the faster of both.
    for (const matmul_model::Recorded& rec : recordedBars(row)) {
      // The share of the same recording's library run: the ladder's "% of cuBLAS" is the number to judge it by.
      // On the CPU the faster of the recording's two BLAS runs is the reference.
      QString share;
      const double gflops = rec.result->gflops;
      const double libShare =
          matmul_model::recordedLibraryShare(results, models, row.model, currentShape(), rec.source, gflops);
      if (libShare > 0) share = tr(" · %1 % of %2").arg(fmtFixed(100 * libShare, 0), gpu ? tr("cuBLAS") : tr("BLAS"));
      // Its share of the FMA peak the same recording measured on the same device (none: nothing is said).
      const measured_peak::Share ofPeak =
          measured_peak::shareOf(gflops, matmul_model::measuredPeakGflops(results, *rec.result, rec.source));
      // Before the recording's name, which is elided where the chart is narrow: the share must stay readable.
      QString name = shortNames.value(rec.source);
      if (ofPeak.above) name = tr("above its measured peak · %1").arg(name);
      else if (ofPeak.of > 0) name = tr("%1 % of measured peak · %2").arg(percentText(ofPeak.of), name);
      // A long hollow bar holds its label inside once the rate and the shares fit there: only the recording's
      // name may be elided (the badge and the look say whose bar it is).
      const QString sharesOnly = name.section(QStringLiteral(" · "), 0, -2);
      bars.push_back({i, gflops, rec.source, gpu, tr("%1%2\n%3").arg(fmtSi(gflops * 1e9, "FLOP/s"), share, name), {},
                      tr("%1 · %2").arg(fmtSi(gflops * 1e9, "FLOP/s"), shorterNames.value(rec.source)),
                      tr("%1%2\n%3").arg(fmtSi(gflops * 1e9, "FLOP/s"), share, sharesOnly)});
      vmax = std::max(vmax, gflops);
      vmin = std::min(vmin, gflops);
    }
  }
  // The peaks belong on the chart when bars of that hardware are there: they say how far from the ceiling we are.
  // The CPU's line is the roofs suite's FMA peak where it was measured, else the start-up burst (both measured).
  const double cpuLine = cpuMeasuredPeak > 0 ? cpuMeasuredPeak : cpuPeak;
  if (anyCpu && cpuLine > 0) vmax = std::max(vmax, cpuLine);
  if (anyGpu && gpuPeak > 0) vmax = std::max(vmax, gpuPeak);
  if (anyGpu && gpuMeasuredPeak > 0) vmax = std::max(vmax, gpuMeasuredPeak);
  if (vmax <= 0) {
    vmax = 100;
    vmin = 0.1;
  }

  QFont labelFont(QStringLiteral("DejaVu Sans"));
  labelFont.setPointSize(th.plotFontPt);
  m_plot->yAxis->setTickLabelFont(labelFont);
  // Bar labels a little smaller than the row names: they carry more text and must fit beside the bars.
  QFont rowFont = labelFont;
  labelFont.setPointSize(std::max(9, th.plotFontPt - 2));
  const QFontMetrics labelMetrics(labelFont), rowMetrics(rowFont);
  // The axis rect's width is only known after a layout: the widget's width less the row names and margins.
  int namesPx = 0;
  for (const Row& r : m_rows) namesPx = std::max(namesPx, rowMetrics.horizontalAdvance(r.name));
  const double widthPx = m_exportWidth > 0 ? m_exportWidth : m_plot->width();
  // The last layout's axis rect where there is one: at a 1024 px projector the estimate's 250 px floor was wider
  // than the real axis (238 px), and a label that fitted inside its bar by the estimate ran past the bar's start.
  // An export's size has had no layout yet: the estimate.
  const double laidOutPx = m_exportWidth > 0 ? 0.0 : double(m_plot->axisRect()->width());
  const double plotPx = laidOutPx > 100 ? laidOutPx : std::max(250.0, widthPx - namesPx - 50.0);
  // A row holds up to three bars (measured here, each recording): where their two-line labels would run into
  // each other, each says one line (the rate and the speed-up; a recording's rate and name); where even one line
  // is too tall (a projector's font at 1366×768), the bars' labels get a smaller font, down to 60 % of the axis's.
  QMap<int, int> inRow, placed;  // per row: its bars, and those placed so far
  for (const Bar& b : bars) ++inRow[b.row];
  QFont barFont = labelFont;
  {
    const double axisPx = m_plot->axisRect()->height() > 60 ? m_plot->axisRect()->height() : m_plot->height() - 90.0;
    const double rowPx = axisPx / (double(m_rows.size()) + 1.0);  // the rows and the room kept for the peak labels
    auto slotPx = [&](const Bar& b) {
      const int n = inRow.value(b.row);
      return (n > 1 ? 0.8 / n : 1.0) * rowPx;
    };
    auto linesOf = [](const Bar& b) { return int(b.text.count(QLatin1Char('\n'))) + 1; };
    for (Bar& b : bars)
      if (linesOf(b) > 1 && !b.oneLine.isEmpty() && slotPx(b) < 1.15 * linesOf(b) * labelMetrics.lineSpacing())
        b.text = b.oneLine;
    const int floorPt = std::max(8, int(std::lround(0.6 * th.plotFontPt)));
    auto crowded = [&] {
      const QFontMetrics fm(barFont);
      return std::any_of(bars.begin(), bars.end(),
                         [&](const Bar& b) { return slotPx(b) < 1.1 * linesOf(b) * fm.lineSpacing(); });
    };
    while (barFont.pointSize() > floorPt && crowded()) barFont.setPointSize(barFont.pointSize() - 1);
  }
  const QFontMetrics barMetrics(barFont);
  auto textFrac = [&](const QString& t) {
    int w = 0;
    for (const QString& line : t.split(QLatin1Char('\n'))) w = std::max(w, barMetrics.horizontalAdvance(line));
    return (w + 16) / plotPx;
  };

  // Stretch the value axis so every label fits to the right of its bar; a label longer than ~60 % of the plot
  // goes inside its bar instead.
  double lo, hi;
  if (logAxis) {
    useLogAxis(m_plot, true, QStringLiteral("FLOP/s"), 1e9);  // the bars are in GFLOP/s
    lo = std::pow(10.0, std::floor(std::log10(std::max(1e-3, vmin / 2))));
    double span = std::log10(vmax * 1.3) - std::log10(lo);
    for (const Bar& b : bars) {
      const double f = textFrac(b.text);
      if (f < 0.9) span = std::max(span, (std::log10(b.value) - std::log10(lo)) / (0.97 - f));
    }
    // ...but never so far that the longest bar shrinks below about a third of the plot.
    span = std::min(span, std::max(std::log10(vmax * 1.3) - std::log10(lo), (std::log10(vmax) - std::log10(lo)) / 0.33));
    hi = lo * std::pow(10.0, span);
  } else {
    useSiAxis(m_plot->xAxis, QStringLiteral("FLOP/s"), 1e9);
    lo = 0;
    hi = vmax * 1.08;
    for (const Bar& b : bars) {
      const double f = textFrac(b.text);
      if (f < 0.9) hi = std::max(hi, b.value / (0.97 - f));
    }
    hi = std::min(hi, std::max(vmax * 1.08, vmax / 0.3));  // the longest bar keeps at least ~30 % of the width
  }
  m_plot->xAxis->setRange(lo, hi);
  // As many value ticks as their labels ("100 GFLOP/s") fit side by side: at the projector's font a 1366 px
  // window has room for about three, and QCustomPlot's default five would overlap.
  {
    const QFontMetrics tickMetrics(m_plot->xAxis->tickLabelFont());
    int tickPx = 0;
    for (double v : {lo, std::sqrt(std::max(lo, 1e-3) * hi), hi, hi / 2})
      tickPx = std::max(tickPx, tickMetrics.horizontalAdvance(siTickLabel(v, QStringLiteral("FLOP/s"), 1e9)));
    const double axisPx = std::max(120.0, widthPx - namesPx - 60.0);
    m_plot->xAxis->ticker()->setTickCount(std::clamp(int(axisPx / (1.6 * (tickPx + 16))), 2, 6));
  }

  // One bar set per source and hardware (and per number of bars in the row, as a set has one width): the recorded
  // sets are named by their recording, so each keeps its own look and its own name.
  auto makeBars = [&](int source, bool gpu, int inRow) {
    auto* b = m_pool->bars(QStringLiteral("bars/%1/%2/%3").arg(source).arg(gpu).arg(inRow), m_plot->yAxis, m_plot->xAxis);
    const QColor c = gpu ? th.gpu : th.cpu;
    if (source >= 0) {
      b->setPen(recordedBarPen(th, c, source));  // the second recording: a deeper shade, a dashed outline
      b->setBrush(Qt::NoBrush);
      b->setName(m_ctx.results().sourceLabel(source));
    } else {
      b->setPen(QPen(c.darker(115), 1));
      b->setBrush(c);
      b->setName(tr("measured here"));
    }
    b->setBaseValue(lo);
    b->setWidthType(QCPBars::wtPlotCoords);
    return b;
  };
  std::map<std::tuple<int, bool, int>, QCPBars*> sets;  // (source, gpu, bars in the row)
  QVector<crowded_labels::SourcedLabel> barLabels;  // each bar's value label and whose bar it is
  int whiskers = 0, labels = 0;  // in drawing order: the n-th is the n-th of the last redraw
  for (const Bar& b : bars) {
    // A row's bars (measured here, then each recording in order) share it evenly, top to bottom: one bar 0.62
    // of the row tall, two 0.38 at ±0.2, three 0.25 at 0, ±0.27.
    const int n = inRow.value(b.row), at = placed[b.row]++;
    const double pitch = n > 1 ? 0.8 / n : 0.0;
    const double key = b.row + (at - (n - 1) / 2.0) * pitch;
    const double width = n > 1 ? pitch - 0.02 : 0.62;
    QCPBars*& target = sets[{b.source, b.gpu, n}];
    if (!target) {
      target = makeBars(b.source, b.gpu, n);
      target->setWidth(width);
    }
    const bool recorded = b.source >= 0;
    // QCPBars draws from the base value to base + value, so on the log axis (base = lo) the length is value - lo.
    target->addData(key, b.value - (logAxis ? lo : 0.0));
    if (const double low = std::max(b.range.low, logAxis ? lo : 0.0); b.range.samples > 1 && b.range.high > low)
      setWhisker(m_pool->item<QCPItemLine>(QStringLiteral("whisker/%1").arg(whiskers++)), key, low, b.range.high, th.text);

    // The label goes inside a long bar (right-aligned, in the bar's contrast colour) and after a short one.
    auto* t = m_pool->text(QStringLiteral("label/%1").arg(labels++));
    barLabels.push_back({t, b.source});
    t->setFont(barFont);
    t->setText(b.text);
    t->position->setCoords(b.value, key);
    const double fracAlong = logAxis ? (std::log10(b.value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                                     : (b.value - lo) / (hi - lo);
    // Outside when it fits there; else inside when the bar is long enough to hold it; else outside regardless.
    // Judged in the short words the elision below falls back to ("of peak").
    const QString kept = QString(b.kept.isEmpty() || b.text == b.oneLine ? b.text : b.kept)
                             .replace(tr("of measured peak"), tr("of peak"));
    // Outside wherever what must stay readable fits there (the recording's name is then elided outside).
    const bool inside = fracAlong + textFrac(kept) > 0.985 && fracAlong >= textFrac(kept);
    if (!inside) t->position->setCoords(std::max(b.value, b.range.high), key);  // after the whisker
    {
      // A line that still runs past the plot's edge (or the bar's start) is elided, never cut mid-letter; the
      // rate that opens the first line is always kept whole.
      const double end = std::max(b.value, b.range.high);
      const double endFrac = logAxis ? (std::log10(end) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (end - lo) / (hi - lo);
      const int room = int((inside ? fracAlong : 1.0 - endFrac) * plotPx) - 12;
      QStringList lines = b.text.split(QLatin1Char('\n'));
      const int rateRoom = barMetrics.horizontalAdvance(lines.front().section(QStringLiteral(" · "), 0, 0) + QStringLiteral(" …"));
      for (int l = 0; l < lines.size(); ++l) {
        // Short of room (a projector's 1024 px), "of measured peak" says "of peak" before anything is elided: the
        // strip's "Ladder's best … of measured peak" and the peak lines' "(measured FMA)" say which peak it is.
        for (const auto& [longer, shorter] : {std::pair{tr("of measured peak"), tr("of peak")},
                                              std::pair{tr("above its measured peak"), tr("above its peak")}}) {
          const int from = int(lines[l].indexOf(longer));
          // With the name after it, the share must fit with the ellipsis the name is elided to.
          const QString upTo = lines[l].left(from + longer.size()) +
                               (lines[l].size() > from + longer.size() ? QStringLiteral(" …") : QString());
          if (from >= 0 && barMetrics.horizontalAdvance(upTo) > room)
            lines[l].replace(longer, shorter);
        }
        if (room > std::max(40, l == 0 ? rateRoom : 0) && barMetrics.horizontalAdvance(lines[l]) > room)
          lines[l] = barMetrics.elidedText(lines[l], Qt::ElideRight, room);
      }
      t->setText(lines.join(QLatin1Char('\n')));
    }
    t->setTextAlignment(inside ? Qt::AlignRight : Qt::AlignLeft);
    if (inside && !recorded) {
      t->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
      t->setPadding(QMargins(0, 0, 8, 0));
      t->setColor(QColor(Qt::black));  // orange and green bars both read best with black text
    } else {
      t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
      t->setPadding(QMargins(8, 0, 0, 0));
      t->setColor(th.text);
      if (inside && recorded) {
        t->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
        t->setPadding(QMargins(0, 0, 8, 0));
      }
    }
  }
  int noteCount = 0;
  for (const Note& n : notes) {
    auto* t = m_pool->text(QStringLiteral("note/%1").arg(noteCount++));
    QFont f = labelFont;
    f.setBold(n.color == th.bad);
    t->setFont(f);
    t->setText(n.text);
    t->setColor(n.color);
    t->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    t->position->setTypeY(QCPItemPosition::ptPlotCoords);
    t->position->setCoords(0.01, n.row);
    t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  }
  int peakLines = 0;  // the tallest peak label, in lines (0: none drawn)
  auto peakLine = [&](double peak, const QColor& color, const QString& what, const std::string& src) {
    const bool measured = src.rfind("measured", 0) == 0;
    const QString key = what + (measured ? QStringLiteral("/measured") : QString());
    auto* line = m_pool->item<QCPItemStraightLine>(QStringLiteral("peak/%1/line").arg(key));
    line->point1->setCoords(peak, 0);
    line->point2->setCoords(peak, 1);
    // Solid where the peak was measured, dashed for a model: the roofline page's rule for roofs.
    line->setPen(seriesPen(th, color, measured ? SeriesKind::Measured : SeriesKind::Datasheet));
    auto* t = m_pool->text(QStringLiteral("peak/%1/text").arg(key));
    t->setFont(labelFont);
    const QString how = measured ? tr("measured FMA") : tr("model");
    const QString oneLine = tr("%1 peak %2 (%3)").arg(what, fmtSi(peak * 1e9, "FLOP/s"), how);
    t->setColor(color.darker(th.dark ? 80 : 140));
    t->position->setTypeX(QCPItemPosition::ptPlotCoords);
    t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(peak, 0.0);
    // Beside the line on the side with room (a low peak's label is not cut off at the axis); on two lines when
    // neither side holds it in one (the projector's font at 1366 px).
    const double at = logAxis ? (std::log10(peak) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (peak - lo) / (hi - lo);
    const QString twoLines = tr("%1 peak %2\n(%3)").arg(what, fmtSi(peak * 1e9, "FLOP/s"), how);
    const bool oneFits = labelMetrics.horizontalAdvance(oneLine) + 14 <= std::max((1 - at) * plotPx, at * plotPx);
    const QString text = oneFits ? oneLine : twoLines;
    double textPx = 0;  // the chosen text's widest line: the side is chosen for what is drawn
    for (const QString& line : text.split(QLatin1Char('\n'))) textPx = std::max(textPx, labelMetrics.horizontalAdvance(line) + 14.0);
    const double right = (1 - at) * plotPx, left = at * plotPx;
    const bool toRight = textPx <= right || (textPx > left && right >= left);
    t->setText(text);
    t->setPositionAlignment((toRight ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    peakLines = std::max(peakLines, int(t->text().count(QLatin1Char('\n'))) + 1);
    t->setPadding(QMargins(6, 2, 6, 2));
    t->setBrush(QBrush(th.surface));
  };
  if (anyCpu && cpuLine > 0)
    peakLine(cpuLine, th.cpu, tr("CPU"),
             cpuMeasuredPeak > 0 ? std::string("measured: roofs suite") : m_ctx.cpuInfo().peak_source);
  if (anyGpu && gpuPeak > 0) peakLine(gpuPeak, th.gpu, gpuNoun, gpuPeakSource);
  if (anyGpu && gpuMeasuredPeak > 0) peakLine(gpuMeasuredPeak, th.gpu, gpuNoun, "measured: roofs suite");
  if (peakLines > 0) {
    // Room above the first row for the peak labels, so they never sit on its bar's two-line label.
    const double rowsUnits = double(m_rows.size()) - 0.4;
    const double axisPx = m_plot->axisRect()->height() > 60 ? m_plot->axisRect()->height() : m_plot->height() - 90.0;
    // The peak label's lines and half of the first row's two-line label; drawn lines run taller than the metrics'
    // line spacing (28 px against 23 at the projector's font), hence the 1.25 — and no more, or the rows' own
    // labels start to overlap each other at 1366 px.
    const double needPx = 1.25 * labelMetrics.lineSpacing() * (peakLines + 1) + 4;
    // The first row's top bar sits above its middle when the row holds two or three (measured, each recording).
    const int firstBars = inRow.value(0);
    const double firstOffset = firstBars > 1 ? (firstBars - 1) / 2.0 * (0.8 / firstBars) : 0.0;
    const double top = axisPx > 2 * needPx
                           ? std::max(0.6, (firstOffset * axisPx + needPx * rowsUnits) / (axisPx - needPx))
                           : 0.6;
    m_plot->yAxis->setRange(-top, double(m_rows.size()) - 0.4);
  }
  // The last resort where rows are too thin for every label even in the small font (a dozen rows, or a projector
  // at 1366×768 after a run): a recording's label that would cover other text goes inside its bar, or is left out
  // (crowded_labels.h) — its bar, look and badge stay, and the numbers are in the export. Measured against the
  // axis rect's last layout: the chart is redrawn when it is resized.
  m_pool->end();
  if (m_plot->axisRect()->height() > 60) crowded_labels::leaveOutCrowded(m_plot, barLabels);
  m_plot->replot(QCustomPlot::rpQueuedReplot);

  // One badge per recording drawn, short (they share the title row, and the projector font is large); the detail
  // and which look is whose are in the tooltips.
  const auto drawnRecordings = matmul_model::recordedSources(results, models, currentShape());
  m_recordedBadges.show({drawnRecordings.begin(), drawnRecordings.end()}, tr("Hollow bars"));
  fitBadges();
  m_measuredBadge->setVisible(anyCpu || anyGpu);  // "measured here" only over bars measured here
  m_measuredBadge->set(SourceBadge::Kind::MeasuredHere);
  m_measuredBadge->setToolTip(tr("Solid bars: measured on this machine now, at %1").arg(shape(m_m, m_k, m_n)));

  updateSummary(refs, naiveRef);
}

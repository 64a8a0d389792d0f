// The precision page's drawing: the formats chart (throughput, bytes per parameter, error), the table, the
// results strip's sentences and the underflow plot, from the rows the page model keeps (models/precision_model.h).
#include "pages/crowded_labels.h"
#include "pages/precision/precision_page.h"
#include "pages/precision/precision_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/vram_model.hpp"
#include "qcustomplot.h"
#include "widgets/onscreen_hint.h"
#include "widgets/plot_object_pool.h"
#include "widgets/legend_placement.h"
#include "widgets/plot_style.h"
#include "widgets/recorded_look.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <map>

using gpulab::Precision;
using precision_detail::precName;
using precision_detail::qs;
using precision_detail::sci;

QString PrecisionPage::underflowSummary() const {
  const auto* plain = m_underflow.find(gpulab::UnderflowMethod::fp16_plain);
  const auto* scaled = m_underflow.find(gpulab::UnderflowMethod::fp16_static_scale);
  const auto* dyn = m_underflow.find(gpulab::UnderflowMethod::fp16_dynamic_scale);
  const auto* bf16 = m_underflow.find(gpulab::UnderflowMethod::bf16_plain);
  if (!plain || !scaled || !dyn || !bf16) return {};
  const double n = double(m_underflow.spec.count);
  auto pct = [n](long long lost) { return fmtFixed(100.0 * double(lost) / n, 1); };
  return tr("Of %1 gradients: <b>FP16 without loss scaling lost %2 (%3 %)</b> — every one below 3.0e-8 rounds "
            "to zero. FP16 × %4: %5 lost. Dynamic scaling: %6 lost, %7 skipped steps, scale ended at %8. "
            "<b>BF16: %9 lost</b> (FP32's exponent range).")
      .arg(fmtCount(m_underflow.spec.count), fmtCount(plain->total_lost), pct(plain->total_lost),
           fmtCount(static_cast<long long>(m_underflow.spec.loss_scale)), fmtCount(scaled->total_lost),
           fmtCount(dyn->total_lost), fmtCount(dyn->skipped_steps), QStringLiteral("2^%1").arg(std::log2(dyn->final_scale), 0, 'f', 0),
           fmtCount(bf16->total_lost));
}

void PrecisionPage::replotUnderflow() {
  const Theme& theme = m_ctx.theme();
  QCustomPlot* p = m_uplot;
  m_upool->begin();  // the curves and marks of the last redraw, given new data (plot_object_pool.h)
  stylePlot(p, theme);
  useLogAxis(p, true);  // SI prefixes: 100 n = 0.0000001
  p->xAxis->setLabel(tr("Gradient magnitude (µ millionth, n billionth)"));
  p->yAxis->setLabel(tr("Lost (%)"));  // short: the projector's chart is 240 px tall
  p->legend->setVisible(true);
  // Above the chart: inside it, the key hid FP16's lost points at 100 % (a 1366-pixel window's chart is narrow).
  // As many keys to a row as fit the chart's width.

  struct Style {
    gpulab::UnderflowMethod m;
    QColor color;
    QCPScatterStyle::ScatterShape shape;
    Qt::PenStyle pen;
    QString key;  // the legend's name: short, so two keys share a row above the chart
  };
  const Style styles[] = {
      {gpulab::UnderflowMethod::fp16_plain, theme.precision(Precision::fp16), QCPScatterStyle::ssDisc, Qt::SolidLine, tr("FP16 unscaled")},
      {gpulab::UnderflowMethod::fp16_static_scale, theme.precision(Precision::fp16).darker(140), QCPScatterStyle::ssSquare, Qt::SolidLine, QString()},
      {gpulab::UnderflowMethod::fp16_dynamic_scale, theme.precision(Precision::fp16).darker(190), QCPScatterStyle::ssTriangle, Qt::SolidLine, tr("FP16 dynamic scale")},
      {gpulab::UnderflowMethod::bf16_plain, theme.precision(Precision::bf16), QCPScatterStyle::ssDiamond, Qt::SolidLine, tr("BF16 unscaled")},
      {gpulab::UnderflowMethod::fp32_reference, theme.precision(Precision::fp32), QCPScatterStyle::ssCross, Qt::DashLine, tr("FP32 (reference)")},
  };
  const auto& u = m_underflow;
  for (const Style& st : styles) {
    const auto* m = u.find(st.m);
    if (!m) continue;
    QVector<double> xs, ys;
    for (std::size_t b = 0; b < u.bin_center.size(); ++b) {
      if (u.per_bin[b] == 0) continue;
      xs << u.bin_center[b];
      ys << 100.0 * double(m->lost[b]) / double(u.per_bin[b]);
    }
    QCPGraph* g = m_upool->graph(QStringLiteral("method/%1").arg(int(st.m)));
    QString name = st.key;
    if (st.m == gpulab::UnderflowMethod::fp16_static_scale)
      name = tr("FP16 × %1").arg(fmtCount(static_cast<long long>(u.spec.loss_scale)));
    g->setName(tr("%1: %2 % lost").arg(name, fmtFixed(100.0 * double(m->total_lost) / double(u.spec.count), 1)));
    g->setData(xs, ys, true);
    QPen pen(st.color, theme.lineWidth, st.pen);
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(st.shape, st.color, st.color, theme.markerSize));
  }
  // FP16's subnormals keep a gradient but round it coarsely: show where more than 10 % of it is wrong.
  if (const auto* plain = u.find(gpulab::UnderflowMethod::fp16_plain)) {
    QVector<double> xs, ys;
    for (std::size_t b = 0; b < u.bin_center.size(); ++b) {
      if (u.per_bin[b] == 0) continue;
      xs << u.bin_center[b];
      ys << 100.0 * double(plain->damaged[b]) / double(u.per_bin[b]);
    }
    QCPGraph* g = m_upool->graph(QStringLiteral("damaged"));
    g->setName(tr("FP16 unscaled, > 10 % off: %1 %")
                   .arg(fmtFixed(100.0 * double(plain->total_damaged) / double(u.spec.count), 1)));
    g->setData(xs, ys, true);
    // Thinner than the five methods, but never under 3 px on a projector.
    g->setPen(QPen(theme.precision(Precision::fp16), std::max(theme.isProjector() ? 3.0 : 1.0, theme.lineWidth * 0.6),
                   Qt::DashLine));
  }
  placeLegendAboveFitting(p);
  const double lo = u.spec.min_grad / 2, hi = u.spec.max_grad * 2;
  p->xAxis->setRange(lo, hi);
  p->yAxis->setRange(-5, 105);

  // FP16's two limits: below half the smallest subnormal everything is zero; below the smallest normal,
  // precision drains away bit by bit.
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPointSize(std::max(8, theme.plotFontPt - 1));
  auto vline = [&](const QString& role, double x, const QString& text, Qt::Alignment align) {
    if (x < lo || x > hi) return;
    auto* l = m_upool->item<QCPItemStraightLine>(role + QStringLiteral("/line"));
    l->point1->setCoords(x, 0);
    l->point2->setCoords(x, 1);
    l->setPen(QPen(theme.model, 1, Qt::DashLine));
    auto* t = m_upool->text(role + QStringLiteral("/text"));
    t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(x, 0.5);
    t->setPositionAlignment(align | Qt::AlignVCenter);
    t->setPadding(QMargins(4, 2, 4, 2));
    t->setText(text);
    t->setFont(f);
    t->setColor(theme.mutedText);
    t->setRotation(-90);
  };
  vline(QStringLiteral("zero"), gpulab::smallest_subnormal(gpulab::fp16_format) / 2, tr("FP16 rounds to 0 below %1").arg(siTickLabel(gpulab::smallest_subnormal(gpulab::fp16_format) / 2)), Qt::AlignHCenter);
  vline(QStringLiteral("subnormal"), gpulab::smallest_normal(gpulab::fp16_format), tr("FP16 subnormal below %1").arg(siTickLabel(gpulab::smallest_normal(gpulab::fp16_format))), Qt::AlignHCenter);
  m_upool->end();
  p->replot();
  m_ulabel->setText(underflowSummary());
}

namespace {

QFont valueFontOf(const Theme& theme) {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPointSize(std::max(8, theme.plotFontPt - 1));
  return f;
}

// A text item on one panel, clipped to it: the pool's item of `role` (kept between redraws), set up afresh.
QCPItemText* panelLabel(PlotObjectPool& pool, const QString& role, QCPAxisRect* r, double x, double y,
                        const QString& text, const QColor& color, Qt::Alignment a, const QFont& font) {
  auto* t = pool.text(role);
  t->setClipAxisRect(r);
  t->setClipToAxisRect(true);
  t->position->setAxes(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
  t->position->setCoords(x, y);
  t->setPositionAlignment(a | Qt::AlignVCenter);
  t->setPadding(QMargins(4, 0, 4, 0));
  t->setText(text);
  t->setFont(font);
  t->setColor(color);
  return t;
}

double panelStretch(PrecisionPage::Panel p) {
  switch (p) {
    case PrecisionPage::Panel::speed: return 1.6;
    case PrecisionPage::Panel::bytes: return 0.8;
    case PrecisionPage::Panel::error: return 1.0;
  }
  return 1.0;
}

}  // namespace

void PrecisionPage::replot() {
  const Theme& theme = m_ctx.theme();
  QCustomPlot* p = m_plot;
  m_recordedValueLabels.clear();
  // The panels: one on a compact layout's tab, three side by side otherwise and on every slide. They share the
  // format rows: FP64 on top, the smallest formats at the bottom. Made anew only when the set shown changes; a
  // result or a resize redraws them with the bars and labels they have (plot_object_pool.h).
  const QVector<Panel> panels = shownPanels();
  if (panels != m_panelsShown || m_panelRects.size() != panels.size()) {
    m_pool->clear();  // everything on the old panels' axes
    p->plotLayout()->clear();
    m_panelRects.clear();
    for (int i = 0; i < panels.size(); ++i) {
      auto* r = new QCPAxisRect(p);
      p->plotLayout()->addElement(0, i, r);
      m_panelRects << r;
    }
    m_panelsShown = panels;
  }
  m_pool->begin();
  const QList<QCPAxisRect*> rects = m_panelRects;
  QList<double> stretch;
  for (const Panel panel : panels) stretch << panelStretch(panel);
  p->plotLayout()->setColumnStretchFactors(stretch);
  stylePlot(p, theme);
  if (p->legend) p->legend->setVisible(false);

  const int n = int(m_rows.size());
  QSharedPointer<QCPAxisTickerText> rowsTicker(new QCPAxisTickerText);
  for (int i = 0; i < n; ++i) rowsTicker->addTick(i, precName(m_rows[i].precision));
  QSharedPointer<QCPAxisTickerText> blank(new QCPAxisTickerText);
  for (int i = 0; i < n; ++i) blank->addTick(i, QString());
  for (QCPAxisRect* r : rects) {
    QCPAxis* y = r->axis(QCPAxis::atLeft);
    y->setTicker(r == rects.front() ? rowsTicker : blank);  // the row names once, on the left
    y->setRange(-0.6, n - 0.4);
    y->setRangeReversed(true);
    y->grid()->setVisible(false);
    y->setSubTicks(false);
  }
  // Each panel's width as it will be laid out (the items are placed before the layout runs): its share of the
  // plot, less the row names on the first.
  const int plotW = m_exportSize.isEmpty() ? p->width() : m_exportSize.width();
  double total = 0;
  for (double s : stretch) total += s;
  const QFontMetrics tickFm(p->axisRects().front()->axis(QCPAxis::atLeft)->tickLabelFont());
  // ...and its height less the value axis below (tick labels, title, margins).
  const int panelH = (m_exportSize.isEmpty() ? p->height() : m_exportSize.height()) - 2 * tickFm.height() - 30;
  for (int i = 0; i < panels.size(); ++i) {
    const int width = int(plotW * stretch[i] / total) - (i == 0 ? tickFm.horizontalAdvance(QStringLiteral("FP64")) + 30 : 20);
    switch (panels[i]) {
      case Panel::speed: drawSpeedPanel(rects[i], width, panelH); break;
      case Panel::bytes: drawBytesPanel(rects[i]); break;
      case Panel::error: drawErrorPanel(rects[i]); break;
    }
  }
  m_pool->end();
  p->replot();
  // Laid out now: a recording's value label that would be drawn over other text goes inside its bar, or is left
  // out (crowded_labels.h); its bar, look and badge stay, and the export has the numbers.
  QVector<crowded_labels::SourcedLabel> recordedLabels;
  for (const auto& [item, source] : m_recordedValueLabels) recordedLabels.push_back({item, source});
  const QVector<QCPItemText*> leftOut = crowded_labels::leaveOutCrowded(p, recordedLabels);
  for (QCPItemText* t : leftOut) m_throughputLabels.removeOne(t->text());
  if (!leftOut.isEmpty()) p->replot();
  fillTable();

  // Strip: the fastest format against FP32 (the model's verdict), and the error spread.
  const Row& f32 = row(Precision::fp32);
  const precision_model::SpeedVerdict speed = precision_model::speedVerdict(m_rows);
  using Speed = precision_model::SpeedVerdict::Kind;
  if (speed.kind == Speed::fasterThanFp32)
    m_speedLabel->setText(tr("<b>Fastest here: %1</b> at %2, %3× FP32.")
                              .arg(precName(speed.best), fmtSi(speed.bestFlops, "FLOP/s"),
                                   fmtFixed(speed.bestFlops / speed.fp32Flops, 1)));
  else if (speed.kind == Speed::fp32WithFp64)
    m_speedLabel->setText(tr("<b>Fastest here: FP32</b> at %1; FP64 runs at %2 of it (twice the bytes, half the "
                             "SIMD lanes).")
                              .arg(fmtSi(speed.fp32Flops, "FLOP/s"), fmtFixed(speed.fp64Flops / speed.fp32Flops, 2)));
  else if (speed.kind == Speed::fastestOnly)
    m_speedLabel->setText(tr("<b>Fastest here: %1</b> at %2.").arg(precName(speed.best), fmtSi(speed.bestFlops, "FLOP/s")));
  else
    m_speedLabel->setText(tr("Press <b>Run all formats</b> (Space) to time each format here."));
  // The tensor-core point, from the chosen card's datasheet whatever ran here.
  const Row& s16 = row(Precision::fp16);
  const Row& s32 = row(Precision::fp32);
  if (const auto* card = gpulab::models::find_gpu(datasheetCard().toStdString());
      card && s16.datasheetFlops > 0 && s32.datasheetFlops > 0) {
    const Row& s8 = row(Precision::fp8);
    const QString cores = card->vendor == "AMD" ? tr("matrix cores") : tr("tensor cores");
    // Folded into the same paragraph, short (a line of its own squeezed the chart at 1366×768 on a projector);
    // the figures behind the ratio are in the tooltip.
    m_speedLabel->setText(m_speedLabel->text() + QStringLiteral(" ") +
                          tr("<b>%1:</b> FP16 = <b>%2× its FP32</b> (%3).")
                              .arg(datasheetCard(), fmtFixed(s16.datasheetFlops / s32.datasheetFlops, 0), cores));
    m_speedLabel->setToolTip(
        tr("Datasheet, %1: FP16 %2 = %3× its FP32 (%4): the %5%6.")
            .arg(datasheetCard(), fmtSi(s16.datasheetFlops, "FLOP/s"), fmtFixed(s16.datasheetFlops / s32.datasheetFlops, 0),
                 fmtSi(s32.datasheetFlops, "FLOP/s"), cores,
                 s8.datasheetFlops > 0 ? tr("; FP8 %1").arg(fmtSi(s8.datasheetFlops, "FLOP/s")) : QString()));
  } else {
    m_speedLabel->setToolTip(QString());
  }
  const Row& e16 = row(Precision::fp16);
  const Row& ebf = row(Precision::bf16);
  if (e16.relFro > 0 && ebf.relFro > 0 && f32.relFro > 0)
    m_errorLabel->setText(tr("Error vs FP64: FP32 %1, FP16 %2, BF16 %3 — BF16 trades 3 mantissa bits for FP32's range.")
                              .arg(sci(f32.relFro), sci(e16.relFro), sci(ebf.relFro)));
  else
    m_errorLabel->setText(tr("Errors appear after a run (emulated for all seven formats)."));
}

// 1. Throughput (log), one slot per source in each format's row: the chosen card's datasheet (dashed) on top,
// measured here (solid) below it, then one slot per opened recording (hollow, each in its own look: two recordings
// are two sources, never the faster of both). One line of text per slot at most, short ("not here"): the reasons
// are in the controls column and the table.
void PrecisionPage::drawSpeedPanel(QCPAxisRect* r, int width, int height) {
  const Theme& theme = m_ctx.theme();
  const int recordings = int(m_recordedSources.size());
  // The row's slots, evenly spaced top to bottom: datasheet, measured here, then each recording in source order.
  const int slotCount = 2 + recordings;
  const double pitch = std::min(0.4, 0.87 / slotCount);  // distance between slots' centres
  // A recording's labels sit near the measured ones (similar rates): where a slot is thinner than a line of text
  // (two recordings at 1366×768, a projector's font), the values get a smaller font, down to 60 % of the axis's;
  // what still does not fit goes inside its bar or is left out after the layout (replot).
  QFont valueFont = valueFontOf(theme);
  if (recordings > 0 && height > 0) {
    const double slotPx = pitch * height / double(m_rows.size());
    const int floorPt = std::max(8, int(std::lround(0.6 * theme.plotFontPt)));
    while (valueFont.pointSize() > floorPt && 1.05 * QFontMetrics(valueFont).lineSpacing() > slotPx)
      valueFont.setPointSize(valueFont.pointSize() - 1);
  }
  const QFontMetrics fm(valueFont);
  const QColor hw = m_ranOnGpu ? theme.gpu : theme.cpu;
  m_throughputLabels.clear();
  QCPAxis* x = r->axis(QCPAxis::atBottom);
  QCPAxis* y = r->axis(QCPAxis::atLeft);
  useLogAxis(x);  // "100 G", "1 P" with the unit in the title
  x->ticker().dynamicCast<QCPAxisTickerLog>()->setSubTickCount(0);
  x->setLabel(tr("FLOP/s (INT8: OP/s)"));
  double lo = 1e300, hi = 0;
  auto extend = [&](double v) {
    if (v <= 0) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const Row& row : m_rows) {
    for (double v : {row.flopsPerS, row.datasheetFlops}) extend(v);
    for (const precision_model::Recorded& rec : row.recorded) extend(rec.flops);
  }
  if (hi <= 0) {
    lo = 1e9;
    hi = m_ctx.cpuInfo().peak_gflops_fp32 > 0 ? m_ctx.cpuInfo().peak_gflops_fp32 * 1e9 : 1e11;
  }
  const double xlo = lo / 10, xhi = hi * 4;
  x->setRange(xlo, xhi);
  const double w = 0.9 * pitch;
  auto slotY = [&](int k) { return (k - (slotCount - 1) / 2.0) * pitch; };
  const double ySheet = slotY(0), yHere = slotY(1);
  auto newBars = [&](const QString& role) {
    auto* b = m_pool->bars(QStringLiteral("speed/") + role, y, x);
    b->setBaseValue(xlo);
    b->setWidth(w);
    return b;
  };
  auto* sheet = newBars(QStringLiteral("sheet"));
  auto* here = newBars(QStringLiteral("here"));
  QColor sheetFill = theme.gpu;
  sheetFill.setAlpha(45);
  sheet->setPen(QPen(theme.gpu, 2, Qt::DashLine));
  sheet->setBrush(sheetFill);
  here->setPen(QPen(hw.darker(120), 1));
  here->setBrush(hw);
  sheet->setName(tr("datasheet: %1").arg(datasheetCard()));
  here->setName(tr("measured here"));
  // A bar set per recording (and per CPU or GPU, the device's colour), named by the recording.
  std::map<std::pair<int, bool>, QCPBars*> recordedSets;
  auto recordedBars = [&](const precision_model::Recorded& rec) {
    QCPBars*& b = recordedSets[{rec.source, rec.onGpu}];
    if (!b) {
      b = newBars(QStringLiteral("recorded/%1/%2").arg(rec.source).arg(rec.onGpu));
      b->setPen(recordedBarPen(theme, rec.onGpu ? theme.gpu : theme.cpu, rec.source));  // the second: deeper, dashed
      b->setBrush(Qt::NoBrush);
      b->setName(m_ctx.results().sourceLabel(rec.source));
    }
    return b;
  };
  const int room = std::max(60, width - 12);
  int texts = 0;  // the panel's labels, in drawing order: the n-th is the n-th of the last redraw
  auto text = [&](double xx, double yy, const QString& t, const QColor& c, Qt::Alignment a) {
    m_throughputLabels << t;
    return panelLabel(*m_pool, QStringLiteral("speed/text/%1").arg(texts++), r, xx, yy, t, c, a, valueFont);
  };
  // A value's label sits past the end of its bar, or inside it where the text would be cut at the panel's edge.
  auto valueLabel = [&](double v, double yy, const QString& t, const QColor& outside, const QColor& fill) {
    const double reach = std::log(v / xlo) / std::log(xhi / xlo);
    const bool inside = fm.horizontalAdvance(t) + 10 > (1 - reach) * width;
    const QColor in = fill.alpha() < 128 || fill.lightness() > 150 ? theme.text : QColor(Qt::white);
    return text(v, yy, t, inside ? in : outside, inside ? Qt::AlignRight : Qt::AlignLeft);
  };
  for (int i = 0; i < int(m_rows.size()); ++i) {
    const Row& row = m_rows[i];
    const char* unit = row.precision == Precision::int8 ? "OP/s" : "FLOP/s";
    const QString noSheet = tr("datasheet: no %1 path on the %2").arg(precName(row.precision), datasheetCard());
    if (row.datasheetFlops <= 0 && !row.supported) {
      // Neither: one line in the middle of the row, not two on top of each other.
      text(xlo, i, fm.elidedText(tr("%1 · not here").arg(noSheet), Qt::ElideMiddle, room), theme.mutedText, Qt::AlignLeft);
      continue;
    }
    if (row.datasheetFlops > 0) {
      sheet->addData(i + ySheet, row.datasheetFlops);
      // The value only: the dashed outline and the badge above say "datasheet".
      valueLabel(row.datasheetFlops, i + ySheet, fmtSi(row.datasheetFlops, unit), theme.text, sheetFill);
    } else {
      text(xlo, i + ySheet, fm.elidedText(noSheet, Qt::ElideRight, room), theme.mutedText, Qt::AlignLeft);
    }
    if (row.flopsPerS > 0) {
      here->addData(i + yHere, row.flopsPerS);
      valueLabel(row.flopsPerS, i + yHere, fmtSi(row.flopsPerS, unit), theme.text, hw);
    } else if (!row.supported) {
      text(xlo, i + yHere, tr("not here"), theme.mutedText, Qt::AlignLeft);  // why: the controls column and the table
    }
    for (const precision_model::Recorded& rec : row.recorded) {
      const auto at = std::find(m_recordedSources.begin(), m_recordedSources.end(), rec.source);
      if (at == m_recordedSources.end() || rec.flops <= 0) continue;
      const double yRec = i + slotY(2 + int(at - m_recordedSources.begin()));
      recordedBars(rec)->addData(yRec, rec.flops);
      const QColor c = recordedColor(theme, rec.onGpu ? theme.gpu : theme.cpu, rec.source);
      QCPItemText* label = valueLabel(rec.flops, yRec, fmtSi(rec.flops, unit), theme.dark ? c : c.darker(130), QColor(0, 0, 0, 0));
      m_recordedValueLabels.push_back({label, rec.source});
    }
  }
}

// 2. Bytes per value, with what a 7B model's weights then take (the lesson's table).
void PrecisionPage::drawBytesPanel(QCPAxisRect* r) {
  const Theme& theme = m_ctx.theme();
  const QFont valueFont = valueFontOf(theme);
  QCPAxis* x = r->axis(QCPAxis::atBottom);
  QCPAxis* y = r->axis(QCPAxis::atLeft);
  x->setScaleType(QCPAxis::stLinear);
  useSiAxis(x);
  x->setLabel(tr("Bytes · 7B model"));
  x->setRange(0, 28);
  x->ticker()->setTickCount(4);
  for (int i = 0; i < int(m_rows.size()); ++i) {
    const Row& row = m_rows[i];
    const double b = gpulab::bytes_per_element(row.precision);
    auto* bar = m_pool->bars(QStringLiteral("bytes/bar/%1").arg(i), y, x);
    bar->setWidth(0.6);
    const QColor c = theme.precision(row.precision);
    bar->setPen(QPen(c.darker(120), 1));
    bar->setBrush(row.supported ? c : QColor(c.red(), c.green(), c.blue(), 90));
    bar->addData(i, b);
    panelLabel(*m_pool, QStringLiteral("bytes/label/%1").arg(i), r, b, i,
               tr("%1 B · %2").arg(fmtFixed(b, 0), fmtBytes(gpulab::models::weight_bytes(7e9, gpulab::models::format_of(row.precision)))),
               theme.text, Qt::AlignLeft, valueFont);
  }
}

// 3. Error against FP64 (log): longer is worse.
void PrecisionPage::drawErrorPanel(QCPAxisRect* r) {
  const Theme& theme = m_ctx.theme();
  const QFont valueFont = valueFontOf(theme);
  QCPAxis* x = r->axis(QCPAxis::atBottom);
  QCPAxis* y = r->axis(QCPAxis::atLeft);
  useDigitsLogAxis(x);  // 1e-7 relative error: about 7 correct digits
  x->setLabel(tr("Correct digits"));
  const double xlo = 1e-18, xhi = 1e4;  // room right of the worst bar for its label
  x->setRange(xlo, xhi);
  bool any = false;
  for (int i = 0; i < int(m_rows.size()); ++i) {
    const Row& row = m_rows[i];
    if (!(row.relFro >= 0)) continue;
    any = true;
    const double v = std::max(row.relFro, 2e-18);
    auto* bar = m_pool->bars(QStringLiteral("error/bar/%1").arg(i), y, x);
    bar->setBaseValue(xlo);
    bar->setWidth(0.6);
    const QColor c = theme.precision(row.precision);
    bar->setPen(QPen(c.darker(120), 1));
    bar->setBrush(row.supported ? c : QColor(c.red(), c.green(), c.blue(), 110));
    bar->addData(i, v);
    panelLabel(*m_pool, QStringLiteral("error/label/%1").arg(i), r, v, i, sci(row.relFro), theme.text, Qt::AlignLeft,
               valueFont);
  }
  if (!any) {
    // Said on the screen only: a slide of this panel before a run simply has no bars.
    auto* hint = panelLabel(*m_pool, QStringLiteral("error/hint"), r, xlo, (int(m_rows.size()) - 1) / 2.0, tr("errors appear after a run"), theme.mutedText,
                            Qt::AlignLeft, valueFont);
    markOnScreenHint(hint);
  }
}

void PrecisionPage::fillTable() {
  const Theme& theme = m_ctx.theme();
  // What the cells would say: a redraw that changes none of it leaves the table alone. Each setItem made the
  // header measure its columns again (42 cells, 7 rows each): 10–15 ms per redraw on the GUI thread.
  QStringList signature{theme.text.name(), theme.mutedText.name(), datasheetCard(), m_table->font().toString()};
  for (const Row& r : m_rows)
    signature << QString::number(int(r.precision)) << QString::number(r.supported) << qs(r.variant) << qs(r.reason)
              << QString::number(r.flopsPerS) << QString::number(r.datasheetFlops) << QString::number(r.checkMaxAbs)
              << QString::number(r.emuMaxAbs) << QString::number(r.relFro) << QString::number(int(precision_model::statusOf(r)));
  if (signature == m_tableSignature) return;
  m_tableSignature = signature;
  m_table->setRowCount(int(m_rows.size()));
  for (int i = 0; i < int(m_rows.size()); ++i) {
    const Row& r = m_rows[i];
    const QString unit = r.precision == Precision::int8 ? QStringLiteral("OP/s") : QStringLiteral("FLOP/s");
    QString status;
    switch (precision_model::statusOf(r)) {
      // Short, so the table fits a projector: the whole reason is the row's tooltip and in the controls column.
      case precision_model::Status::notHere: status = tr("not here"); break;
      case precision_model::Status::ran: status = tr("ran: %1, checked").arg(qs(r.variant)); break;
      case precision_model::Status::runsHere: status = tr("runs: %1").arg(qs(r.variant)); break;
    }
    // FP32 runs with TF32 off; said in the row's tooltip and under the chart ("FP32 means FP32"), not in the cell,
    // which it pushed past a 1366-pixel window's table.
    const QString statusTip = r.precision == Precision::fp32 && r.supported ? status + tr(" (TF32 off)") : status;
    const QStringList cells{precName(r.precision),
                            r.flopsPerS > 0 ? fmtSi(r.flopsPerS, unit.toUtf8().constData()) : QStringLiteral("—"),
                            r.datasheetFlops > 0 ? fmtSi(r.datasheetFlops, unit.toUtf8().constData()) : tr("none"),
                            r.checkMaxAbs >= 0 ? sci(r.checkMaxAbs) : (r.emuMaxAbs >= 0 ? sci(r.emuMaxAbs) + tr(" (em.)") : QStringLiteral("—")),
                            r.relFro >= 0 ? sci(r.relFro) : QStringLiteral("—"), status};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setForeground(r.supported ? theme.text : theme.mutedText);
      if (c == 0) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
        item->setForeground(r.supported ? theme.precision(r.precision) : theme.mutedText);
      }
      if (c >= 1 && c <= 4) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      item->setToolTip(c == 2 ? tr("%1 datasheet, dense").arg(datasheetCard()) : r.supported ? statusTip : qs(r.reason));
      m_table->setItem(i, c, item);
    }
  }
  m_table->resizeRowsToContents();
  m_table->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
  if (auto* h = m_table->horizontalHeaderItem(2)) h->setToolTip(tr("%1 datasheet, dense").arg(datasheetCard()));
  // Exactly as tall as its rows: the space below goes to the reasons.
  int h = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() + 2;
  for (int i = 0; i < m_table->rowCount(); ++i) h += m_table->rowHeight(i);
  m_table->setFixedHeight(h);
  QStringList why;
  for (const Row& r : m_rows)
    if (!r.supported)
      why << tr("<b style='color:%1'>%2</b> — %3")
                 .arg(theme.mutedText.name(), precName(r.precision), qs(r.reason).toHtmlEscaped());
  m_reasons->setText(why.isEmpty() ? tr("Every format runs on this device.")
                                    : tr("<b>Greyed on this device:</b><br>") + why.join(QStringLiteral("<br>")));
}

QString PrecisionPage::csvSummary() const {
  QString out = QStringLiteral(
      "precision,supported,variant,flop_per_s,bytes_per_param,check_max_abs_err,emulated_rel_frobenius,"
      "emulated_max_abs_err,datasheet_flop_per_s,datasheet_card,reason");
  // A column per opened recording, named by it: two recordings are two sources, never one merged column.
  for (int source : m_recordedSources)
    out += QStringLiteral(",\"flop_per_s %1\"").arg(m_ctx.results().sourceLabel(source).replace(QLatin1Char('"'), QStringLiteral("\"\"")));
  out += QLatin1Char('\n');
  for (const Row& r : m_rows) {
    QString reason = qs(r.reason);
    reason.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,\"%10\",\"%11\"")
               .arg(precName(r.precision), r.supported ? QStringLiteral("yes") : QStringLiteral("no"), qs(r.variant))
               .arg(r.flopsPerS, 0, 'g', 6)
               .arg(gpulab::bytes_per_element(r.precision))
               .arg(r.checkMaxAbs, 0, 'g', 4)
               .arg(r.relFro, 0, 'g', 4)
               .arg(r.emuMaxAbs, 0, 'g', 4)
               .arg(r.datasheetFlops, 0, 'g', 6)
               .arg(datasheetCard(), reason);
    for (int source : m_recordedSources) out += QStringLiteral(",%1").arg(precision_model::recordedFlops(r, source), 0, 'g', 6);
    out += QLatin1Char('\n');
  }
  return out;
}

QString PrecisionPage::csvUnderflow() const {
  QString out = QStringLiteral("bin_lo,bin_hi,gradients");
  for (const auto& m : m_underflow.methods) out += QStringLiteral(",\"lost: %1\"").arg(QString::fromStdString(m.name));
  out += QLatin1Char('\n');
  for (std::size_t b = 0; b < m_underflow.bin_center.size(); ++b) {
    out += QStringLiteral("%1,%2,%3").arg(m_underflow.bin_lo[b], 0, 'g', 4).arg(m_underflow.bin_hi[b], 0, 'g', 4)
               .arg(m_underflow.per_bin[b]);
    for (const auto& m : m_underflow.methods) out += QStringLiteral(",%1").arg(m.lost[b]);
    out += QLatin1Char('\n');
  }
  return out;
}

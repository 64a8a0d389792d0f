// The decode page's drawing: the ceiling bars (datasheet, measured, what-if and published, per weight format) and
// the measured chain against users, from the decode page model (models/decode_page_model); the strip's sentences.
#include "app_context.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/prefill_model.hpp"
#include "pages/decode/model/decode_choices.h"
#include "pages/decode/model/decode_page_model.h"
#include "pages/decode/model/decode_verdict.h"
#include "pages/decode/decode_page.h"
#include "qcustomplot.h"
#include "widgets/legend_placement.h"
#include "widgets/plot_style.h"
#include "widgets/published_views.h"
#include "widgets/recorded_look.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"
#include "widgets/stacked_or_tabbed.h"

#include <QDoubleSpinBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <set>
#include <cmath>

using namespace gpulab;
using namespace gpulab::models;
using decode_page_model::kFullLayers;

QString DecodePage::ceilingColumnName(const decode_page_model::CeilingColumn& c, const GpuSpec* card) const {
  using Kind = decode_page_model::CeilingColumn::Kind;
  const QString bandwidth = fmtSi(c.bytesPerS, "B/s");
  if (c.kind == Kind::datasheet) return tr("datasheet %1: %2").arg(QString::fromStdString(card ? card->name : ""), bandwidth);
  if (c.kind == Kind::whatIf) return tr("what-if: %1").arg(bandwidth);
  const decode_page_model::CeilingBandwidth& m = c.measured;
  const QString who = m.source >= 0 ? m_ctx.results().sourceLabel(m.source)
                      : m.copy      ? tr("measured here (%1 copy)").arg(QString::fromStdString(m.device.noun))
                                    : tr("measured here (%1 triad)").arg(QString::fromStdString(m.device.noun));
  return tr("%1: %2").arg(who, bandwidth);
}

QString DecodePage::servingText(int users) const {
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  const double context = m_context->value();
  if (!card || !(card->bandwidth_gbs > 0) || !(card->memory_gb > 0) || context <= 0) return {};
  const ServingStep s = decode_page_model::cardServing(*card, m_params->value() * 1e9,
                                                       m_moe->currentData().toString().toStdString(), context, users);
  QString text = tr("<b>Serving %1 users</b> on the %2 at %3 tokens each (datasheet + model): a step reads %4 of "
                    "weights + %5 of KV caches, so each user gets <b>%6</b> tokens/s (%7 if the caches were not read)")
                     .arg(users)
                     .arg(QString::fromStdString(card->name), fmtCount(std::llround(context)),
                          fmtBytes(s.weight_bytes_read), fmtBytes(s.kv_bytes_read),
                          fmtFixed(s.step.per_user_tokens_s, s.step.per_user_tokens_s < 10 ? 1 : 0),
                          fmtFixed(s.per_user_without_kv, s.per_user_without_kv < 10 ? 1 : 0));
  if (s.experts_touched_share < 1)
    text += tr("; the batch touches %1 % of each layer's experts").arg(fmtFixed(100 * s.experts_touched_share, 0));
  if (s.fits)
    text += tr(". It fits: %1 of %2 (%3).")
                .arg(fmtBytes(s.vram_needed), fmtBytes(card->memory_bytes()),
                     QString::fromStdString(card->memory_label()));
  else
    text += tr(". <b>It does not fit</b>: %1 needed of %2 (%3) — at %4 tokens %5 users fit, or %6 users at up to "
               "%7 tokens.")
                .arg(fmtBytes(s.vram_needed), fmtBytes(card->memory_bytes()),
                     QString::fromStdString(card->memory_label()), fmtCount(std::llround(context)))
                .arg(s.max_users_at_context)
                .arg(users)
                .arg(fmtCount(s.max_context_for_users));
  return text;
}

decode_page_model::CeilingTable DecodePage::ceilingTable() const {
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  return decode_page_model::ceilingTable(inputs(), card ? card->bandwidth_bytes_s() : 0, m_whatIf->value() * 1e9,
                                         activeParams());
}

void DecodePage::replotCeiling() {
  const Theme& t = m_ctx.theme();
  const double params = activeParams();  // a mixture of experts: the parameters one token reads
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  // The table (the model's): bandwidths × formats. The view names and colours each bandwidth, and draws.
  const decode_page_model::CeilingTable table = ceilingTable();
  // ---- ceilings: the formats × (datasheet, measured, what-if) ----
  m_barLabels.clear();
  struct Src { QString name; double bw; QColor colour; Qt::BrushStyle brush; int source = -2; };
  QVector<Src> sources;
  for (const decode_page_model::CeilingColumn& c : table.bandwidths) {
    using Kind = decode_page_model::CeilingColumn::Kind;
    const QString name = ceilingColumnName(c, card);
    if (c.kind == Kind::datasheet) {
      sources.push_back({name, c.bytesPerS, t.gpu, Qt::BDiagPattern});
    } else if (c.kind == Kind::measured) {
      const QColor device = c.measured.device.is_gpu ? t.gpu : t.cpu;
      sources.push_back({name, c.bytesPerS, c.measured.source < 0 ? device : recordedColor(t, device, c.measured.source),
                         Qt::SolidPattern, c.measured.source});
    } else {
      sources.push_back({name, c.bytesPerS, t.model, Qt::Dense4Pattern});
    }
  }
  const std::vector<WeightFormat>& formats = table.formats;
  const QVector<PublishedDecodeBar> published = publishedDecodeBars(m_ctx, params / 1e9);  // real GPUs, 7B
  const double groupW = 0.8, barW = groupW / (sources.size() + publishedDecodeSlots(published));

  // What the chart's objects depend on besides the values: the sources' looks, the formats, the published bars.
  // Unchanged, the bars and their value texts are kept and a value only moves their data; changed (a run's first
  // triad, a recording, a card without a figure, the theme), they are made again.
  QString shape = QString::number(sources.size());
  for (const Src& src : sources) shape += QStringLiteral("|%1/%2/%3").arg(src.colour.name()).arg(int(src.brush)).arg(src.source);
  for (const WeightFormat& f : formats) shape += QStringLiteral("|") + QString::fromStdString(f.name);
  for (const PublishedDecodeBar& b : published) shape += QStringLiteral("|p:%1/%2/%3").arg(b.label, b.format).arg(b.tokensPerS);
  double maxTok = 1, minTok = 1e12;
  if (shape != m_ceilingShape) {
    m_ceilingShape = shape;
    m_ceilingPlot->clearPlottables();
    m_ceilingPlot->clearItems();
    m_ceilingBars.clear();
    m_ceilingValueTexts.clear();
    for (const Src& src : sources) {
      auto* bars = new QCPBars(m_ceilingPlot->xAxis, m_ceilingPlot->yAxis);
      bars->setWidth(barW * 0.92);
      bars->setBaseValue(0.1);
      QBrush brush(src.colour, src.brush);
      if (src.brush == Qt::SolidPattern) brush = QBrush(src.colour);
      bars->setBrush(brush);
      // Dashed outlines: the datasheet's bars, and the second recording's (widgets/recorded_look.h).
      const bool dashed = src.brush == Qt::BDiagPattern || src.source > 0;
      bars->setPen(QPen(src.colour.darker(130), dashed ? 2 : 1, dashed ? Qt::DashLine : Qt::SolidLine));
      m_ceilingBars << bars;
      for (std::size_t fi = 0; fi < formats.size(); ++fi) {
        auto* label = new QCPItemText(m_ceilingPlot);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        // The key's size, not the axes': at the axes' size neighbouring bars' labels ran together ("239239").
        QFont f(QStringLiteral("DejaVu Sans"), legendFontPt(t));
        f.setBold(true);
        label->setFont(f);
        label->setColor(t.text);
        m_ceilingValueTexts << label;
      }
    }
    double ignoredMax = 0, ignoredMin = 0;  // the published bars' extremes are taken below, on every redraw
    addPublishedDecodeBars(m_ceilingPlot, t, published, int(sources.size()), barW, groupW, &ignoredMax, &ignoredMin);
    m_ceilingTicker.reset(new QCPAxisTickerText);
    m_ceilingPlot->xAxis->setTicker(m_ceilingTicker);
    stylePlot(m_ceilingPlot, t);
  }
  for (const PublishedDecodeBar& b : published) {
    maxTok = std::max(maxTok, b.tokensPerS);
    minTok = std::min(minTok, b.tokensPerS);
  }
  for (int si = 0; si < sources.size(); ++si) {
    QCPBars* bars = m_ceilingBars[si];
    bars->setName(sources[si].name);
    QVector<double> keys, values;
    for (int fi = 0; fi < int(formats.size()); ++fi) {
      const double tok = table.tokensPerS[std::size_t(si)][std::size_t(fi)];
      const double x = fi + 1 - groupW / 2 + barW * (si + 0.5);
      keys << x;
      values << tok;
      maxTok = std::max(maxTok, tok);
      minTok = std::min(minTok, tok);
      QCPItemText* label = m_ceilingValueTexts[si * int(formats.size()) + fi];
      label->position->setCoords(x, tok);
      const QString txt = fmtFixed(tok, tok < 10 ? 1 : 0);
      label->setText(txt);
      // A bar as tall as its left neighbour (the what-if left at the datasheet's bandwidth) leaves the figure to
      // that one: side by side the two ran together ("239239") in a 1024 px window.
      const double left = si > 0 ? table.tokensPerS[std::size_t(si - 1)][std::size_t(fi)] : -1;
      label->setVisible(si == 0 || fmtFixed(left, left < 10 ? 1 : 0) != txt);
      m_barLabels << txt;
    }
    bars->setData(keys, values, true);
  }
  m_ceilingTicker->clear();
  for (int fi = 0; fi < int(formats.size()); ++fi)
    // The bytes a token reads, without "/token" (the axis title says it): four formats' ticks side by side at 1366 px.
    m_ceilingTicker->addTick(fi + 1, tr("%1\n%2").arg(QString::fromStdString(formats[fi].name), fmtBytes(decode_bytes_per_token(params, formats[fi].bytes))));
  m_ceilingPlot->xAxis->setRange(0.4, formats.size() + 0.6);
  // Above the tallest bar only its value label (the key is above the chart).
  m_ceilingPlot->yAxis->setRange(std::max(0.1, minTok / 3), maxTok * 3);
  // Re-flowing the key moves every key entry: only when its column count changes.
  if (const CeilingKeyFit fit = ceilingKeyFit(); ceilingKeyStale(fit)) {
    QFont keyFont = m_ceilingPlot->legend->font();
    QStringList citations;  // what the short names leave out, in the chart's tooltip
    for (int i = 0; i < m_ceilingPlot->plottableCount(); ++i) {
      QCPAbstractPlottable* p = m_ceilingPlot->plottable(i);
      p->setName(ceilingKeyName(p, fit.shortNames));
      if (fit.shortNames && p->property("gpulabFullKey").isValid()) citations << ceilingKeyName(p, false);
    }
    m_ceilingPlot->setToolTip(citations.isEmpty() ? m_ceilingTip
                                                  : m_ceilingTip + QStringLiteral("\n") + citations.join(QStringLiteral("\n")));
    keyFont.setPointSize(fit.pt);
    m_ceilingPlot->legend->setFont(keyFont);
    placeLegendAbove(m_ceilingPlot, fit.columns);
    // The rows the key takes come off the bars' height: at 1024x768 in a window the four keys fit only one to a row
    // and left the bars 49 px, so the chart's least height grows with them (and the two charts take turns below it).
    const int rows = (m_ceilingPlot->legend->itemCount() + fit.columns - 1) / std::max(1, fit.columns);
    if (rows != m_ceilingKeyRows) {
      m_ceilingKeyRows = rows;
      fitPlotSizes(m_ctx.theme());
    }
  }
  // The bars' values at the key's size (below): a key shrunk for a narrow chart has narrow bars under it, whose
  // values at the full size ran together ("239239").
  for (QCPItemText* label : m_ceilingValueTexts)
    if (label->font().pointSize() != m_ceilingPlot->legend->font().pointSize()) {
      QFont f = label->font();
      f.setPointSize(m_ceilingPlot->legend->font().pointSize());
      label->setFont(f);
    }
  m_ceilingPlot->replot();

  const double fp16 = decode_ceiling_tokens_per_s(m_whatIf->value() * 1e9, decode_bytes_per_token(params, 2));
  QString ceilingText =
      tr("At <b>%1</b>, %2 params: FP16 ≤ <b>%3</b>, INT8 ≤ <b>%4</b>, INT4 ≤ <b>%5</b> tokens/s. "
         "At the FP16 ceiling the cores do %6 — the rest of the time they wait for weights.")
          .arg(fmtSi(m_whatIf->value() * 1e9, "B/s"), QString::number(params / 1e9, 'g', 3) + QStringLiteral("B"),
               fmtFixed(fp16, fp16 < 10 ? 1 : 0), fmtFixed(whatIfCeiling(QStringLiteral("INT8")), 0),
               fmtFixed(whatIfCeiling(QStringLiteral("INT4")), 0),
               fmtSi(compute_at_ceiling(params, 2, m_whatIf->value() * 1e9), "FLOP/s"));
  if (const MoeModel* moe = find_moe_preset(m_moe->currentData().toString().toStdString())) {
    const MoeDecode d = moe_decode(moe->shape.params, moe->active_params, 2.0, m_whatIf->value() * 1e9);
    ceilingText += tr(" <b>Mixture of experts</b>: a token reads %1 of %2 params (%3 of %4 experts), so FP16 ≤ %5 "
                      "tokens/s where reading all %6 would allow %7. Memory still holds every expert (%6 in FP16): "
                      "it saves bandwidth per token, not VRAM.")
                       .arg(QString::number(moe->active_params / 1e9, 'g', 3) + QStringLiteral("B"),
                            QString::number(moe->shape.params / 1e9, 'g', 3) + QStringLiteral("B"))
                       .arg(moe->active_experts)
                       .arg(moe->experts)
                       .arg(fmtFixed(d.ceiling_tokens_s, 0), fmtBytes(d.weights_bytes), fmtFixed(d.dense_ceiling_tokens_s, 1));
  }
  // Where the page states the ceiling: it bounds one pass over the weights, not one token.
  ceilingText += tr(" It bounds one pass over the weights: speculative decoding can accept several tokens a pass "
                    "(how many depends on how often the draft is right, and the draft's own passes cost bandwidth).");
  // The lesson's 8 users, with their caches read and fitted (issue 36).
  const QString serving = servingText(8);
  if (!serving.isEmpty()) ceilingText += QStringLiteral("<br>") + serving;
  // The strip has room for a few lines beside the chain's and the batch's (a projector's large ones, a 1024 px
  // window's narrow column): the figures, the per-pass note and the 8 users there, in short; the whole sentences in
  // the tooltip. (With the serving sentence added in full, a 1024x768 window left the chain plot 57 px tall.)
  {
    // The speculative-decoding aside only where the strip's lines are few and wide (a projector): a 1024 px window's
    // narrow column needs that height for the chain's chart (49 px of data area with it).
    QString brief = (t.isProjector() ? tr("At <b>%1</b>, %2: FP16 ≤ <b>%3</b>, INT8 ≤ <b>%4</b>, INT4 ≤ <b>%5</b> "
                                          "tokens/s, per pass over the weights (speculative decoding: several tokens a "
                                          "pass).")
                                     : tr("At <b>%1</b>, %2: FP16 ≤ <b>%3</b>, INT8 ≤ <b>%4</b>, INT4 ≤ <b>%5</b> "
                                          "tokens/s, per pass over the weights."))
                        .arg(fmtSi(m_whatIf->value() * 1e9, "B/s"), QString::number(params / 1e9, 'g', 3) + QStringLiteral("B"),
                             fmtFixed(fp16, fp16 < 10 ? 1 : 0), fmtFixed(whatIfCeiling(QStringLiteral("INT8")), 0),
                             fmtFixed(whatIfCeiling(QStringLiteral("INT4")), 0));
    if (const MoeModel* moe = find_moe_preset(m_moe->currentData().toString().toStdString()))
      brief += tr(" MoE: reads %1 of %2 params; VRAM holds all.")
                   .arg(QString::number(moe->active_params / 1e9, 'g', 3) + QStringLiteral("B"),
                        QString::number(moe->shape.params / 1e9, 'g', 3) + QStringLiteral("B"));
    if (!serving.isEmpty()) {
      const GpuSpec* c = find_gpu(m_card->currentData().toString().toStdString());
      const ServingStep sv = decode_page_model::cardServing(*c, m_params->value() * 1e9,
                                                            m_moe->currentData().toString().toStdString(),
                                                            m_context->value(), 8);
      brief += tr(" 8 users at %1 tokens: %2 tokens/s each, caches read; %3.")
                   .arg(fmtCount(m_context->value()), fmtFixed(sv.step.per_user_tokens_s, 0),
                        sv.fits ? tr("fits") : tr("<b>does not fit</b> (%1 fit)").arg(sv.max_users_at_context));
    }
    m_ceilingLabel->setText(brief);
  }
  m_ceilingLabel->setToolTip(ceilingText);
  updatePrefill();
}

void DecodePage::replotChain() {
  const Theme& t = m_ctx.theme();
  const std::vector<decode_page_model::Input> in = inputs();
  const std::vector<decode_page_model::ChainRun> runs = decode_page_model::chainRuns(in);
  const std::vector<decode_page_model::CeilingBandwidth> ceilings = decode_page_model::ceilingBandwidths(in);
  // ---- the measured chain: tokens/s against users ----
  // Redrawn when results or recordings change (never for a control's value), with the objects it has: graphs
  // and spread bars handed out again in drawing order (keys kept), made only where the picture gained a series.
  int graphsUsed = 0, spreadsUsed = 0;
  auto nextGraph = [&](bool inLegend) {
    QCPGraph* g = graphsUsed < m_batchPlot->graphCount() ? m_batchPlot->graph(graphsUsed) : m_batchPlot->addGraph();
    ++graphsUsed;
    g->data()->clear();
    g->setLineStyle(QCPGraph::lsLine);  // a graph handed out again may have been the prompt's lone point
    if (inLegend) g->addToLegend();  // a no-op where its key is already there
    else g->removeFromLegend();
    return g;
  };
  auto spreadFor = [&](QCPGraph* g, const QVector<double>& y, const QVector<double>& lo, const QVector<double>& hi,
                       const QColor& colour) {
    if (spreadsUsed < m_chainSpreads.size() && m_chainSpreads[spreadsUsed]) {
      m_chainSpreads[spreadsUsed]->setVisible(true);
      setSpreadBars(m_chainSpreads[spreadsUsed], g, y, lo, hi, colour);
    } else if (spreadsUsed < m_chainSpreads.size()) {
      m_chainSpreads[spreadsUsed] = addSpreadBars(g, y, lo, hi, colour);
    } else {
      m_chainSpreads << addSpreadBars(g, y, lo, hi, colour);
    }
    ++spreadsUsed;
  };
  int bendsUsed = 0;
  // The strip under the charts: each source's sentence in full while one is drawn; with two or three, the first
  // in full and the others in short (every full sentence in the labels' tooltips), so the strip keeps to its
  // height at 1366×768 instead of squashing the charts.
  QStringList chainLines, batchLines, chainFull, batchFull;
  const bool sameScale = std::all_of(runs.begin(), runs.end(), [&](const auto& r) { return r.layers == runs.front().layers; });
  m_batchPlot->xAxis->setLabel(runs.size() > 1 && sameScale
                                   ? tr("users batched together (%1)")
                                         .arg(QString::fromStdString(chain_scale_note(runs.front().layers, kFullLayers)))
                                   : runs.size() == 1 && runs.front().prefill ? tr("users (or a prompt's tokens) batched together")
                                                                              : tr("users batched together"));
  auto whoOf = [&](const decode_page_model::ChainRun& r) {
    return r.source < 0 ? tr("Measured") : tr("%1 (recorded)").arg(m_ctx.results().recordings()[r.source].device);
  };
  double yMax = 1, yMin = 1e12, xMax = m_maxUsers->currentData().toDouble();
  for (const decode_page_model::ChainRun& run : runs) {
    const bool here = run.source < 0;
    // Green only for a real GPU: a CPU-type Vulkan device's chain is drawn in the CPU's colour.
    const QColor c = run.device.is_gpu ? t.gpu : t.cpu;
    const QString who = here ? tr("measured") : m_ctx.results().sourceLabel(run.source);
    // In the strip and the keys a recording by its device (its badge carries the whole label, date and all): the
    // strip is three narrow columns at 1366×768, and six keys of whole labels took half the chart.
    const QString whoShort = whoOf(run);
    const QString prec = QString::fromStdString(std::string(display_name(run.precision)));
    QCPGraph* agg = nextGraph(true);
    if (here) styleGraph(agg, t, c, SeriesKind::Measured);
    else styleRecordedGraph(agg, t, c, run.source);
    // How much really ran, on the plot itself: a 2-layer chain scaled ×16 is not a 32-layer measurement. One
    // source: in its key. Several that ran alike: once, in the x axis's title, and the keys name only the device
    // (the badges name the recordings), so they share rows instead of taking the chart's height.
    const QString note = QString::fromStdString(chain_scale_note(run.layers, kFullLayers));
    const QString keyWho = here ? tr("measured") : m_ctx.results().recordings()[run.source].device;
    if (runs.size() == 1 || !sameScale) agg->setName(tr("total, %1 (%2; %3)").arg(runs.size() == 1 ? whoShort : keyWho, prec, note));
    else agg->setName(tr("total, %1 · %2").arg(keyWho, prec));
    QCPGraph* per = nextGraph(true);
    const QColor perColour = (here ? c : recordedColor(t, c, run.source)).darker(140);
    styleGraph(per, t, perColour, here ? SeriesKind::Measured : SeriesKind::Recorded);
    per->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, perColour, here ? perColour : t.surface, t.markerSize + 1));
    per->setName(tr("per user, %1").arg(runs.size() == 1 ? whoShort : keyWho));
    QVector<double> aggY, aggLo, aggHi, perY, perLo, perHi;
    for (const ChainStep& s : run.steps) {
      agg->addData(s.users, s.users / s.median_s);
      per->addData(s.users, 1 / s.median_s);
      aggY << s.users / s.median_s, aggLo << s.users / s.max_s, aggHi << s.users / s.min_s;
      perY << 1 / s.median_s, perLo << 1 / s.max_s, perHi << 1 / s.min_s;
      yMax = std::max(yMax, s.users / s.median_s);
      yMin = std::min(yMin, 1 / s.median_s);
    }
    spreadFor(agg, aggY, aggLo, aggHi, c);
    spreadFor(per, perY, perLo, perHi, c.darker(140));
    for (QCPGraph* g : {agg, per}) tagSource(g, here ? tr("measured here") : who);
    // Ceiling for what actually ran: this device's bandwidth ÷ the bytes of the precision it ran in.
    const double bpp = bytes_per_element(run.precision);
    const double fullParams = run.paramsPerLayer * kFullLayers;
    const double bw = run.bandwidth;
    // The cache the chain leaves out (it runs the weight products only), for the chain's shape at the page's context.
    const TransformerShape shape = chainShape();
    const double context = m_context->value();
    if (bw > 0) {
      const double ceil1 = decode_ceiling_tokens_per_s(bw, fullParams * bpp);
      // With several sources one key stands for every ceiling line (each source's figures are in the strip):
      // a key per source took rows the chart needed.
      QCPGraph* cg = nextGraph(runs.size() == 1);
      styleGraph(cg, t, t.model, SeriesKind::Model);
      cg->setName(tr("ceiling, %1: %2 ÷ %3 × users").arg(whoShort, fmtSi(bw, "B/s"), fmtBytes(fullParams * bpp)));
      if (runs.size() > 1) {
        if (&run == &runs.front()) {  // a key of its own, with no points: the CSV keeps each line under its source
          QCPGraph* key = nextGraph(true);
          styleGraph(key, t, t.model, SeriesKind::Model);
          key->setName(tr("ceilings: bandwidth ÷ bytes × users"));
        }
      }
      tagSource(cg, tr("model"));
      for (const ChainStep& s : run.steps) cg->addData(s.users, ceil1 * s.users);
      // The same ceiling with every user's KV cache read at the page's context (what a server's step reads).
      if (context > 0 && runs.size() == 1) {
        QCPGraph* kg = nextGraph(true);
        styleGraph(kg, t, t.bad, SeriesKind::Model);
        kg->setName(tr("ceiling with %1-token KV caches read").arg(fmtCount(std::llround(context))));
        tagSource(kg, tr("model"));
        for (const ChainStep& s : run.steps)
          kg->addData(s.users, decode_page_model::chainCeilingWithCache(shape, fullParams * bpp, bpp, bw, context, s.users));
      }
      const double b1 = 1 / run.steps.front().median_s;
      chainFull << tr("%1 batch 1: <b>%2 tokens/s</b> = %3% of its ceiling %4 (%5, %6 of %7 layers run, %8 of "
                      "weights; time × %7/%6)")
                       .arg(whoShort, fmtFixed(b1, b1 < 10 ? 2 : 0), fmtFixed(100 * b1 / ceil1, 0), fmtFixed(ceil1, ceil1 < 10 ? 2 : 0),
                            prec)
                       .arg(run.layers)
                       .arg(kFullLayers)
                       .arg(fmtBytes(run.weightBytes));
      chainLines << (runs.size() == 1 ? chainFull.back()
                                      : tr("%1: <b>%2 tokens/s</b> at batch 1, %3% of its ceiling")
                                                .arg(whoShort, fmtFixed(b1, b1 < 10 ? 2 : 0), fmtFixed(100 * b1 / ceil1, 0)));
    }
    // The prompt's prefill, after the run's other graphs (so they keep their objects when it arrives last), where
    // the total line would go on to: its tokens as one batch, a point of its own (one source only: with
    // several, the keys need the chart's room).
    if (run.prefill && runs.size() == 1) {
      const decode_page_model::Prefill& f = *run.prefill;
      QCPGraph* pg = nextGraph(true);
      pg->setPen(Qt::NoPen);
      pg->setLineStyle(QCPGraph::lsNone);
      pg->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(c, 2), QBrush(c), t.markerSize + 6));
      pg->setName(tr("prompt: %1 tokens in one pass").arg(fmtCount(f.tokens)));
      pg->addData(double(f.tokens), f.tokensPerS());
      tagSource(pg, here ? tr("measured here") : who);
      yMax = std::max(yMax, f.tokensPerS());
      xMax = std::max(xMax, double(f.tokens));
    }
    // The verdict is read off the per-user curve drawn here (models/decode_verdict), so the two cannot disagree.
    const DecodeVerdict verdict = decode_verdict(run.steps);
    const ChainStep& last = run.steps.back();
    const QString attention = QString::fromStdString(chain_attention_note(
        fullParams * bpp, decode_page_model::chainKvBytesPerUser(shape, bpp, context), context, last.users));
    batchFull << tr("%1 at %2 users: total <b>%3</b>, each user %4 tokens/s. <b>%5</b>")
                     .arg(whoShort)
                     .arg(int(last.users))
                     .arg(fmtFixed(last.users / last.median_s, 1), fmtFixed(1 / last.median_s, 2),
                          QString::fromStdString(verdict.text).toHtmlEscaped()) +
                 (attention.isEmpty() ? QString() : QStringLiteral(" ") + attention.toHtmlEscaped());
    // Several sources: each one's total in a line; the verdicts in the tooltip (and the bend's dashed line).
    // In the strip the verdict and, short, what the left-out cache reads would leave of it (in full in the tooltip).
    const double kvFactor = chain_attention_factor(fullParams * bpp, decode_page_model::chainKvBytesPerUser(shape, bpp, context),
                                                   last.users);
    const QString shortNote = kvFactor > 1 ? tr(" Weights only: with %1-token KV caches read too, %2 % of this speed.")
                                                 .arg(fmtCount(std::llround(context)), fmtFixed(100 / kvFactor, 0))
                                           : QString();
    batchLines << (runs.size() == 1 ? tr("%1 at %2 users: total <b>%3</b>, each user %4 tokens/s. <b>%5</b>")
                                              .arg(whoShort)
                                              .arg(int(last.users))
                                              .arg(fmtFixed(last.users / last.median_s, 1), fmtFixed(1 / last.median_s, 2),
                                                   QString::fromStdString(verdict.text).toHtmlEscaped()) +
                                          shortNote
                                    : tr("%1: total <b>%2</b> tokens/s at %3 users")
                                          .arg(whoShort, fmtFixed(last.users / last.median_s, 1))
                                          .arg(int(last.users)));

    if (verdict.bound == DecodeBound::compute) {
      if (bendsUsed == m_chainBends.size()) m_chainBends << new QCPItemStraightLine(m_batchPlot);
      QCPItemStraightLine* line = m_chainBends[bendsUsed++];
      line->setVisible(true);
      line->point1->setCoords(verdict.bend_users, 1e-6);
      line->point2->setCoords(verdict.bend_users, 1e9);
      line->setPen(QPen(t.bad, 1, Qt::DashLine));
    }
  }
  while (m_batchPlot->graphCount() > graphsUsed) m_batchPlot->removeGraph(m_batchPlot->graphCount() - 1);
  for (int i = spreadsUsed; i < m_chainSpreads.size(); ++i)
    if (m_chainSpreads[i]) m_chainSpreads[i]->setVisible(false), m_chainSpreads[i]->setDataPlottable(nullptr);
  for (int i = bendsUsed; i < m_chainBends.size(); ++i) m_chainBends[i]->setVisible(false);
  if (m_chainHint) m_chainHint->setVisible(runs.empty());
  if (runs.empty() && !m_chainHint) {
    auto* msg = m_chainHint = new QCPItemText(m_batchPlot);
    msg->position->setType(QCPItemPosition::ptAxisRectRatio);
    msg->position->setCoords(0.5, 0.5);
    msg->setText(tr("Press Run (Space): measures the bandwidth,\nthen a chain of 7B-shaped layers at 1, 2, 4 … users\nand with the prompt's tokens as one batch"));
    msg->setTextAlignment(Qt::AlignCenter);
  }
  if (m_chainHint) {
    m_chainHint->setFont(QFont(QStringLiteral("DejaVu Sans"), legendFontPt(t)));
    m_chainHint->setColor(t.mutedText);
  }
  m_batchPlot->legend->setVisible(!runs.empty());
  if (runs.empty()) yMin = 0.3, yMax = 100;
  m_batchPlot->xAxis->setRange(0.8, std::max(2.0, xMax * 1.3));
  m_batchPlot->yAxis->setRange(std::max(1e-3, yMin / 3), yMax * 6);
  stylePlot(m_batchPlot, t);
  m_batchPlot->replot();
  // The corner where the key hides no measured point; with two recordings' six keys there is none: then above.
  if (legendIsAbove(m_batchPlot) || moveLegendOffData(m_batchPlot) >= 10) {
    placeLegendAboveFitting(m_batchPlot);
    m_batchPlot->replot();
    fitPlotSizes(t);  // the key's rows count against the chart's least readable height
  }
  const QString warning = busyWarningHtml(m_busy, t);
  m_chainLabel->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                        (chainLines.isEmpty() ? tr("Measured chain: not run yet") : chainLines.join(QStringLiteral("<br>"))));
  m_batchLabel->setText(batchLines.isEmpty() ? tr("Batching: not run yet") : batchLines.join(QStringLiteral("<br>")));
  m_chainLabel->setToolTip(chainFull.join(QStringLiteral("<br>")));
  m_batchLabel->setToolTip(batchFull.join(QStringLiteral("<br>")));
  // One badge for what was measured here, one per recording drawn (its chain or its ceiling).
  std::set<int> drawnSources;
  for (const decode_page_model::ChainRun& run : runs) drawnSources.insert(run.source);
  for (const decode_page_model::CeilingBandwidth& c : ceilings) drawnSources.insert(c.source);
  const bool measuredHere = drawnSources.count(-1) > 0;
  m_recordedBadges.show(drawnSources, tr("Recorded bars and lines"));
  m_measuredBadge->setVisible(measuredHere || m_recordedBadges.shown() == 0);
  m_measuredBadge->set(measuredHere ? SourceBadge::Kind::MeasuredHere : SourceBadge::Kind::Unavailable,
                       measuredHere ? tr("chain and bandwidth (solid)") : tr("nothing measured yet"));
  fitBadges();
}

// Each chart's least readable height at the theme's fonts: the ceiling's key rows above it and its two-line format
// ticks, the chain's tick and title lines, each with a data area a class can read. Below these they take turns.
void DecodePage::fitPlotSizes(const Theme& t) {
  const QFontMetrics tick(QFont(QStringLiteral("DejaVu Sans"), t.plotFontPt));
  QFont bold(QStringLiteral("DejaVu Sans"), t.plotFontPt);
  bold.setBold(true);
  const QFontMetrics title(bold);
  const QFontMetrics key(QFont(QStringLiteral("DejaVu Sans"), legendFontPt(t)));
  const int yTitle = title.horizontalAdvance(m_batchPlot->yAxis->label()) + 12;
  // Datasheet, what-if, measured and the published GPUs: two to a row in a window, one in projector mode, until the
  // key has been laid out at the chart's width.
  const int keyRows = m_ceilingKeyRows > 0 ? m_ceilingKeyRows : (t.isProjector() ? 4 : 2);
  // The chain's key, once it sits above the chart (several sources), takes its rows from the chart's height.
  const int chainKeyRows = legendIsAbove(m_batchPlot) ? m_batchPlot->legend->rowCount() : 0;
  m_visual->setViewMinimums(std::max(keyRows * key.height() + 2 * tick.height() + 24 + 110, yTitle),
                            std::max(chainKeyRows * (key.height() + 4) + tick.height() + title.height() + 24 + 150, yTitle));
}

// A key's name as the fit would show it: a published source's short name ("published: RTX 4090, llama.cpp") or
// its whole citation; any other key as it is.
QString DecodePage::ceilingKeyName(const QCPAbstractPlottable* p, bool shortNames) {
  const QVariant name = p->property(shortNames ? "gpulabShortKey" : "gpulabFullKey");
  return name.isValid() ? name.toString() : p->name();
}

// The key's width at `pt` points in `columns` columns (keyColumnsWidth), a key its text and about 60 px of icon
// and padding.
int DecodePage::ceilingKeyWidth(int pt, int columns, bool shortNames) const {
  const QFontMetrics key(QFont(QStringLiteral("DejaVu Sans"), pt));
  QVector<int> widths;
  QCPLegend* legend = m_ceilingPlot->legend;
  for (int i = 0; i < legend->itemCount(); ++i) {
    auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));  // only bars' keys here; any other holds a cell
    widths << (item ? key.horizontalAdvance(ceilingKeyName(item->plottable(), shortNames)) + 60 : 0);
  }
  return keyColumnsWidth(widths, columns);
}

// The key's font, columns and names. Two keys to a row with the sources' whole citations at the largest size, from
// the theme's down to the least a class reads, where they fit (a slide at 1280x720); else two to a row naming only
// each source's project (the device and "published" stay): at 1024 px on a projector the four keys took four rows
// and left the bars 95 px. Else one key a row with the citations, shrunk only as far as the widest needs. The
// whole citation is in the Numbers tab either way.
DecodePage::CeilingKeyFit DecodePage::ceilingKeyFit() const {
  const int full = legendFontPt(m_ctx.theme());
  const int least = m_ctx.theme().isProjector() ? 12 : 8;
  const int width = m_ceilingPlot->width();
  if (width <= 0) return {full, 1, false};
  for (bool shortNames : {false, true})
    for (int pt = full; pt >= least; --pt)
      if (ceilingKeyWidth(pt, 2, shortNames) <= width) return {pt, 2, shortNames};
  int pt = full;
  while (pt > least && ceilingKeyWidth(pt, 1, false) > width) --pt;
  return {pt, 1, false};
}

bool DecodePage::ceilingKeyStale(const CeilingKeyFit& fit) const {
  if (!legendIsAbove(m_ceilingPlot) || m_ceilingPlot->legend->wrap() != fit.columns ||
      m_ceilingPlot->legend->font().pointSize() != fit.pt)
    return true;
  for (int i = 0; i < m_ceilingPlot->plottableCount(); ++i)  // bars made anew carry their whole citation
    if (const QCPAbstractPlottable* p = m_ceilingPlot->plottable(i); p->name() != ceilingKeyName(p, fit.shortNames))
      return true;
  return false;
}

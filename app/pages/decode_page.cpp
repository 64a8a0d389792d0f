#include "pages/decode_page.h"

#include "app_context.h"
#include "export/plot_csv.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "models/decode_choices.h"
#include "models/decode_verdict.h"
#include "pages/page_registry.h"
#include "pages/running_example.h"
#include "runner/dram_bandwidth.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/published_views.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace gpulab;
using namespace gpulab::models;

namespace {
constexpr int k_full_layers = 32;  // the 7B model's depth: measured chains are extrapolated to it

bool isChain(const Result& r) { return r.experiment == "layer_chain" && r.ok() && r.stats.median_s > 0; }
// Seconds per token for the whole 32-layer model from a chain of `layers` layers.
double fullStep(const Result& r) { return r.stats.median_s * k_full_layers / std::max(1.0, r.param("layers", 1)); }
}  // namespace

DecodePage::DecodePage(AppContext& ctx) : Page(ctx) {
  auto* visual = new QWidget;
  auto* col = new QVBoxLayout(visual);
  col->setContentsMargins(0, 0, 0, 0);
  m_ceilingPlot = new QCustomPlot(visual);
  m_ceilingPlot->setToolTip(tr("The most tokens per second one user can get: bandwidth ÷ bytes of weights per token, "
                               "for three weight formats and three bandwidths (datasheet card, measured, what-if)"));
  m_ceilingPlot->yAxis->setLabel(tr("tokens/s per user"));
  m_ceilingPlot->legend->setVisible(true);
  m_ceilingPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  useLogAxis(m_ceilingPlot, false);
  col->addWidget(m_ceilingPlot, 1);
  m_batchPlot = new QCustomPlot(visual);
  m_batchPlot->setToolTip(tr("Measured chain of transformer-shaped products, extrapolated to 32 layers: total and "
                             "per-user tokens/s as users are batched together; dotted: the bandwidth ceiling"));
  useLogAxis(m_batchPlot, true);
  useLogAxis(m_batchPlot, false);
  m_batchPlot->xAxis->setLabel(tr("users batched together"));
  m_batchPlot->yAxis->setLabel(tr("tokens/s, 7B shape"));
  m_batchPlot->legend->setVisible(true);
  m_batchPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  col->addWidget(m_batchPlot, 1);
  setVisual(visual);

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("bandwidth and chain (solid)"));
  addBadge(m_measuredBadge);
  m_sheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("card bandwidth; ceilings are a model"));
  addBadge(m_sheetBadge);

  m_ceilingLabel = addResultLabel();
  m_chainLabel = addResultLabel();
  m_batchLabel = addResultLabel();
  m_replot = makeRedrawTimer([this] { replot(); });
  buildControls();
  runBar()->setRunText(tr("Measure decode"));
  runBar()->runButton()->setToolTip(tr("Measure the memory bandwidth (triad), then time the layer chain at batch 1 "
                                       "and with 2…N users batched"));
  replot();
}

void DecodePage::buildControls() {
  auto* box = new QGroupBox(tr("Ceiling"));
  auto* form = new QFormLayout(box);
  m_params = new QDoubleSpinBox;
  m_params->setRange(0.1, 2000);
  m_params->setValue(7);
  m_params->setSuffix(tr(" B params"));
  m_params->setToolTip(tr("Model size in billions of parameters: every one is read once per token"));
  form->addRow(tr("Model"), m_params);
  m_whatIf = new QDoubleSpinBox;
  m_whatIf->setRange(1, 20000);
  m_whatIf->setDecimals(0);
  m_whatIf->setSingleStep(50);
  m_whatIf->setValue(3350);
  m_whatIf->setSuffix(tr(" GB/s"));
  m_whatIf->setToolTip(tr("A bandwidth of your choice for the what-if bars (3,350 GB/s is the lesson's H100 SXM; "
                          "try 50 GB/s, a desktop CPU's memory)"));
  form->addRow(tr("What-if"), m_whatIf);
  m_card = new QComboBox;
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(10);
  for (const GpuSpec& g : catalogue())
    if (g.bandwidth_gbs > 0) m_card->addItem(tr("%1 (%2 GB/s)").arg(QString::fromStdString(g.name)).arg(g.bandwidth_gbs), QString::fromStdString(g.name));
  const GpuSpec* detected = m_ctx.gpuInfo() ? find_gpu(m_ctx.gpuInfo()->name) : nullptr;
  m_card->setCurrentIndex(std::max(0, m_card->findData(detected ? QString::fromStdString(detected->name) : QStringLiteral("H100 SXM"))));
  m_card->setToolTip(tr("The datasheet card whose memory bandwidth gives the dashed-outline bars"));
  form->addRow(tr("Card"), m_card);
  controls()->addWidget(box);

  auto* cbox = new QGroupBox(tr("Measured chain"));
  auto* cform = new QFormLayout(cbox);
  m_shape = new QComboBox;
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_shape->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_shape->setMinimumContentsLength(10);
  m_shape->addItem(tr("7B layer (4096 / 11008)"), QStringLiteral("7b"));
  m_shape->addItem(tr("7B with GQA (8 KV heads)"), QStringLiteral("7b-gqa"));
  m_shape->addItem(tr("small (1024 / 2816), quick"), QStringLiteral("small"));
  m_shape->addItem(tr("tiny (256 / 688), a check only"), QStringLiteral("tiny"));
  m_shape->setToolTip(tr("Shape of one layer: QKV, O, gate, up and down projections. Results are scaled by layer "
                         "count to the full 32 layers; the small shapes fit in caches and so overstate speed"));
  cform->addRow(tr("Layer"), m_shape);
  m_budget = new QDoubleSpinBox;
  m_budget->setRange(0.05, 64);
  m_budget->setDecimals(2);
  m_budget->setSuffix(tr(" GB"));
  const double freeRam = m_ctx.cpu().memory_info().free_bytes;
  m_budget->setValue(std::clamp(freeRam / 4 / 1e9, 0.1, 2.0));
  m_budget->setToolTip(tr("Memory for the chain's weights: as many layers as fit are run (at most 32), and the "
                          "per-token time is extrapolated to 32 layers"));
  cform->addRow(tr("Weights up to"), m_budget);
  m_maxUsers = new QComboBox;
  for (int u : {1, 4, 16, 64}) m_maxUsers->addItem(QString::number(u), u);
  m_maxUsers->setCurrentIndex(3);
  m_maxUsers->setToolTip(tr("Batch sizes measured: 1, 2, 4, … up to this many users"));
  cform->addRow(tr("Users up to"), m_maxUsers);
  controls()->addWidget(cbox);

  connect(m_params, &QDoubleSpinBox::valueChanged, this, [this] { scheduleReplot(); });
  connect(m_whatIf, &QDoubleSpinBox::valueChanged, this, [this] { scheduleReplot(); });
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { scheduleReplot(); });
}

void DecodePage::setWhatIfBandwidthGBs(double gbs) { m_whatIf->setValue(gbs); replot(); }
void DecodePage::setParamsBillions(double b) { m_params->setValue(b); replot(); }
void DecodePage::setCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
  replot();
}
void DecodePage::setChainShape(const QString& id) { m_shape->setCurrentIndex(std::max(0, m_shape->findData(id))); }
void DecodePage::setMaxUsers(int users) { m_maxUsers->setCurrentIndex(std::max(0, m_maxUsers->findData(users))); }

double DecodePage::whatIfCeiling(const QString& format) const {
  for (const WeightFormat& f : ceiling_formats({}, 0))
    if (format.toStdString() == f.name)
      return decode_ceiling_tokens_per_s(m_whatIf->value() * 1e9, decode_bytes_per_token(m_params->value() * 1e9, f.bytes));
  return 0;
}

TransformerShape DecodePage::chainShape() const { return chain_shape(m_shape->currentData().toString().toStdString()); }

double DecodePage::measuredBandwidth(QString* source, int* sourceIndex) const {
  // Here first (the triad this page or the roofline page ran), then a recording: its GPU triad or d2d copy.
  const auto& all = m_ctx.results().all();
  for (int pass = 0; pass < 2; ++pass) {
    const StoredResult* found = dramBandwidthResult(all, [pass](const StoredResult& s) {
      const Result& r = s.result;
      if ((pass == 0) != (s.source < 0) || !r.ok() || r.gbps <= 0) return false;
      if (pass == 1 && r.backend != "cuda") return false;
      return (r.experiment == "bandwidth" && r.variant == "triad") || (r.experiment == "transfer" && r.variant == "d2d");
    });
    if (!found) continue;
    const StoredResult& s = *found;
    const Result& r = s.result;
    // A d2d copy moves each byte once but reads and writes it: count both, as the triad does.
    const double bw = r.gbps * 1e9 * (r.experiment == "transfer" ? 2 : 1);
    if (source)
      *source = s.source < 0 ? tr("measured here (%1)").arg(r.backend == "cpu" ? tr("CPU triad") : tr("GPU triad"))
                             : m_ctx.results().sourceLabel(s.source);
    if (sourceIndex) *sourceIndex = s.source;
    return bw;
  }
  return 0;
}

void DecodePage::run() {
  Backend* backend = &m_ctx.preferredBackend();
  Precision precision = backend->kind() == "cuda" ? Precision::fp16 : Precision::fp32;
  TransformerShape shape = chainShape();
  LayerChainSpec probe = layer_chain_for(shape, 1, 1, precision);
  if (!backend->supports(probe).ok && backend != &m_ctx.cpu()) {
    runBar()->showStatus(tr("The GPU backend has no layer chain yet (%1): running it on the CPU")
                             .arg(QString::fromStdString(backend->supports(probe).reason)));
    backend = &m_ctx.cpu();
    precision = Precision::fp32;
    probe.precision = precision;
  }
  const int layers = layer_chain_layers_that_fit(probe, m_budget->value() * 1e9, k_full_layers);
  const int maxUsers = m_maxUsers->currentData().toInt();
  const bool tiny = m_shape->currentData().toString() == QLatin1String("tiny");
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = tiny ? 0.05 : 0.8;
  m_busy.start();
  startJob(tr("Decode: bandwidth, then the chain"), [backend, shape, layers, maxUsers, precision, tiny](const RunContext& ctx) {
    std::vector<long long> batches;
    for (long long b = 1; b <= maxUsers; b *= 2) batches.push_back(b);
    const double parts = double(batches.size() + 1);
    RunContext sub = ctx;
    sub.progress_span = ctx.progress_span / parts;
    BandwidthSpec bw;
    bw.kind = "triad";
    bw.bytes_per_array = tiny ? (8u << 20) : (64u << 20);
    run_bandwidth(*backend, bw, sub);
    for (std::size_t i = 0; i < batches.size() && !ctx.cancelled(); ++i) {
      sub.progress_base = ctx.progress_base + ctx.progress_span * double(i + 1) / parts;
      run_layer_chain(*backend, layer_chain_for(shape, layers, batches[i], precision), sub);
    }
  }, policy);
}

void DecodePage::onResult(const gpulab::Result& r) {
  if (r.experiment == "layer_chain" || r.experiment == "bandwidth") scheduleReplot();
  if (r.ok()) m_busy.note(r.stats.rel_spread, r.stats.median_s);
  if (!r.error.empty()) runBar()->showError(QString::fromStdString(r.error));
}
void DecodePage::onRunFinished(bool) {
  m_busy.finish();
  replot();
}
void DecodePage::recordingsChanged() { scheduleReplot(); }
void DecodePage::scheduleReplot() { m_replot->start(); }

int DecodePage::chainPointCount() const {
  int n = 0;
  for (const StoredResult& s : m_ctx.results().all()) n += s.source < 0 && isChain(s.result);
  return n;
}

void DecodePage::replot() {
  const Theme& t = m_ctx.theme();
  const double params = m_params->value() * 1e9;
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  QString measSource;
  int measIndex = -1;
  const double measured = measuredBandwidth(&measSource, &measIndex);

  // ---- ceilings: three formats × (datasheet, measured, what-if) ----
  m_ceilingPlot->clearPlottables();
  m_ceilingPlot->clearItems();
  m_ceilingRows.clear();
  m_barLabels.clear();
  struct Src { QString name; double bw; QColor colour; Qt::BrushStyle brush; };
  QVector<Src> sources;
  if (card) sources.push_back({tr("datasheet %1: %2").arg(QString::fromStdString(card->name), fmtSi(card->bandwidth_bytes_s(), "B/s")),
                               card->bandwidth_bytes_s(), t.gpu, Qt::BDiagPattern});
  if (measured > 0) sources.push_back({tr("%1: %2").arg(measSource, fmtSi(measured, "B/s")), measured,
                                       measIndex < 0 ? t.cpu : t.gpu, Qt::SolidPattern});
  sources.push_back({tr("what-if: %1").arg(fmtSi(m_whatIf->value() * 1e9, "B/s")), m_whatIf->value() * 1e9, t.model, Qt::Dense4Pattern});
  // The chain's own format gets bars too, named, so its run and its ceiling are compared in one precision.
  const Result* chain = nullptr;
  for (const StoredResult& s : m_ctx.results().all()) chain = isChain(s.result) && !chain ? &s.result : chain;
  const std::vector<WeightFormat> formats = ceiling_formats(chain ? std::string(display_name(chain->precision)) : "",
                                                            chain ? bytes_per_element(chain->precision) : 0);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  const QVector<PublishedDecodeBar> published = publishedDecodeBars(m_ctx, m_params->value());  // real GPUs, 7B
  const double groupW = 0.8, barW = groupW / (sources.size() + publishedDecodeSlots(published));
  double maxTok = 1, minTok = 1e12;
  for (int si = 0; si < sources.size(); ++si) {
    auto* bars = new QCPBars(m_ceilingPlot->xAxis, m_ceilingPlot->yAxis);
    bars->setName(sources[si].name);
    bars->setWidth(barW * 0.92);
    bars->setBaseValue(0.1);
    QBrush brush(sources[si].colour, sources[si].brush);
    if (sources[si].brush == Qt::SolidPattern) brush = QBrush(sources[si].colour);
    bars->setBrush(brush);
    bars->setPen(QPen(sources[si].colour.darker(130), sources[si].brush == Qt::BDiagPattern ? 2 : 1,
                      sources[si].brush == Qt::BDiagPattern ? Qt::DashLine : Qt::SolidLine));
    for (int fi = 0; fi < int(formats.size()); ++fi) {
      const double tok = decode_ceiling_tokens_per_s(sources[si].bw, decode_bytes_per_token(params, formats[fi].bytes));
      const double x = fi + 1 - groupW / 2 + barW * (si + 0.5);
      bars->addData(x, tok);
      maxTok = std::max(maxTok, tok);
      minTok = std::min(minTok, tok);
      m_ceilingRows.push_back({QString::fromStdString(formats[fi].name), sources[si].name, sources[si].bw, tok});
      auto* label = new QCPItemText(m_ceilingPlot);
      label->position->setCoords(x, tok);
      label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      const QString txt = fmtFixed(tok, tok < 10 ? 1 : 0);
      label->setText(txt);
      m_barLabels << txt;
      QFont f(QStringLiteral("DejaVu Sans"), t.plotFontPt);
      f.setBold(true);
      label->setFont(f);
      label->setColor(t.text);
    }
  }
  addPublishedDecodeBars(m_ceilingPlot, t, published, int(sources.size()), barW, groupW, &maxTok, &minTok);
  for (const PublishedDecodeBar& b : published) m_ceilingRows.push_back({b.format, b.label, 0, 0, b.tokensPerS});
  for (int fi = 0; fi < int(formats.size()); ++fi)
    ticker->addTick(fi + 1, tr("%1\n%2 per token").arg(QString::fromStdString(formats[fi].name), fmtBytes(decode_bytes_per_token(params, formats[fi].bytes))));
  m_ceilingPlot->xAxis->setTicker(ticker);
  m_ceilingPlot->xAxis->setRange(0.4, formats.size() + 0.6);
  m_ceilingPlot->yAxis->setRange(std::max(0.1, minTok / 3), maxTok * 8);
  stylePlot(m_ceilingPlot, t);
  m_ceilingPlot->replot();

  const double fp16 = decode_ceiling_tokens_per_s(m_whatIf->value() * 1e9, decode_bytes_per_token(params, 2));
  m_ceilingLabel->setText(tr("At <b>%1</b>, %2 params: FP16 ≤ <b>%3</b>, INT8 ≤ <b>%4</b>, INT4 ≤ <b>%5</b> tokens/s. "
                             "At the FP16 ceiling the cores do %6 — the rest of the time they wait for weights.")
                              .arg(fmtSi(m_whatIf->value() * 1e9, "B/s"), QString::number(params / 1e9, 'g', 3) + QStringLiteral("B"),
                                   fmtFixed(fp16, fp16 < 10 ? 1 : 0), fmtFixed(whatIfCeiling(QStringLiteral("INT8")), 0),
                                   fmtFixed(whatIfCeiling(QStringLiteral("INT4")), 0),
                                   fmtSi(compute_at_ceiling(params, 2, m_whatIf->value() * 1e9), "FLOP/s")));

  // ---- the measured chain: tokens/s against users ----
  m_batchPlot->clearGraphs();
  m_batchPlot->clearItems();
  std::map<int, std::map<double, const Result*>> bySource;  // source -> batch -> newest result
  for (const StoredResult& s : m_ctx.results().all())
    if (isChain(s.result)) bySource[s.source][s.result.param("batch")] = &s.result;
  QStringList chainLines, batchLines;
  double yMax = 1, yMin = 1e12;
  for (auto& [src, points] : bySource) {
    const Result* first = points.begin()->second;
    const bool here = src < 0;
    const QColor c = first->backend == "cuda" ? t.gpu : t.cpu;
    const QString who = here ? tr("measured") : m_ctx.results().sourceLabel(src);
    QCPGraph* agg = m_batchPlot->addGraph();
    styleGraph(agg, t, c, here ? SeriesKind::Measured : SeriesKind::Recorded);
    // How much really ran, on the plot itself: a 2-layer chain scaled ×16 is not a 32-layer measurement.
    agg->setName(tr("total tokens/s, %1 (%2; %3)")
                     .arg(who, QString::fromStdString(std::string(display_name(first->precision))),
                          QString::fromStdString(chain_scale_note(int(first->param("layers")), k_full_layers))));
    QCPGraph* per = m_batchPlot->addGraph();
    styleGraph(per, t, c.darker(140), here ? SeriesKind::Measured : SeriesKind::Recorded);
    per->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, c.darker(140), here ? c.darker(140) : t.surface, t.markerSize + 1));
    per->setName(tr("per-user tokens/s, %1").arg(who));
    std::vector<ChainStep> steps;
    QVector<double> aggY, aggLo, aggHi, perY, perLo, perHi;
    for (auto& [batch, r] : points) {
      const double step = fullStep(*r), scale = step / r->stats.median_s;
      const double fast = r->stats.min_s > 0 ? r->stats.min_s * scale : step, slow = r->stats.max_s > 0 ? r->stats.max_s * scale : step;
      agg->addData(batch, batch / step);
      per->addData(batch, 1 / step);
      aggY << batch / step, aggLo << batch / slow, aggHi << batch / fast;
      perY << 1 / step, perLo << 1 / slow, perHi << 1 / fast;
      yMax = std::max(yMax, batch / step);
      yMin = std::min(yMin, 1 / step);
      steps.push_back({batch, step, fast, slow});
    }
    addSpreadBars(agg, aggY, aggLo, aggHi, c);
    addSpreadBars(per, perY, perLo, perHi, c.darker(140));
    for (QCPGraph* g : {agg, per}) tagSource(g, here ? tr("measured here") : who);
    // Ceiling for what actually ran: this backend's bandwidth ÷ the bytes of the precision it ran in.
    const double bpp = bytes_per_element(first->precision);
    const double fullParams = first->param("params_per_layer") * k_full_layers;
    const StoredResult* bwResult = dramBandwidthResult(m_ctx.results().all(), [src, first](const StoredResult& s) {
      return s.source == src && s.result.ok() && s.result.experiment == "bandwidth" && s.result.backend == first->backend;
    });
    const double bw = bwResult ? bwResult->result.gbps * 1e9 : 0;
    if (bw > 0) {
      const double ceil1 = decode_ceiling_tokens_per_s(bw, fullParams * bpp);
      QCPGraph* cg = m_batchPlot->addGraph();
      styleGraph(cg, t, t.model, SeriesKind::Model);
      cg->setName(tr("ceiling: %1 ÷ %2 per token × users").arg(fmtSi(bw, "B/s"), fmtBytes(fullParams * bpp)));
      tagSource(cg, tr("model"));
      for (auto& [batch, r] : points) cg->addData(batch, ceil1 * batch);
      const double b1 = 1 / fullStep(*points.begin()->second);
      chainLines << tr("%1 batch 1: <b>%2 tokens/s</b> = %3% of its ceiling %4 (%5, %6 of %7 layers run, %8 of "
                       "weights; time × %7/%6)")
                        .arg(who, fmtFixed(b1, b1 < 10 ? 2 : 0), fmtFixed(100 * b1 / ceil1, 0), fmtFixed(ceil1, ceil1 < 10 ? 2 : 0),
                             QString::fromStdString(std::string(display_name(first->precision))))
                        .arg(int(first->param("layers")))
                        .arg(k_full_layers)
                        .arg(fmtBytes(first->param("weight_bytes")));
    }
    // The verdict is read off the per-user curve drawn here (models/decode_verdict), so the two cannot disagree.
    const DecodeVerdict verdict = decode_verdict(steps);
    const auto& last = *points.rbegin();
    batchLines << tr("%1 at %2 users: total <b>%3</b>, each user %4 tokens/s. <b>%5</b>")
                      .arg(who)
                      .arg(int(last.first))
                      .arg(fmtFixed(last.first / fullStep(*last.second), 1), fmtFixed(1 / fullStep(*last.second), 2),
                           QString::fromStdString(verdict.text).toHtmlEscaped());
    if (verdict.bound == DecodeBound::compute) {
      auto* line = new QCPItemStraightLine(m_batchPlot);
      line->point1->setCoords(verdict.bend_users, 1e-6);
      line->point2->setCoords(verdict.bend_users, 1e9);
      line->setPen(QPen(t.bad, 1, Qt::DashLine));
    }
  }
  if (bySource.empty()) {
    auto* msg = new QCPItemText(m_batchPlot);
    msg->position->setType(QCPItemPosition::ptAxisRectRatio);
    msg->position->setCoords(0.5, 0.5);
    msg->setText(tr("Press Run (Space): measures the bandwidth,\nthen a chain of 7B-shaped layers at 1, 2, 4 … users"));
    msg->setTextAlignment(Qt::AlignCenter);
    msg->setFont(QFont(QStringLiteral("DejaVu Sans"), legendFontPt(t)));
    msg->setColor(t.mutedText);
  }
  m_batchPlot->legend->setVisible(!bySource.empty());
  if (bySource.empty()) yMin = 0.3, yMax = 100;
  m_batchPlot->xAxis->setRange(0.8, std::max(2.0, m_maxUsers->currentData().toDouble() * 1.3));
  m_batchPlot->yAxis->setRange(std::max(1e-3, yMin / 3), yMax * 6);
  stylePlot(m_batchPlot, t);
  m_batchPlot->replot();
  const QString warning = busyWarningHtml(m_busy, t);
  m_chainLabel->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                        (chainLines.isEmpty() ? tr("Measured chain: not run yet") : chainLines.join(QStringLiteral("<br>"))));
  m_batchLabel->setText(batchLines.isEmpty() ? tr("Batching: not run yet") : batchLines.join(QStringLiteral("<br>")));
  m_measuredBadge->set(bySource.empty() ? SourceBadge::Kind::Unavailable
                       : bySource.begin()->first < 0 ? SourceBadge::Kind::MeasuredHere : SourceBadge::Kind::Recorded,
                       bySource.empty() ? tr("nothing measured yet")
                       : bySource.begin()->first < 0 ? tr("chain and bandwidth (solid)")
                                                     : m_ctx.results().sourceLabel(bySource.begin()->first));
}

double DecodePage::batchingGain(int users) const {
  // The chain measured here first, else a recording's: total tokens/s at `users` over total at batch 1, from the
  // same source (ratios only within one source).
  std::map<int, std::map<double, const Result*>> bySource;
  for (const StoredResult& s : m_ctx.results().all())
    if (isChain(s.result) && s.result.ok()) bySource[s.source][s.result.param("batch")] = &s.result;
  for (const auto& [src, points] : bySource) {  // source -1 (here) sorts first
    const auto one = points.find(1.0), many = points.find(double(users));
    if (one == points.end() || many == points.end()) continue;
    const double t1 = fullStep(*one->second), tn = fullStep(*many->second);
    if (t1 > 0 && tn > 0) return (double(users) / tn) / (1.0 / t1);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

QString DecodePage::ceilingText() const { return m_ceilingLabel->text(); }
QString DecodePage::chainText() const { return m_chainLabel->text() + QLatin1Char('\n') + m_batchLabel->text(); }
QStringList DecodePage::ceilingBarLabels() const { return m_barLabels; }

void DecodePage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  const QString css = QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt + 1);
  for (QLabel* l : {m_ceilingLabel, m_chainLabel, m_batchLabel}) l->setStyleSheet(css);
  replot();
}

QString DecodePage::csvCeilings() const {
  // A ceiling is computed from a bandwidth; a published figure was measured by someone on a real GPU: their
  // own columns, each empty where it does not apply.
  QString out = QStringLiteral("format,source,bandwidth_bytes_per_s,ceiling_tokens_per_s,published_measured_tokens_per_s\n");
  auto num = [](double v) { return v > 0 ? QString::number(v, 'g', 6) : QString(); };
  for (const Row& r : m_ceilingRows)
    out += QStringLiteral("%1,\"%2\",%3,%4,%5\n").arg(r.group, r.series, num(r.bandwidth), num(r.tokens), num(r.publishedTokens));
  return out;
}

QList<PlotExport> DecodePage::plots() {
  return {{QStringLiteral("decode-ceiling"), tr("Decode ceiling: bandwidth ÷ bytes per token"), m_ceilingPlot, nullptr,
           [this] { return csvCeilings(); }},
          {QStringLiteral("decode-batching"), tr("Measured decode chain: tokens/s against users"), m_batchPlot, nullptr,
           [this] { return plotSeriesCsv(m_batchPlot, QStringLiteral("users"), QStringLiteral("tokens_per_s")); }}};
}

LessonContent DecodePage::lesson() const {
  LessonContent c;
  c.runningExample = running_example::line(pageId());
  c.intro = tr("Generating text is one token at a time, and each token needs every weight of the model. With one "
               "user, each weight fetched from memory is used for just one multiply and one add, so the arithmetic "
               "units spend almost all their time waiting. The speed limit is therefore memory bandwidth divided "
               "by the bytes of weights: smaller formats raise the limit, more compute does not.");
  c.questions.push_back({tr("A decoder limited by memory now serves 8 conversations in one batch. Is every one of "
                            "them slowed down eightfold?"),
                         tr("No. What a decode step pays for is reading the weights out of memory, and one read "
                            "serves the whole batch. One pass now yields 8 tokens instead of 1: the total climbs to "
                            "nearly 8×, and each conversation keeps close to its old pace, since the extra sums run "
                            "on cores that were waiting anyway. That lasts until the batch grows big enough for the "
                            "arithmetic to set the pace.")});
  c.questions.push_back({tr("A vendor quotes 400 tokens/s for one user of a 7B FP16 model on a 3.35 TB/s card. "
                            "Plausible?"),
                         tr("No: 3,350 GB/s ÷ 14 GB per token ≈ 239 tokens/s is the ceiling. Above it, something "
                            "else differs: a smaller model, a smaller number format, or several users counted.")});
  c.exercises.push_back({tr("Set the bandwidth to 50 GB/s (desktop CPU memory). Predict the FP16 ceiling for the 7B "
                            "model."),
                         tr("tokens/s"), [] { return decode_ceiling_tokens_per_s(50e9, decode_bytes_per_token(7e9, 2)); },
                         tr("50 ÷ 14 ≈ 3.6 tokens/s: a faster CPU core would not help; only more bandwidth or fewer "
                            "bytes would."),
                         0.05});
  c.exercises.push_back({tr("At 3,350 GB/s, what is the INT4 ceiling for the 7B model?"), tr("tokens/s"),
                         [] { return decode_ceiling_tokens_per_s(3350e9, decode_bytes_per_token(7e9, 0.5)); },
                         tr("3.5 GB per token: 3,350 ÷ 3.5 ≈ 957 tokens/s, four times FP16's 239."), 0.05});
  const DecodePage* self = this;
  LessonExercise batching{
      tr("Run the chain (Space). Predict: with 8 users, roughly how many times the batch-1 total tokens/s?"),
      tr("×"), [self] { return self->batchingGain(8); },
      tr("Read from the run: total tokens/s at 8 users ÷ total at 1 user. Near 8× while the step is memory-bound "
         "(one read of the weights serves all 8); less where the arithmetic, or a CPU's caches, set the pace — the "
         "point where the measured curve bends."),
      0.25};
  batching.measured = true;  // a new run changes the answer: "Measure again" reads the latest one
  batching.unavailable = tr("Nothing to compare with yet: run the chain first (Space, with \"Users up to\" at 16 or "
                            "more), then Check. The answer is read from that run.");
  c.exercises.push_back(batching);
  return c;
}

GPULAB_REGISTER_PAGE(80, DecodePage);

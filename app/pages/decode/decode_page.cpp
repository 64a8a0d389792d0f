#include "pages/decode/decode_page.h"

#include "app_context.h"
#include "widgets/choice_box.h"
#include "widgets/frame_coalescer.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "pages/decode/model/decode_choices.h"
#include "pages/decode/model/decode_verdict.h"
#include "pages/page_registry.h"
#include "pages/running_example.h"
#include "runner/dram_bandwidth.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/published_views.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/stacked_or_tabbed.h"
#include "widgets/spread_marks.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

using namespace gpulab;
using namespace gpulab::models;


DecodePage::DecodePage(AppContext& ctx) : Page(ctx) {
  m_ceilingPlot = new QCustomPlot;
  m_ceilingTip = tr("The most tokens per second one user can get: bandwidth ÷ bytes of weights per token, for three "
                    "weight formats and three bandwidths (datasheet card, measured, what-if)");
  m_ceilingPlot->setToolTip(m_ceilingTip);
  // Short enough to fit beside a short chart at 1366×768 in projector mode; "per user" is in the tooltip and title.
  m_ceilingPlot->yAxis->setLabel(tr("tokens/s"));
  // The key in rows of its own above the bars: inside the data area it covered the INT8 bars' labels (four
  // long entries once the published GPUs are shown).
  m_ceilingPlot->legend->setVisible(true);
  placeLegendAbove(m_ceilingPlot, 1);
  useLogAxis(m_ceilingPlot, false);
  // The key's columns follow the chart's width (known only once it is laid out, and again after each resize).
  connect(m_ceilingPlot, &QCustomPlot::afterLayout, this, [this] {
    if (m_frame && ceilingKeyStale(ceilingKeyFit())) requestCeiling();
  });
  m_batchPlot = new QCustomPlot;
  m_batchPlot->setToolTip(tr("Measured chain of transformer-shaped products, extrapolated to 32 layers: total and "
                             "per-user tokens/s as users are batched together; dotted: the bandwidth ceiling"));
  useLogAxis(m_batchPlot, true);
  useLogAxis(m_batchPlot, false);
  m_batchPlot->xAxis->setLabel(tr("users batched together"));
  m_batchPlot->yAxis->setLabel(tr("tokens/s"));  // the series' names say total or per user, and the scale note
  m_batchPlot->legend->setVisible(true);
  m_batchPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  // Both charts one above the other when the page is tall enough for both at readable sizes, else taking turns.
  m_visual = new StackedOrTabbed(m_ceilingPlot, m_batchPlot, tr("Ceiling"), tr("Measured chain"), 1, 1);
  m_visual->setObjectName(QStringLiteral("decodeViews"));
  setVisual(m_visual);

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("bandwidth and chain (solid)"));
  addBadge(m_measuredBadge);
  for (SourceBadge* b : m_recordedBadges.badges()) addBadge(b);
  m_sheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("card bandwidth; ceilings are a model"));
  addBadge(m_sheetBadge);

  m_ceilingLabel = addResultLabel(2);  // the two model sentences get the strip's width, the run's two the rest
  m_chainLabel = addResultLabel();
  m_batchLabel = addResultLabel();
  m_prefillLabel = addResultLabel(2);
  m_replot = makeRedrawTimer([this] { replot(); });
  m_frame = new FrameCoalescer([this] { applyFrame(); }, this);
  buildControls();
  runBar()->setRunText(tr("Measure decode"));
  runBar()->runButton()->setToolTip(tr("Measure the memory bandwidth (triad), then time the layer chain at batch 1, "
                                       "with 2…N users batched, and with the prompt's tokens as one batch (its "
                                       "prefill; on a CPU capped to a few seconds' work)"));
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
  setControlId(m_params, QStringLiteral("decode.params"));
  m_moe = new QComboBox;
  setControlId(m_moe, QStringLiteral("decode.kind"));
  m_moe->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_moe->setMinimumContentsLength(10);
  addChoice(m_moe, tr("dense"), tr("Every weight is read for every token (the size above)"), QString());
  for (const MoeModel& m : moe_presets())
    addChoice(m_moe, QString::fromStdString(std::string(m.shape.label)),
              tr("Mixture of experts: %1B parameters held, %2B read per token (%3 of %4 experts; model card)")
                  .arg(m.shape.params / 1e9, 0, 'f', 1)
                  .arg(m.active_params / 1e9, 0, 'f', 1)
                  .arg(m.active_experts)
                  .arg(m.experts),
              QString::fromStdString(std::string(m.shape.id)));
  m_moe->setToolTip(tr("A mixture of experts holds every expert in memory, but each token reads only the few its "
                       "router picks: the ceiling follows the active parameters, the memory the total"));
  form->addRow(tr("Kind"), m_moe);
  m_prompt = new QSpinBox;
  setControlId(m_prompt, QStringLiteral("decode.prompt"));
  m_prompt->setRange(1, 131072);
  m_prompt->setSingleStep(100);
  m_prompt->setValue(1000);
  m_prompt->setSuffix(tr(" tokens"));
  m_prompt->setToolTip(tr("The prompt goes through the model as one batch of this many tokens (prefill, bound by "
                          "the card's compute); the answer then comes one token a pass (decode, bound by memory). "
                          "Run measures the chain at this batch too"));
  form->addRow(tr("Prompt"), m_prompt);
  m_context = new QSpinBox;
  setControlId(m_context, QStringLiteral("decode.context"));
  m_context->setRange(0, 131072);
  m_context->setSingleStep(512);
  m_context->setValue(int(gpulab::models::default_context_tokens));
  m_context->setSuffix(tr(" tokens"));
  m_context->setGroupSeparatorShown(true);
  m_context->setToolTip(tr("Tokens each conversation has so far (the VRAM page's default): its KV cache is read for "
                           "every new token beside the weights, and all users' caches must fit in VRAM. 0 leaves "
                           "the cache out, as the lesson's simple ceiling does"));
  form->addRow(tr("Context"), m_context);
  m_whatIf = new QDoubleSpinBox;
  m_whatIf->setRange(1, 20000);
  m_whatIf->setDecimals(0);
  m_whatIf->setSingleStep(50);
  m_whatIf->setValue(3350);
  m_whatIf->setSuffix(tr(" GB/s"));
  m_whatIf->setToolTip(tr("A bandwidth of your choice for the what-if bars (3,350 GB/s is the lesson's H100 SXM; "
                          "try 50 GB/s, a desktop CPU's memory)"));
  form->addRow(tr("What-if"), m_whatIf);
  setControlId(m_whatIf, QStringLiteral("decode.what_if"));
  m_card = new QComboBox;
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(10);
  for (const GpuSpec& g : catalogue())
    if (g.bandwidth_gbs > 0)
      addChoice(m_card, QString::fromStdString(g.name), tr("%1 GB/s memory bandwidth (datasheet)").arg(g.bandwidth_gbs),
                QString::fromStdString(g.name));
  const GpuSpec* detected = m_ctx.gpuInfo() ? find_gpu(m_ctx.gpuInfo()->name) : nullptr;
  m_card->setCurrentIndex(std::max(0, m_card->findData(detected ? QString::fromStdString(detected->name) : QStringLiteral("H100 SXM"))));
  m_card->setToolTip(tr("The datasheet card whose memory bandwidth gives the dashed-outline bars"));
  form->addRow(tr("Card"), m_card);
  setControlId(m_card, QStringLiteral("decode.card"));
  controls()->addWidget(box);

  auto* cbox = new QGroupBox(tr("Measured chain"));
  auto* cform = new QFormLayout(cbox);
  m_shape = new QComboBox;
  setControlId(m_shape, QStringLiteral("decode.layer"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_shape->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_shape->setMinimumContentsLength(10);
  addChoice(m_shape, tr("7B layer"), tr("A 7B model's layer: width 4096, feed-forward 11008"), QStringLiteral("7b"));
  addChoice(m_shape, tr("7B, GQA"), tr("The 7B layer with grouped-query attention (8 KV heads)"), QStringLiteral("7b-gqa"));
  addChoice(m_shape, tr("small, quick"), tr("Width 1024, feed-forward 2816: quick, but it fits in caches"), QStringLiteral("small"));
  addChoice(m_shape, tr("tiny, a check"), tr("Width 256, feed-forward 688: a check that the chain runs, not a speed"), QStringLiteral("tiny"));
  m_shape->setToolTip(tr("Shape of one layer: QKV, O, gate, up and down projections. Results are scaled by layer "
                         "count to the full 32 layers; the small shapes fit in caches and so overstate speed"));
  cform->addRow(tr("Layer"), m_shape);
  m_budget = new QDoubleSpinBox;
  setControlId(m_budget, QStringLiteral("decode.weights_up_to"));
  m_budget->setRange(0.05, 64);
  m_budget->setDecimals(2);
  m_budget->setSuffix(tr(" GB"));
  m_budget->setValue(gpulab::decode_default_budget(m_ctx.cpu()) / 1e9);
  m_defaultBudgetGB = m_budget->value();
  m_budget->setToolTip(tr("Memory for the chain's weights: as many layers as fit are run (at most 32), and the "
                          "per-token time is extrapolated to 32 layers"));
  cform->addRow(tr("Weights up to"), m_budget);
  m_maxUsers = new QComboBox;
  setControlId(m_maxUsers, QStringLiteral("decode.users_up_to"));
  for (int u : {1, 4, 16, 64}) m_maxUsers->addItem(QString::number(u), u);
  m_maxUsers->setCurrentIndex(3);
  m_maxUsers->setToolTip(tr("Batch sizes measured: 1, 2, 4, … up to this many users"));
  cform->addRow(tr("Users up to"), m_maxUsers);
  controls()->addWidget(cbox);

  connect(m_moe, &QComboBox::currentIndexChanged, this, [this] {
    // A preset fixes the size: its total in the box, which then only shows it.
    if (const MoeModel* m = find_moe_preset(m_moe->currentData().toString().toStdString())) {
      const QSignalBlocker quiet(m_params);
      m_params->setValue(m->shape.params / 1e9);
    }
    m_params->setEnabled(m_moe->currentData().toString().isEmpty());
    requestCeiling();
  });
  // A value changes only the ceiling's chart and the sentences under it; the measured chain stays as it was.
  connect(m_params, &QDoubleSpinBox::valueChanged, this, [this] { requestCeiling(); });
  connect(m_whatIf, &QDoubleSpinBox::valueChanged, this, [this] { requestCeiling(); });
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { requestCeiling(); });
  connect(m_prompt, &QSpinBox::valueChanged, this, [this] { requestCeiling(); });
  // The context moves the serving sentence and the chain's ceiling line (drawn with the chain).
  connect(m_context, &QSpinBox::valueChanged, this, [this] {
    m_chainDirty = true;  // its ceiling line; both once a frame, however fast the value moves
    requestCeiling();
  });
}

void DecodePage::setContextTokens(int tokens) { m_context->setValue(tokens); replot(); }
int DecodePage::contextTokens() const { return m_context->value(); }

void DecodePage::setWhatIfBandwidthGBs(double gbs) { m_whatIf->setValue(gbs); replot(); }
void DecodePage::setParamsBillions(double b) { m_params->setValue(b); replot(); }
void DecodePage::setCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
  replot();
}
void DecodePage::setPromptTokens(int tokens) { m_prompt->setValue(tokens); replot(); }
void DecodePage::setMoeModel(const QString& id) {
  m_moe->setCurrentIndex(std::max(0, m_moe->findData(id)));
  replot();
}
double DecodePage::activeParams() const {
  const MoeModel* m = find_moe_preset(m_moe->currentData().toString().toStdString());
  return m ? m->active_params : m_params->value() * 1e9;
}
QString DecodePage::prefillText() const { return m_prefillLabel->text(); }
QString DecodePage::prefillFullText() const { return m_prefillLabel->toolTip(); }
void DecodePage::setChainShape(const QString& id) { m_shape->setCurrentIndex(std::max(0, m_shape->findData(id))); }
void DecodePage::setMaxUsers(int users) { m_maxUsers->setCurrentIndex(std::max(0, m_maxUsers->findData(users))); }

double DecodePage::whatIfCeiling(const QString& format) const {
  for (const WeightFormat& f : ceiling_formats({}, 0))
    if (format.toStdString() == f.name)
      return decode_ceiling_tokens_per_s(m_whatIf->value() * 1e9, decode_bytes_per_token(activeParams(), f.bytes));
  return 0;
}

TransformerShape DecodePage::chainShape() const { return chain_shape(m_shape->currentData().toString().toStdString()); }

gpulab::DecodeControls DecodePage::runControls() const {
  gpulab::DecodeControls c;
  c.shape = chainShape();
  // The box shows the default budget rounded to 0.01 GB: unchanged, the plan builder's own default is used, so a
  // fresh page's plan is exactly bench --suite decode.
  c.budget_bytes = m_budget->value() == m_defaultBudgetGB ? 0 : m_budget->value() * 1e9;
  c.max_users = m_maxUsers->currentData().toInt();
  c.use_gpu = true;
  c.triad_bytes = m_shape->currentData().toString() == QLatin1String("tiny") ? (8u << 20) : (64u << 20);
  c.prompt_tokens = m_prompt->value();  // the prefill step: the chain with the prompt's tokens as one batch
  return c;
}

gpulab::Plan DecodePage::plan() { return gpulab::decode_plan(planBackends(), runControls()); }

void DecodePage::run() {
  const bool tiny = m_shape->currentData().toString() == QLatin1String("tiny");
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = tiny ? 0.05 : 0.8;
  m_busy.start();
  if (m_visual->tabbed()) m_visual->showBottom(true);  // the run is drawn on the chain's chart: show it
  startPlan(tr("Decode: bandwidth, then the chain"), plan(), policy);
}

void DecodePage::onResult(const gpulab::Result& r) {
  // Only this page's plan runs here: every result is the triad, a chain step, or a note saying why one did not run.
  // Drawn in the next frame with whatever else arrived by then.
  m_chainDirty = m_ceilingDirty = true;
  m_frame->request();
  if (r.ok()) m_busy.note(r.stats.rel_spread, r.stats.median_s);
  if (!r.error.empty()) runBar()->showError(QString::fromStdString(r.error));
}
void DecodePage::onRunFinished(bool) {
  m_busy.finish();
  replot();
}
void DecodePage::recordingsChanged() { scheduleReplot(); }
void DecodePage::scheduleReplot() { m_replot->start(); }
void DecodePage::requestCeiling() {
  m_ceilingDirty = true;
  if (m_frame) m_frame->request();  // null while the constructor builds the controls
}
void DecodePage::applyFrame() {
  const bool ceiling = std::exchange(m_ceilingDirty, false), chain = std::exchange(m_chainDirty, false);
  if (ceiling) replotCeiling();
  if (chain) replotChain();
}
void DecodePage::replot() {
  m_ceilingDirty = m_chainDirty = false;
  if (m_frame->isPending()) m_frame->flush();  // nothing is dirty now: the pending frame does nothing
  replotCeiling();
  replotChain();
}

int DecodePage::chainPointCount() const { return decode_page_model::measuredChainCount(inputs()); }

double DecodePage::batchingGain(int users) const {
  // The chain measured here first, else a recording's: total tokens/s at `users` over total at batch 1, from the
  // same source (ratios only within one source).
  return decode_page_model::batchingGain(decode_page_model::chainRuns(inputs()), users);
}

std::vector<decode_page_model::Input> DecodePage::inputs() const {
  const SourcedResults in = sourcedResults();
  return in;
}

// The whole sentence (the strip shows its figures in short; the tooltip carries it all).
QString DecodePage::ceilingText() const { return m_ceilingLabel->toolTip(); }
QString DecodePage::chainText() const { return m_chainLabel->text() + QLatin1Char('\n') + m_batchLabel->text(); }
QStringList DecodePage::ceilingBarLabels() const { return m_barLabels; }

void DecodePage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_ceilingShape.clear();  // the bars and texts are made again in the theme's colours and fonts
  fitPlotSizes(theme);
  const QString css = QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt + 1);
  for (QLabel* l : {m_ceilingLabel, m_chainLabel, m_batchLabel, m_prefillLabel}) l->setStyleSheet(css);
  placeReadouts(theme.isProjector());
  replot();
}

void DecodePage::placeReadouts(bool projector) {
  // On a projector the chain's readouts (a sentence per source, five lines with two recordings) made the strip
  // so tall that the charts fell under half of a 1280×720 screen: they are long readouts the class need not read
  // at once (the chart shows the same points), so they take a "Numbers" tab of the side column there, and come
  // back into the strip in the window.
  QTabWidget* side = sideTabs();
  if (!m_numbersTab) {
    m_numbersTab = new QWidget(this);
    m_numbersTab->setToolTip(tr("The measured chain's figures: tokens/s at batch 1 against the ceiling, and with "
                                "every user batched"));
    auto* col = new QVBoxLayout(m_numbersTab);
    col->setContentsMargins(8, 8, 8, 8);
    col->addStretch(1);
    m_numbersTab->hide();
  }
  auto* col = static_cast<QVBoxLayout*>(m_numbersTab->layout());
  const int at = side->indexOf(m_numbersTab);
  if (projector && at < 0) {
    for (QLabel* l : {m_chainLabel, m_batchLabel}) {
      resultsStrip()->removeWidget(l);
      col->insertWidget(col->count() - 1, l);
    }
    side->addTab(m_numbersTab, tr("Numbers"));
    side->setTabToolTip(side->indexOf(m_numbersTab), m_numbersTab->toolTip());
  } else if (!projector && at >= 0) {
    side->removeTab(at);
    m_numbersTab->hide();
    for (QLabel* l : {m_chainLabel, m_batchLabel}) col->removeWidget(l);
    // Back between the ceiling's sentence and the prompt's, as the constructor placed them.
    resultsStrip()->insertWidget(resultsStrip()->indexOf(m_ceilingLabel) + 1, m_chainLabel, 1);
    resultsStrip()->insertWidget(resultsStrip()->indexOf(m_chainLabel) + 1, m_batchLabel, 1);
    m_chainLabel->show();
    m_batchLabel->show();
  }
}

QString DecodePage::csvCeilings() const {
  // A ceiling is computed from a bandwidth; a published figure was measured by someone on a real GPU: their
  // own columns, each empty where it does not apply.
  QString out = QStringLiteral("format,source,bandwidth_bytes_per_s,ceiling_tokens_per_s,published_measured_tokens_per_s\n");
  auto num = [](double v) { return v > 0 ? QString::number(v, 'g', 6) : QString(); };
  const decode_page_model::CeilingTable table = ceilingTable();
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  for (std::size_t b = 0; b < table.bandwidths.size(); ++b)
    for (std::size_t f = 0; f < table.formats.size(); ++f)
      out += QStringLiteral("%1,\"%2\",%3,%4,\n")
                 .arg(QString::fromStdString(table.formats[f].name), ceilingColumnName(table.bandwidths[b], card),
                      num(table.bandwidths[b].bytesPerS), num(table.tokensPerS[b][f]));
  for (const PublishedDecodeBar& p : publishedDecodeBars(m_ctx, activeParams() / 1e9))
    out += QStringLiteral("%1,\"%2\",,,%3\n").arg(p.format, p.label, num(p.tokensPerS));
  return out;
}

QList<PlotExport> DecodePage::plots() {
  return {{QStringLiteral("decode-ceiling"), tr("Decode ceiling: bandwidth ÷ bytes per token"), m_ceilingPlot, nullptr,
           [this] { return csvCeilings(); }},
          {QStringLiteral("decode-batching"), tr("Measured decode chain: tokens/s against users"), m_batchPlot, nullptr,
           [this] { return plotSeriesCsv(m_batchPlot, QStringLiteral("users"), QStringLiteral("tokens_per_s")); }}};
}

GPULAB_REGISTER_PAGE(80, DecodePage);

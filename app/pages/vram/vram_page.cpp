#include "pages/vram/vram_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/memory_hold.hpp"
#include "gpulab/models/catalogue.hpp"
#include "plans/vram.hpp"
#include "pages/chosen_device.h"
#include "pages/page_registry.h"
#include "pages/running_example.h"
#include "widgets/run_bar.h"
#include "widgets/projector_side_tab.h"
#include "widgets/source_badge.h"
#include "widgets/stacked_or_tabbed.h"
#include "widgets/vram_bars.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

using namespace gpulab;
using namespace gpulab::models;

namespace {

// The five formats the lesson sizes, in the order the bars stand.
const NumberFormat k_formats[] = {NumberFormat::fp32, NumberFormat::fp16, NumberFormat::fp8, NumberFormat::int8,
                                  NumberFormat::int4};
QString formatLabel(NumberFormat f) {
  return f == NumberFormat::fp16 ? QStringLiteral("FP16/BF16") : QString::fromUtf8(format_name(f).data(), int(format_name(f).size()));
}


QString gb(double bytes) { return fmtBytes(bytes, 3); }

}  // namespace

VramPage::VramPage(AppContext& ctx) : Page(ctx) {
  m_shape = *find_preset("lesson-7b");

  m_bars = new VramBars;
  m_bars->setTitle(tr("Estimate: the same model in each number format"));
  m_bars->setToolTip(tr("Each bar is what the model needs in that number format; the dashed line is the card's "
                        "memory. Hatched red is what does not fit. The selected format has a bold outline."));

  m_liveBox = new QWidget;
  auto* liveCol = new QVBoxLayout(m_liveBox);
  liveCol->setContentsMargins(0, 0, 0, 0);
  m_live = new VramBars(m_liveBox);
  m_live->setTitle(tr("Real: this GPU's memory"));
  // Another device chosen in the device panel: the live side says what it can do there.
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] {
    m_haveLive = false;
    recordingsChanged();
  });
  m_live->setToolTip(tr("Run (Space) holds the selected estimate on the chosen device, one part a step (weights, KV "
                        "cache, activations), then one more user at a time. After each step the device's own reading "
                        "(CUDA: cudaMemGetInfo; Vulkan: the heap's budget) stands beside the calculator's prediction. "
                        "The run stops before the step that would not fit."));
  liveCol->addWidget(m_live, 1);
  m_liveStatus = new QLabel(m_liveBox);
  m_liveStatus->setWordWrap(true);
  m_liveStatus->setObjectName(QStringLiteral("vramLiveStatus"));
  liveCol->addWidget(m_liveStatus);
  m_sharedNote = new QLabel(m_liveBox);
  m_sharedNote->setWordWrap(true);
  m_sharedNote->setObjectName(QStringLiteral("vramSharedNote"));
  m_sharedNote->hide();
  liveCol->addWidget(m_sharedNote);
  // Side by side when the page is wide enough at the theme's fonts, else taking turns (a projector at 1366×768).
  m_visual = new StackedOrTabbed(m_bars, m_liveBox, tr("Estimate"), tr("Real memory"), 2, 1);
  m_visual->setOrientation(Qt::Horizontal);
  setVisual(m_visual);

  m_modelBadge = new SourceBadge(SourceBadge::Kind::Model, tr("VRAM model (bars)"));
  addBadge(m_modelBadge);
  m_liveBadge = new SourceBadge(SourceBadge::Kind::Unavailable, tr("live bars"));
  addBadge(m_liveBadge);

  m_weightsLabel = addResultLabel();
  m_verdictLabel = addResultLabel();
  m_contextLabel = addResultLabel();
  m_usersLabel = addResultLabel();

  buildControls();
  runBar()->setRunText(tr("Hold on device"));
  runBar()->runButton()->setToolTip(
      tr("Allocate the selected estimate on the chosen device, part by part, up to a safety margin of its free "
         "memory (or, with \"until the device says no\", past it), read the device after each step, then free it"));
  recompute();
  recordingsChanged();
}

VramPage::~VramPage() = default;

void VramPage::buildControls() {
  auto* modelBox = new QGroupBox(tr("Model"));
  auto* mform = new QFormLayout(modelBox);
  auto* presetRow = new QGridLayout;
  m_presets = new QButtonGroup(this);
  struct P { const char* id; const char* text; };
  const P presets[] = {{"llama-3.2-1b", "1B"}, {"llama-3.2-3b", "3B"}, {"lesson-7b", "7B"},
                       {"llama-3-8b", "8B"},   {"llama-2-13b", "13B"}, {"llama-3-70b", "70B"}};
  int i = 0;
  for (const P& p : presets) {
    const ModelShape* s = find_preset(p.id);
    if (!s) continue;
    auto* b = new QPushButton(QString::fromLatin1(p.text));
    b->setCheckable(true);
    b->setProperty("presetId", QString::fromLatin1(p.id));
    setControlId(b, QStringLiteral("vram.preset_") + QString::fromLatin1(p.text).toLower());
    b->setToolTip(tr("%1: %2 parameters, %3 layers, %4 KV heads of %5 (source: %6)")
                      .arg(QString::fromUtf8(s->label.data(), int(s->label.size())))
                      .arg(fmtSi(s->params, ""))
                      .arg(s->layers)
                      .arg(s->kv_heads)
                      .arg(s->head_dim)
                      .arg(QString::fromUtf8(s->source.data(), int(s->source.size()))));
    m_presets->addButton(b);
    presetRow->addWidget(b, i / 3, i % 3);
    ++i;
    connect(b, &QPushButton::clicked, this, [this, b] { choosePreset(b->property("presetId").toString()); });
  }
  mform->addRow(presetRow);
  m_params = new QDoubleSpinBox;
  m_params->setRange(0.01, 2000);
  m_params->setDecimals(2);
  m_params->setSuffix(tr(" B params"));
  m_params->setValue(7);
  m_params->setToolTip(tr("Parameter count in billions (any value: the presets only fill it in). Weights = "
                          "parameters × bytes per parameter."));
  mform->addRow(tr("Size"), m_params);
  setControlId(m_params, QStringLiteral("vram.params"));
  m_format = new QComboBox;
  setControlId(m_format, QStringLiteral("vram.format"));
  for (NumberFormat f : k_formats) m_format->addItem(formatLabel(f), int(f));
  m_format->setCurrentIndex(1);
  m_format->setToolTip(tr("Number format of the weights: FP32 4 bytes, FP16/BF16 2, FP8 and INT8 1, INT4 half a "
                          "byte per parameter. The results strip describes this format's bar."));
  mform->addRow(tr("Format"), m_format);
  m_mode = new QComboBox;
  // "Full training (mixed-precision Adam)" must not widen the controls column at projector sizes.
  m_mode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_mode->setMinimumContentsLength(10);
  m_mode->addItem(tr("Inference (serve)"), int(VramMode::inference));
  m_mode->addItem(tr("Full training (mixed-precision Adam)"), int(VramMode::train));
  m_mode->addItem(tr("LoRA fine-tune"), int(VramMode::lora));
  m_mode->setToolTip(tr("Inference: weights + KV cache + activations. Full training adds gradients, an FP32 "
                        "master copy and Adam's two moments (~16 bytes per parameter), all in 16/32-bit floats, so "
                        "it is offered for FP32, FP16 and BF16 only. LoRA freezes the weights and trains small "
                        "adapters; over INT4 weights that is QLoRA (4-bit frozen base, 16-bit adapters)."));
  mform->addRow(tr("Mode"), m_mode);
  setControlId(m_mode, QStringLiteral("vram.mode"));
  controls()->addWidget(modelBox);

  auto* kvBox = new QGroupBox(tr("KV cache and activations"));
  m_kvBox = kvBox;
  auto* kform = new QFormLayout(kvBox);
  auto spin = [](int lo, int hi, int v, const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(v);
    s->setToolTip(tip);
    s->setGroupSeparatorShown(true);
    return s;
  };
  m_layers = spin(1, 256, m_shape.layers, tr("Transformer layers: each stores its own keys and values"));
  m_kvHeads = spin(1, 256, m_shape.kv_heads,
                   tr("Key/value heads per layer. Fewer than the attention heads is grouped-query attention "
                      "(GQA): the cache shrinks by the same factor"));
  m_headDim = spin(8, 1024, m_shape.head_dim, tr("Width of one head (values per key or value vector)"));
  setControlId(m_layers, QStringLiteral("vram.layers"));
  setControlId(m_kvHeads, QStringLiteral("vram.kv_heads"));
  setControlId(m_headDim, QStringLiteral("vram.head_dim"));
  // One field per row: two to a row cut their labels ("KV head", "Count acti") in the projector's font.
  kform->addRow(tr("Layers"), m_layers);
  kform->addRow(tr("KV heads"), m_kvHeads);
  kform->addRow(tr("Head dim"), m_headDim);
  m_context = spin(1, 1 << 21, int(default_context_tokens),
                   tr("Tokens per conversation kept in the KV cache (training: sequence length). Default %1 tokens, "
                      "the same as `gpulab calc vram` assumes without --context")
                       .arg(fmtCount(qint64(default_context_tokens))));
  m_context->setSingleStep(1024);
  m_users = spin(1, 4096, 1, tr("Conversations served at once, each with its own KV cache (training: sequences "
                                "per step)"));
  setControlId(m_context, QStringLiteral("vram.context"));
  setControlId(m_users, QStringLiteral("vram.users"));
  kform->addRow(tr("Context"), m_context);
  kform->addRow(tr("Users"), m_users);
  // Serving only: the cache's own number format, independent of the weights' (the strip compares all three).
  m_kvFormat = new QComboBox;
  m_kvFormat->setObjectName(QStringLiteral("vramKvFormat"));
  setControlId(m_kvFormat, QStringLiteral("vram.kv_format"));
  for (NumberFormat f : kv_cache_formats())
    m_kvFormat->addItem(QString::fromUtf8(format_name(f).data(), int(format_name(f).size())), int(f));
  m_kvFormat->setToolTip(tr("Number format of the stored keys and values. FP16 keeps them as the model computed "
                            "them; FP8 takes one byte a value, so the cache holds twice the tokens; INT4 takes half "
                            "a byte plus a scale for every 32 values (llama.cpp's q4_0: 4.5 bits a value), so about "
                            "3.6 times — at some cost in accuracy. The strip below gives the longest context and the "
                            "most users for all three."));
  kform->addRow(tr("KV format"), m_kvFormat);
  m_activations = new QCheckBox(tr("Count activations"));
  setControlId(m_activations, QStringLiteral("vram.activations"));
  m_activations->setChecked(true);
  m_activations->setToolTip(tr("Add the working tensors of a forward pass (training: those saved for the "
                               "backward pass)"));
  m_overhead = new QDoubleSpinBox;
  setControlId(m_overhead, QStringLiteral("vram.overhead"));
  m_overhead->setRange(0, 64);
  m_overhead->setDecimals(1);
  m_overhead->setSingleStep(0.5);
  m_overhead->setValue(1.0);
  m_overhead->setSuffix(tr(" GB"));
  m_overhead->setToolTip(tr("CUDA context, framework workspace and fragmentation: a fixed allowance"));
  // Training and LoRA: activations checkpointed, as fine-tuning recipes run (recipe_checkpointing). A row of its
  // own: beside "Count activations" it cut that label in the projector's font.
  m_checkpointing = new QCheckBox(tr("Checkpointed"));
  m_checkpointing->setObjectName(QStringLiteral("vramCheckpointing"));
  setControlId(m_checkpointing, QStringLiteral("vram.checkpointing"));
  m_checkpointing->setChecked(recipe_checkpointing(VramMode::lora));
  m_checkpointing->setToolTip(tr("Training and LoRA: gradient checkpointing, on as fine-tuning recipes run it. Only "
                                 "each layer's input is saved and one layer is recomputed at a time; off, every "
                                 "layer's activations are kept for the backward pass"));
  kform->addRow(m_activations);
  kform->addRow(m_checkpointing);
  kform->addRow(tr("Overhead"), m_overhead);
  controls()->addWidget(kvBox);

  auto* cardBox = new QGroupBox(tr("Card"));
  m_cardBox = cardBox;
  auto* cform = new QVBoxLayout(cardBox);
  m_card = new QComboBox;
  setControlId(m_card, QStringLiteral("vram.card"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(10);
  // Real cards are named in GiB, the unit their memory comes in and a driver reports (the catalogue counts a
  // datasheet's "24 GB" as 24 GiB); only the lesson's round shop card is in GB, as the lesson does its sums.
  if (const DeviceInfo* g = m_ctx.gpuInfo())
    m_card->addItem(tr("Detected: %1 (%2 GiB)")
                        .arg(QString::fromStdString(g->name), fmtFixed(g->memory_total_bytes / bytes_per_gib, 1)),
                    g->memory_total_bytes);
  m_card->addItem(QString::fromStdString(shop_card().name), shop_card().memory_bytes());
  for (const GpuSpec& g : catalogue())
    m_card->addItem(tr("%1 (%2)").arg(QString::fromStdString(g.name), QString::fromStdString(g.memory_label())),
                    g.memory_bytes());
  m_card->setCurrentIndex(m_ctx.hasGpu() ? 1 : 0);  // the lesson's shop card first; the detected GPU one click away
  m_card->setToolTip(tr("The card the bars are compared with: the lesson's shop card (a round 24 GB, 24 × 10⁹ bytes, "
                        "as the lesson counts), a datasheet GPU, or the GPU in this computer. A datasheet's GB of "
                        "memory are GiB: an RTX 4090 holds 24 GiB, 25.8 GB, the bytes its driver reports and a live "
                        "reading counts."));
  cform->addWidget(m_card);
  m_untilRefused = new QCheckBox(tr("Until the device says no"));
  m_untilRefused->setObjectName(QStringLiteral("vramUntilRefused"));
  setControlId(m_untilRefused, QStringLiteral("vram.until_refused"));
  m_untilRefused->setToolTip(tr("Hold on device: do not stop before the step that would not fit; go on, one more user "
                                "at a time, until the device refuses an allocation (out of memory), then free "
                                "everything. On a GPU (CUDA or Vulkan); a CPU-type device keeps its cap. Other "
                                "programs on the device may feel it for a moment."));
  cform->addWidget(m_untilRefused);
  controls()->addWidget(cardBox);

  for (auto* s : {m_layers, m_kvHeads, m_headDim, m_context, m_users})
    connect(s, &QSpinBox::valueChanged, this, [this] { recompute(); });
  connect(m_params, &QDoubleSpinBox::valueChanged, this, [this] {
    if (auto* b = m_presets->checkedButton()) {
      const ModelShape* s = find_preset(b->property("presetId").toString().toStdString());
      if (s && std::abs(s->params / 1e9 - m_params->value()) > 0.005) {
        m_presets->setExclusive(false);  // a typed size is no preset any more
        b->setChecked(false);
        m_presets->setExclusive(true);
      }
    }
    recompute();
  });
  connect(m_overhead, &QDoubleSpinBox::valueChanged, this, [this] { recompute(); });
  connect(m_activations, &QCheckBox::toggled, this, [this] { recompute(); });
  connect(m_checkpointing, &QCheckBox::toggled, this, [this] { recompute(); });
  for (auto* c : {m_format, m_mode, m_card, m_kvFormat}) connect(c, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  if (auto* b = m_presets->buttons().value(2)) b->setChecked(true);
}

VramInputs VramPage::inputs() const {
  VramInputs in;
  in.shape = m_shape;
  in.shape.params = m_params->value() * 1e9;
  in.shape.layers = m_layers->value();
  in.shape.kv_heads = m_kvHeads->value();
  in.shape.head_dim = m_headDim->value();
  in.weights_format = NumberFormat(m_format->currentData().toInt());
  in.mode = VramMode(m_mode->currentData().toInt());
  in.context = m_context->value();
  in.kv_format = NumberFormat(m_kvFormat->currentData().toInt());
  in.users = m_users->value();
  in.include_activations = m_activations->isChecked();
  in.activation_checkpointing = in.mode != VramMode::inference && m_checkpointing->isChecked();
  in.overhead_bytes = m_overhead->value() * bytes_per_gb;
  return in;
}

double VramPage::cardBytes() const { return m_card->currentData().toDouble(); }
QString VramPage::cardName() const { return m_card->currentText(); }
VramBudget VramPage::budget() const { return vram_budget(inputs(), cardBytes()); }

void VramPage::choosePreset(const QString& id) {
  const ModelShape* s = find_preset(id.toStdString());
  if (!s) return;
  m_shape = *s;
  const QSignalBlocker b1(m_params), b2(m_layers), b3(m_kvHeads), b4(m_headDim);
  m_params->setValue(s->params / 1e9);
  m_layers->setValue(s->layers);
  m_kvHeads->setValue(s->kv_heads);
  m_headDim->setValue(s->head_dim);
  for (auto* b : m_presets->buttons())
    if (b->property("presetId").toString() == id) b->setChecked(true);
  recompute();
}

void VramPage::setParamsBillions(double b) { m_params->setValue(b); }
void VramPage::setFormat(NumberFormat f) { m_format->setCurrentIndex(m_format->findData(int(f))); }
void VramPage::setMode(VramMode m) { m_mode->setCurrentIndex(m_mode->findData(int(m))); }
void VramPage::setContext(int tokens) { m_context->setValue(tokens); }
void VramPage::setUsers(int users) { m_users->setValue(users); }
void VramPage::setCheckpointing(bool on) { m_checkpointing->setChecked(on); }
void VramPage::setKvFormat(NumberFormat f) { m_kvFormat->setCurrentIndex(std::max(0, m_kvFormat->findData(int(f)))); }
QString VramPage::contextText() const { return m_contextLabel->text(); }
QString VramPage::usersText() const { return m_usersLabel->text(); }
void VramPage::setCard(const QString& name) {
  for (int i = 0; i < m_card->count(); ++i)
    if (m_card->itemText(i).startsWith(name)) {
      m_card->setCurrentIndex(i);
      return;
    }
}

void VramPage::scheduleRecompute() { recompute(); }

void VramPage::recompute() {
  const VramInputs base = inputs();
  m_checkpointing->setEnabled(base.mode != VramMode::inference && base.include_activations);
  m_kvFormat->setEnabled(base.mode == VramMode::inference);  // training keeps no KV cache
  const double card = cardBytes();
  QVector<VramBar> bars;
  for (NumberFormat f : k_formats) {
    VramInputs in = base;
    in.weights_format = f;
    const VramBudget b = vram_budget(in, card);
    VramBar bar;
    bar.label = formatLabel(f);
    bar.highlight = f == base.weights_format || (f == NumberFormat::fp16 && base.weights_format == NumberFormat::bf16);
    bar.good = b.fits;
    bar.caption = b.fits ? tr("fits, %1 left").arg(fmtBytes(b.headroom(), 2)) : tr("short by %1").arg(fmtBytes(b.short_by(), 2));
    if (in.mode == VramMode::train && full_training_refusal(f)) {
      // Training state stays in 16/32-bit floats: no bar for a full training "in INT4"; LoRA over it is QLoRA.
      bar.good = false;
      bar.caption = f == NumberFormat::fp8 ? tr("not a stored training format") : tr("no full training: use QLoRA");
      bars.push_back(bar);
      continue;
    }
    auto add = [&](const QString& name, double bytes) {
      if (bytes > 0) bar.segments.push_back({name, bytes, vramPartColour(name)});
    };
    switch (in.mode) {
      case VramMode::inference:
        add(tr("Weights"), b.weights);
        add(tr("KV cache"), b.kv_cache);
        break;
      case VramMode::train: {
        const TrainingState t = training_state_bytes(in.shape.params, f);
        add(tr("Weights"), t.weights);
        add(tr("Gradients"), t.gradients);
        add(tr("FP32 master"), t.master_weights);
        add(tr("Adam m"), t.adam_m);
        add(tr("Adam v"), t.adam_v);
        break;
      }
      case VramMode::lora:
        add(is_qlora(in.mode, f) ? tr("Frozen 4-bit weights") : tr("Frozen weights"), b.weights);
        add(tr("LoRA adapters + Adam"), b.adapter);
        break;
    }
    add(tr("Activations"), b.activations);
    add(tr("Overhead"), b.overhead);
    bars.push_back(bar);
  }
  m_bars->setCapacity(card, cardName().section(QLatin1Char('('), 0, 0).trimmed() + QStringLiteral(" \u00b7 ") + gb(card));
  m_bars->setBars(bars);

  const VramBudget b = vram_budget(base, card);
  const QString fmt = formatLabel(base.weights_format == NumberFormat::bf16 ? NumberFormat::fp16 : base.weights_format);
  const QString size = QString::number(base.shape.params / 1e9, 'g', 3) + QStringLiteral("B");
  if (b.weights <= card)
    m_weightsLabel->setText(tr("<b>%1 in %2:</b> weights %3, leaving %4 of the %5 card for the rest")
                                .arg(size, fmt, gb(b.weights), gb(card - b.weights), gb(card)));
  else
    m_weightsLabel->setText(tr("<b>%1 in %2:</b> weights alone %3, %4 more than the %5 card")
                                .arg(size, fmt, gb(b.weights), gb(b.weights - card), gb(card)));
  QString what = base.mode == VramMode::inference ? tr("with KV cache, activations, overhead")
                 : base.mode == VramMode::train   ? tr("full training state (%1/param) + activations, overhead")
                                                        .arg(fmtFixed((b.weights + b.gradients + b.master_weights +
                                                                       b.optimizer) / base.shape.params, 1) + " B")
                 : is_qlora(base.mode, base.weights_format)
                     ? tr("QLoRA: 4-bit frozen weights + 16-bit adapters with Adam, activations, overhead")
                     : tr("LoRA: frozen weights + adapters, activations, overhead");
  if (base.mode != VramMode::inference && base.include_activations)
    what += base.activation_checkpointing ? tr("; checkpointed") : tr("; no checkpointing");
  if (base.mode == VramMode::train) {
    if (const char* why = full_training_refusal(base.weights_format)) {
      m_verdictLabel->setText(tr("<span style='color:%1'><b>Not offered:</b></span> %2.")
                                  .arg(m_ctx.theme().bad.name(), QString::fromUtf8(why).toHtmlEscaped()));
      m_contextLabel->clear();
      m_usersLabel->clear();
      return;
    }
  }
  m_verdictLabel->setText(b.fits ? tr("Total %1 (%2): <span style='color:%3'><b>fits, %4 left</b></span>")
                                       .arg(gb(b.total), what, m_ctx.theme().good.name(), gb(b.headroom()))
                                 : tr("Total %1 (%2): <span style='color:%3'><b>short by %4</b></span>")
                                       .arg(gb(b.total), what, m_ctx.theme().bad.name(), gb(b.short_by())));
  if (base.mode == VramMode::inference) {
    showKvFormats(base, card);
    return;
  }
  const auto maxCtx = max_context_that_fits(base, card, 1 << 24);
  const auto maxUsers = max_users_that_fit(base, card, 1 << 16);
  const QString per = tr("sequences");
  m_contextLabel->setText(maxCtx > 0 ? tr("Longest context that fits: <b>%1 tokens</b> × %2 %3")
                                           .arg(fmtCount(maxCtx)).arg(base.users).arg(per)
                                     : tr("Longest context that fits: <b>none</b> — even one token does not fit"));
  m_usersLabel->setText(maxUsers > 0 ? tr("Most %1 at %2 tokens: <b>%3</b>").arg(per, fmtCount(qint64(base.context)), fmtCount(maxUsers))
                                     : tr("Most %1 at %2 tokens: <b>none</b>").arg(per, fmtCount(qint64(base.context))));
}

void VramPage::showKvFormats(const VramInputs& base, double card) {
  // Serving: the longest context and the most users for each KV format side by side, the selected one in bold,
  // so changing the format is seen as the two figures it moves (kv_format_fits: the same budget, only the cache's
  // bytes per value differ).
  QStringList ctx, users;
  for (const KvFormatFit& f : kv_format_fits(base, card)) {
    const bool chosen = f.format == base.kv_format;
    auto mark = [chosen](const QString& v) { return chosen ? QStringLiteral("<b>%1</b>").arg(v) : v; };
    const QString name = QString::fromUtf8(format_name(f.format).data(), int(format_name(f.format).size()));
    ctx << name + QLatin1Char(' ') + mark(f.max_context > 0 ? fmtCount(f.max_context) : tr("none"));
    users << name + QLatin1Char(' ') + mark(fmtCount(f.max_users));
  }
  const QString dot = QStringLiteral(" \u00b7 ");
  const QString who = base.users == 1 ? tr("1 user") : tr("%1 users").arg(fmtCount(qint64(base.users)));
  m_contextLabel->setText(tr("Longest context, %1, by KV format: %2 tokens").arg(who, ctx.join(dot)));
  m_usersLabel->setText(tr("Most users at %1 tokens, by KV format: %2")
                            .arg(fmtCount(qint64(base.context)), users.join(dot)));
}

// ---- the live side ---------------------------------------------------------------------------------------------

gpulab::VramControls VramPage::runControls() const {
  gpulab::VramControls c;
  c.request_bytes = budget().total;
  c.inputs = inputs();
  c.until_refused = m_untilRefused->isChecked();
  return c;
}

void VramPage::sizeVisual() {
  const bool projector = m_ctx.theme().isProjector();
  const bool runShown = !m_shownRun.steps.empty() || m_shownRun.stop.has_value();
  // Room for five bars' labels and captions. Before a run the live panel holds only a sentence; once a run (or a
  // recording's) is drawn it holds a pair of bars per step and their key, which 220 px cut at the right edge
  // (1366x768): then the two panels split the width evenly, the estimate's bars a little narrower.
  m_bars->setMinimumWidth(projector ? 660 : runShown ? 340 : 360);
  m_liveBox->setMinimumWidth(projector ? 330 : runShown ? 300 : 220);
  m_visual->setShares(runShown ? 1 : 2, 1);
  // Title, key and bars: the bars keep ~150 px whatever the texts under them.
  m_live->setMinimumHeight(projector ? 330 : 280);
  m_visual->updateGeometry();
  m_visual->relayout();
}

void VramPage::setUntilRefused(bool on) { m_untilRefused->setChecked(on); }

gpulab::Plan VramPage::plan() { return gpulab::vram_plan(planBackends(), runControls()); }

QString VramPage::verdictText() const { return m_verdictLabel->text(); }
QString VramPage::weightsText() const { return m_weightsLabel->text(); }
QString VramPage::liveText() const { return m_liveStatus->text(); }

bool VramPage::kvInOwnTab() const { return m_kvTab && m_kvTab->inOwnTab(); }

void VramPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  // On a projector the column's fonts are too big for all three groups in a 768-pixel-high window.
  if (!m_kvTab)
    m_kvTab = std::make_unique<ProjectorSideTab>(
        sideTabs(), controls(), QList<QWidget*>{m_kvBox}, m_cardBox, tr("KV cache"),
        tr("Layers, KV heads, head size, context and users: their own tab on a projector, so the controls need no "
           "scrolling"));
  m_kvTab->place(theme.isProjector());
  sizeVisual();
  m_bars->setTheme(theme);
  m_live->setTheme(theme);
  const QString css = QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt + 1);
  for (QLabel* l : {m_weightsLabel, m_verdictLabel, m_contextLabel, m_usersLabel, m_liveStatus}) l->setStyleSheet(css);
  m_sharedNote->setStyleSheet(css + QStringLiteral("color:%1;").arg(theme.model.name()));
  recompute();
}

// ---- export and the lesson -------------------------------------------------------------------------------------

QString VramPage::csvCalculator() const {
  QString out = QStringLiteral("bar,part,bytes,gb,card_bytes,fits\n");
  for (const VramBar& b : m_bars->bars())
    for (const VramSegment& s : b.segments)
      out += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                 .arg(b.label, s.name)
                 .arg(s.bytes, 0, 'f', 0)
                 .arg(s.bytes / 1e9, 0, 'f', 3)
                 .arg(m_bars->capacity(), 0, 'f', 0)
                 .arg(b.good ? 1 : 0);
  return out;
}

QList<PlotExport> VramPage::plots() {
  QList<PlotExport> list;
  list.push_back({QStringLiteral("vram-estimate"), tr("VRAM needed in each number format"), nullptr, m_bars,
                  [this] { return csvCalculator(); }});
  list.push_back({QStringLiteral("vram-live"), tr("Device memory held step by step: prediction and reading"), nullptr, m_live,
                  [this] { return csvLive(); }});
  return list;
}

GPULAB_REGISTER_PAGE(60, VramPage);

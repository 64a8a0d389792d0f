#include "pages/traininfer/traininfer_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "pages/page_registry.h"
#include "pages/running_example.h"
#include "widgets/source_badge.h"
#include "widgets/vram_bars.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace gpulab;
using namespace gpulab::models;

namespace {

QString sv(std::string_view s) { return QString::fromUtf8(s.data(), int(s.size())); }
QString gb(double bytes) { return fmtBytes(bytes, 3); }


}  // namespace

TrainInferPage::TrainInferPage(AppContext& ctx) : Page(ctx) {
  m_bars = new VramBars;
  m_bars->setObjectName(QStringLiteral("trainInferBars"));
  m_bars->setTitle(tr("The same model, served and fine-tuned"));
  m_bars->setToolTip(tr("What each job keeps in VRAM on the chosen card (model): serving keeps weights and the KV "
                        "cache; training adds gradients, an FP32 master copy and Adam's two moments"));
  setVisual(m_bars);
  m_badge = new SourceBadge(SourceBadge::Kind::Model, tr("VRAM model, 16 B/param Adam state"));
  m_cardBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("card"));
  addBadge(m_badge);
  addBadge(m_cardBadge);

  auto* box = new QGroupBox(tr("Model and card"));
  auto* form = new QFormLayout(box);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  m_model = new QComboBox(box);
  setControlId(m_model, QStringLiteral("traininfer.model"));
  m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_model->setMinimumContentsLength(8);
  for (const ModelShape& s : model_presets()) m_model->addItem(sv(s.label), sv(s.id));
  m_model->setCurrentIndex(std::max(0, m_model->findData(QStringLiteral("lesson-7b"))));
  m_model->setToolTip(tr("The model whose serving and training memory the bars compare (shape from its paper or "
                         "model card)"));
  form->addRow(tr("model"), m_model);
  m_card = new QComboBox(box);
  setControlId(m_card, QStringLiteral("traininfer.card"));
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(8);
  for (const auto& g : catalogue()) m_card->addItem(QString::fromStdString(g.name), QString::fromStdString(g.name));
  m_card->setCurrentIndex(std::max(0, m_card->findData(running_example::facts().card)));
  m_card->setToolTip(tr("The card the bars are measured against (dashed line) and whose datasheet bandwidth and "
                        "FP16 peak set the two speed limits below"));
  form->addRow(tr("card"), m_card);
  m_users = new QSpinBox(box);
  setControlId(m_users, QStringLiteral("traininfer.users"));
  m_users->setRange(1, 256);
  m_users->setValue(1);
  m_users->setToolTip(tr("Serving: conversations at once, each with its own KV cache. Training: sequences per step, "
                         "each with its saved activations"));
  form->addRow(tr("users"), m_users);
  m_context = new QSpinBox(box);
  setControlId(m_context, QStringLiteral("traininfer.tokens"));
  m_context->setRange(128, 131072);
  m_context->setSingleStep(1024);
  m_context->setValue(int(default_context_tokens));
  m_context->setToolTip(tr("Tokens per conversation (serving: the KV cache length) or per training sequence"));
  form->addRow(tr("tokens"), m_context);
  // The assumption behind the three training bars, in view: LoRA and QLoRA recipes checkpoint activations.
  m_checkpointing = new QCheckBox(tr("gradient checkpointing"), box);
  m_checkpointing->setObjectName(QStringLiteral("trainInferCheckpointing"));
  setControlId(m_checkpointing, QStringLiteral("traininfer.checkpointing"));
  m_checkpointing->setChecked(recipe_checkpointing(VramMode::lora));
  m_checkpointing->setToolTip(tr("On, as fine-tuning recipes run (torchtune's LoRA and QLoRA configs, QLoRA's own "
                                 "script): only each layer's input is kept and one layer is recomputed at a time in "
                                 "the backward pass, at the cost of a second forward pass (8 FLOPs a parameter per "
                                 "token instead of 6). Off: every layer's activations are saved — for the 7B's LoRA "
                                 "at 4,096 tokens %1 more (model)")
                                  .arg(running_example::gb(running_example::facts().loraUncheckpointedGb -
                                                           running_example::facts().loraGb)));
  form->addRow(m_checkpointing);
  controls()->addWidget(box);

  auto* keepBox = new QGroupBox(tr("Keeps, and is bound by"));
  auto* kl = new QVBoxLayout(keepBox);
  m_keeps = new QLabel(keepBox);
  m_keeps->setWordWrap(true);
  m_keeps->setTextFormat(Qt::RichText);
  m_keeps->setText(
      tr("<b>Serving</b> keeps the weights, a KV cache per conversation and one layer's activations at a time. "
         "Each new token reads every weight once: the speed limit is memory bandwidth.<br><br>"
         "<b>Training</b> also keeps a gradient per weight, an FP32 master copy, Adam's two moments and every "
         "layer's activations for the backward pass. It pushes big batches of tokens through (~6 FLOPs per "
         "parameter per token, ~8 when checkpointing runs each layer's forward again), so the limit is "
         "arithmetic — once it fits at all."));
  kl->addWidget(m_keeps);
  controls()->addWidget(keepBox);
  controls()->addStretch(1);

  m_totals = addResultLabel(3, Qt::RichText);
  m_bound = addResultLabel(2, Qt::RichText);
  m_bound->setObjectName(QStringLiteral("trainInferBound"));

  connect(m_model, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(m_users, &QSpinBox::valueChanged, this, [this] { refresh(); });
  connect(m_context, &QSpinBox::valueChanged, this, [this] { refresh(); });
  connect(m_checkpointing, &QCheckBox::toggled, this, [this] { refresh(); });
  refresh();
}

QString TrainInferPage::takeaway() const {
  return tr("Serving keeps the weights and a cache and waits on memory; training keeps 16 bytes per weight instead "
            "of 2 and waits on arithmetic.");
}

void TrainInferPage::setModel(const QString& presetId) {
  const int i = m_model->findData(presetId);
  if (i >= 0) m_model->setCurrentIndex(i);
}
void TrainInferPage::setCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
}
void TrainInferPage::setUsers(int users) { m_users->setValue(users); }
void TrainInferPage::setCheckpointing(bool on) { m_checkpointing->setChecked(on); }
bool TrainInferPage::checkpointing() const { return m_checkpointing->isChecked(); }

double TrainInferPage::cardBytes() const {
  const GpuSpec* g = find_gpu(m_card->currentData().toString().toStdString());
  return g ? g->memory_bytes() : shop_card().memory_bytes();
}

VramInputs TrainInferPage::inputs(Column c) const {
  VramInputs in;
  const ModelShape* s = find_preset(m_model->currentData().toString().toStdString());
  in.shape = s ? *s : *find_preset("lesson-7b");
  in.context = m_context->value();
  in.users = m_users->value();
  switch (c) {
    case Serve: in.mode = VramMode::inference; in.weights_format = NumberFormat::fp16; break;
    case FullTrain: in.mode = VramMode::train; in.weights_format = NumberFormat::bf16; break;
    case Lora: in.mode = VramMode::lora; in.weights_format = NumberFormat::bf16; break;
    case Qlora: in.mode = VramMode::lora; in.weights_format = NumberFormat::int4; break;
    default: break;
  }
  in.activation_checkpointing = in.mode != VramMode::inference && m_checkpointing->isChecked();
  return in;
}

VramBudget TrainInferPage::budget(Column c) const { return vram_budget(inputs(c), cardBytes()); }

double TrainInferPage::decodeCeiling() const {
  const GpuSpec* g = find_gpu(m_card->currentData().toString().toStdString());
  if (!g || g->bandwidth_gbs <= 0) return 0;
  const VramInputs in = inputs(Serve);
  return decode_ceiling_tokens_per_s(g->bandwidth_bytes_s(), decode_bytes_per_token(in.shape.params, 2.0));
}

double TrainInferPage::trainingCeiling() const {
  const GpuSpec* g = find_gpu(m_card->currentData().toString().toStdString());
  if (!g || !g->fp16_tflops) return 0;
  // 6 FLOPs per parameter per token, 8 with checkpointing's second forward pass (vram_model.hpp).
  return *g->fp16_tflops * 1e12 / (training_flops_per_param_token(checkpointing()) * inputs(FullTrain).shape.params);
}

void TrainInferPage::refresh() {
  const double card = cardBytes();
  const QString names[ColumnCount] = {tr("Serve (FP16)"), tr("Full fine-tune"), tr("LoRA"), tr("QLoRA")};
  QVector<VramBar> bars;
  for (int c = 0; c < ColumnCount; ++c) {
    const VramBudget b = budget(Column(c));
    VramBar bar;
    bar.label = names[c];
    bar.good = b.fits;
    bar.caption = b.fits ? tr("fits, %1 left").arg(gb(b.headroom())) : tr("short by %1").arg(gb(b.short_by()));
    auto seg = [&](const QString& name, double bytes) {
      if (bytes > 0) bar.segments.push_back({name, bytes, vramPartColour(name)});
    };
    seg(tr("Weights"), b.weights);  // frozen under LoRA and QLoRA: the lesson text says so
    seg(tr("KV cache"), b.kv_cache);
    seg(tr("Gradients"), b.gradients);
    seg(tr("FP32 master"), b.master_weights);
    seg(tr("Adam m + v"), b.optimizer);
    seg(tr("LoRA adapters"), b.adapter);
    seg(tr("Activations"), b.activations);
    seg(tr("Overhead"), b.overhead);
    bars.push_back(bar);
  }
  m_bars->setBars(bars);
  const GpuSpec* g = find_gpu(m_card->currentData().toString().toStdString());
  // A short label: the line's right end sits above the last bars, and the card's name is in the controls.
  // A real card in the unit its memory comes in and in the axis's GB ("card 24 GiB = 25.8 GB").
  m_bars->setCapacity(card, g ? tr("card %1 = %2").arg(QString::fromStdString(g->memory_label()), gb(card))
                              : tr("card %1").arg(gb(card)));
  if (g) m_cardBadge->set(SourceBadge::Kind::Datasheet, QString::fromStdString(g->source));

  const VramBudget serve = budget(Serve), train = budget(FullTrain), lora = budget(Lora), qlora = budget(Qlora);
  m_totals->setText(tr("Serve <b>%1</b> · full fine-tune <b>%2</b> (%3× serving) · LoRA <b>%4</b> · QLoRA <b>%5</b> "
                       "· %6 <i>(model)</i>")
                        .arg(gb(serve.total), gb(train.total))
                        .arg(fmtFixed(train.total / std::max(serve.total, 1.0), 1))
                        .arg(gb(lora.total), gb(qlora.total),
                             checkpointing() ? tr("training bars with gradient checkpointing")
                                             : tr("training bars without checkpointing")));
  m_bound->setText(boundText());
}

QString TrainInferPage::boundText() const {
  const double dec = decodeCeiling(), trn = trainingCeiling();
  const QString d = dec > 0 ? tr("%1 tokens/s").arg(fmtCount(qint64(std::llround(dec)))) : QStringLiteral("—");
  const QString t = trn > 0 ? tr("%1 tokens/s").arg(fmtCount(qint64(std::llround(trn)))) : QStringLiteral("—");
  return tr("Serving one user: ≤ %1 (bandwidth ÷ bytes) · training: ≤ %2 (FP16 peak ÷ %3 FLOPs/param%4) "
            "<i>(datasheet + model)</i>")
      .arg(d, t, fmtFixed(training_flops_per_param_token(checkpointing()), 0),
           checkpointing() ? tr(", checkpointing recomputes the forward") : QString());
}

void TrainInferPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_bars->setTheme(theme);
}

QList<PlotExport> TrainInferPage::plots() {
  return {PlotExport{QStringLiteral("train_vs_infer"), tr("Training vs inference: what sits in VRAM"), nullptr, m_bars,
                     [this] {
                       QString csv = QStringLiteral(
                           "job,weights_gb,kv_cache_gb,gradients_gb,master_gb,adam_gb,adapters_gb,activations_gb,"
                           "overhead_gb,total_gb,card_gb,fits,source\n");
                       const char* jobs[] = {"serve_fp16", "full_finetune", "lora", "qlora"};
                       for (int c = 0; c < ColumnCount; ++c) {
                         const VramBudget b = budget(Column(c));
                         csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,model\n")
                                    .arg(QLatin1String(jobs[c]))
                                    .arg(b.weights / 1e9, 0, 'f', 3)
                                    .arg(b.kv_cache / 1e9, 0, 'f', 3)
                                    .arg(b.gradients / 1e9, 0, 'f', 3)
                                    .arg(b.master_weights / 1e9, 0, 'f', 3)
                                    .arg(b.optimizer / 1e9, 0, 'f', 3)
                                    .arg(b.adapter / 1e9, 0, 'f', 3)
                                    .arg(b.activations / 1e9, 0, 'f', 3)
                                    .arg(b.overhead / 1e9, 0, 'f', 3)
                                    .arg(b.total / 1e9, 0, 'f', 3)
                                    .arg(b.card / 1e9, 0, 'f', 1)
                                    .arg(b.fits ? 1 : 0);
                       }
                       return csv;
                     }}};
}

GPULAB_REGISTER_PAGE(65, TrainInferPage);

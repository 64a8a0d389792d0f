#include "shell/device_panel.h"

#include "app_context.h"
#include "runner/cpu_peak_watch.h"
#include "format.h"
#include "models/device_words.h"
#include "widgets/record_gpu_help.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace {
QString describeCpu(const gpulab::DeviceInfo& d) {
  QString s = QStringLiteral("<b>CPU</b> %1<br>%2 threads").arg(QString::fromStdString(d.name).toHtmlEscaped()).arg(d.compute_units);
  if (!d.simd.empty()) s += QStringLiteral(" · %1").arg(QString::fromStdString(d.simd));
  if (d.peak_gflops_fp32 > 0) s += QObject::tr("<br>FMA peak %1 FP32").arg(fmtSi(d.peak_gflops_fp32 * 1e9, "FLOP/s"));
  if (d.memory_total_bytes > 0) s += QObject::tr(" · RAM %1").arg(fmtBytes(d.memory_total_bytes));
  return s;
}
// A Vulkan device: its type and driver, in device_words' words — never "GPU" for a CPU-type one.
QString describeVulkan(const gpulab::DeviceInfo& g) {
  const auto words = gpulab::models::device_words(g);
  const bool onCpu = !words.is_gpu;
  QString s = (onCpu ? QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(words.label).toHtmlEscaped())
                     : QObject::tr("<b>%1</b> %2<br>").arg(QString::fromStdString(words.noun).toHtmlEscaped(),
                                                           QString::fromStdString(g.name).toHtmlEscaped()));
  QString type, memory;
  for (const auto& [k, v] : g.details) {
    if (k == "device type") type = QString::fromStdString(v);
    if (k == "memory") memory = QString::fromStdString(v);
  }
  if (!onCpu) s += type.toHtmlEscaped() + QStringLiteral(" · ");
  s += QObject::tr("%1 · driver %2").arg(QString::fromStdString(g.runtime_version),
                                          QString::fromStdString(g.driver_version).toHtmlEscaped());
  if (memory.startsWith(QLatin1String("shared"))) s += QObject::tr("<br>memory shared with the CPU");
  return s;
}
QString describeGpu(AppContext& ctx) {
  if (const auto* g = ctx.gpuInfo(); g && g->kind_id() == gpulab::BackendKind::vulkan) return describeVulkan(*g);
  if (const auto* g = ctx.gpuInfo()) {
    QString s = QStringLiteral("<b>GPU</b> %1<br>").arg(QString::fromStdString(g->name).toHtmlEscaped());
    s += QObject::tr("compute %1 · %2 SMs · %3").arg(QString::fromStdString(g->compute_capability)).arg(g->compute_units).arg(fmtBytes(g->memory_total_bytes));
    s += QObject::tr("<br>driver %1 · runtime %2").arg(QString::fromStdString(g->driver_version), QString::fromStdString(g->runtime_version));
    return s;
  }
  return QObject::tr("<b>GPU: not available</b> — %1<br><i>GPU figures come from recordings or the datasheet model.</i>")
      .arg(ctx.gpuReasonShort().toHtmlEscaped());
}
int kindData(gpulab::BackendKind kind) { return static_cast<int>(kind); }
QString detailLines(const gpulab::DeviceInfo& d) {
  QString s;
  for (const auto& [k, v] : d.details) s += QStringLiteral("  %1: %2\n").arg(QString::fromStdString(k), QString::fromStdString(v));
  return s;
}
}  // namespace

DevicePanel::DevicePanel(AppContext& ctx, QWidget* parent) : QWidget(parent), m_ctx(ctx) {
  setObjectName(QStringLiteral("devicePanel"));
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 6, 6, 6);
  m_cpu = new QLabel(describeCpu(ctx.cpuInfo()), this);
  m_cpu->setWordWrap(true);
  m_cpu->setObjectName(QStringLiteral("deviceCpu"));
  m_gpu = new QLabel(describeGpu(ctx), this);
  m_gpu->setWordWrap(true);
  m_gpu->setObjectName(QStringLiteral("deviceGpu"));
  // The device choice: every backend that loaded, the others listed greyed out with their reason.
  m_choice = new QComboBox(this);
  m_choice->setObjectName(QStringLiteral("deviceChoice"));
  // Narrow with the column: the panel sits in a scroll area (main_window.cpp) that lets its content be as wide as
  // its minimum, and a box as wide as its longest item ("Vulkan GPU: … not available …") pushed every line of the
  // panel past the column's edge, unwrapped and cut. The items' full text is in the open list.
  m_choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_choice->setMinimumContentsLength(5);
  m_choice->setToolTip(tr("Which device the pages measure on (the CPU is always measured too)"));
  // Each item's data is its BackendKind (as an int: QVariant needs no registration for it).
  m_choice->addItem(tr("CPU only"), kindData(gpulab::BackendKind::cpu));
  auto addGpu = [this](gpulab::BackendKind kind, gpulab::Backend* b, const QString& prefix, const QString& reason) {
    const QString name = b ? QString::fromStdString(b->device_info().name) : reason;
    // A device that is not a GPU (lavapipe) is listed by its device_words label, with no "GPU" prefix.
    const auto words = b ? gpulab::models::device_words(b->device_info()) : gpulab::models::DeviceWords{};
    const QString text = b && !words.is_gpu ? QString::fromStdString(words.label) : prefix + name;
    m_choice->addItem(text, kindData(kind));
    const int row = m_choice->count() - 1;
    m_choice->setItemData(row, b ? name : reason, Qt::ToolTipRole);
    if (!b) m_choice->setItemData(row, 0, Qt::UserRole - 1);  // disabled: the model's enabled flag
  };
  addGpu(gpulab::BackendKind::cuda, ctx.cudaBackend(), tr("CUDA GPU: "), ctx.cudaReason());
  addGpu(gpulab::BackendKind::vulkan, ctx.vulkanBackend(), tr("Vulkan GPU: "), ctx.vulkanReason());
  m_choice->setCurrentIndex(m_choice->findData(kindData(ctx.gpuKind())));
  connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int i) {
    const auto kind = static_cast<gpulab::BackendKind>(m_choice->itemData(i).toInt());
    if (!m_ctx.chooseGpu(kind)) m_choice->setCurrentIndex(m_choice->findData(kindData(m_ctx.gpuKind())));
  });
  connect(&ctx, &AppContext::gpuChanged, this, &DevicePanel::refresh);
  if (auto* watch = ctx.findChild<CpuPeakWatch*>())  // a busy start-up's peak replaced
    connect(watch, &CpuPeakWatch::peakInUseChanged, this, &DevicePanel::refresh);
  refresh();
  auto* more = new QPushButton(tr("Device details…"), this);
  more->setToolTip(tr("Everything detected: caches, clocks, library versions, the CUDA module that was tried"));
  lay->addWidget(m_cpu);
  lay->addWidget(m_choice);
  lay->addWidget(m_gpu);
  if (!ctx.hasGpu()) {
    // The way to a GPU's numbers without one here: Help → Record your own GPU.
    auto* hint = new QLabel(tr("No GPU here? <a href=\"record\">Record your own GPU</a> on a free notebook GPU "
                               "(Colab's T4) in a quarter of an hour, then File → Open it."), this);
    hint->setObjectName(QStringLiteral("deviceRecordHint"));
    hint->setWordWrap(true);
    hint->setTextFormat(Qt::RichText);
    hint->setToolTip(tr("The steps: Help → Record your own GPU (tools/record-your-gpu.ipynb and "
                        "tools/record-your-gpu.sh in gpulab's source; the README has them too)"));
    connect(hint, &QLabel::linkActivated, this, [this] { showRecordYourGpu(this); });
    lay->addWidget(hint);
  }
  lay->addWidget(more);
  connect(more, &QPushButton::clicked, this, [this] {
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Devices"));
    auto* l = new QVBoxLayout(&dlg);
    auto* text = new QPlainTextEdit(detailsText(), &dlg);
    text->setReadOnly(true);
    text->setMinimumSize(640, 420);
    l->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dlg);
    connect(buttons, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    l->addWidget(buttons);
    dlg.exec();
  });
}

void DevicePanel::refresh() {
  // The peak's line stays short (the side column is narrow); where and when it was taken is its tooltip.
  m_cpu->setText(describeCpu(m_ctx.cpuInfo()));
  m_cpu->setToolTip(tr("FMA peak: %1").arg(QString::fromStdString(m_ctx.cpuInfo().peak_source)));
  m_gpu->setText(describeGpu(m_ctx));
  const QString how = m_ctx.gpuKind() == gpulab::BackendKind::vulkan ? tr("through Vulkan compute shaders")
                                                                 : tr("through the CUDA module");
  m_gpu->setToolTip(m_ctx.hasGpu() ? tr("Experiments run on this device %1").arg(how)
                                   : tr("%1\n\nEvery page still works: the CPU measures for real, and GPU figures "
                                        "come from a recording (File → Open) or the datasheet.").arg(m_ctx.gpuReason()));
  const int row = m_choice->findData(kindData(m_ctx.gpuKind()));
  if (row != m_choice->currentIndex()) m_choice->setCurrentIndex(row);
}

QString DevicePanel::cpuText() const { return m_cpu->text(); }
QString DevicePanel::gpuText() const { return m_gpu->text(); }

QString DevicePanel::detailsText() const {
  const auto& c = m_ctx.cpuInfo();
  QString s = tr("CPU: %1\n  threads: %2\n  SIMD: %3\n").arg(QString::fromStdString(c.name)).arg(c.compute_units).arg(QString::fromStdString(c.simd));
  if (c.clock_mhz > 0) s += tr("  clock: %1 MHz\n").arg(c.clock_mhz, 0, 'f', 0);
  if (c.peak_gflops_fp32 > 0) s += tr("  FMA peak FP32 / FP64: %1 / %2\n").arg(fmtSi(c.peak_gflops_fp32 * 1e9, "FLOP/s"), fmtSi(c.peak_gflops_fp64 * 1e9, "FLOP/s"));
  s += detailLines(c);
  const auto* g = m_ctx.gpuInfo();
  if (g && g->kind_id() == gpulab::BackendKind::vulkan) {
    // Vulkan reports no compute capability, SMs or clock; free memory only through VK_EXT_memory_budget.
    s += tr("\n%1\n  memory: %2 (free %3)\n  driver: %4\n  API: %5\n")
             .arg(QString::fromStdString(gpulab::models::device_words(*g).label),
                  fmtBytes(g->memory_total_bytes),
                  g->memory_free_bytes > 0 ? fmtBytes(g->memory_free_bytes) : tr("unknown"),
                  QString::fromStdString(g->driver_version), QString::fromStdString(g->runtime_version));
    s += detailLines(*g);
  } else if (g) {
    s += tr("\nGPU: %1\n  compute capability: %2\n  SMs: %3\n  clock: %4 MHz\n  memory: %5 (free %6)\n  driver: %7\n  runtime: %8\n")
             .arg(QString::fromStdString(g->name), QString::fromStdString(g->compute_capability))
             .arg(g->compute_units).arg(g->clock_mhz, 0, 'f', 0)
             .arg(fmtBytes(g->memory_total_bytes), fmtBytes(g->memory_free_bytes),
                  QString::fromStdString(g->driver_version), QString::fromStdString(g->runtime_version));
    s += detailLines(*g);
  } else {
    s += tr("\nGPU: not available\n  reason: %1\n").arg(m_ctx.gpuReason());
  }
  if (!m_ctx.cudaModulePath().isEmpty()) s += tr("  CUDA module: %1\n").arg(m_ctx.cudaModulePath());
  s += tr("\nVulkan devices:\n");
  for (const auto& d : m_ctx.vulkanDevices())
    s += tr("  %1: %2 (vendor %3, Vulkan %4, driver %5)\n")
             .arg(d.index)
             .arg(QString::fromStdString(d.label), QString::fromStdString(d.vendor), QString::fromStdString(d.api_version),
                  QString::fromStdString(d.driver));
  if (m_ctx.vulkanDevices().empty() || !m_ctx.vulkanBackend())
    s += QStringLiteral("  %1\n").arg(m_ctx.vulkanReason());
  return s;
}

void DevicePanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  if (QLayout* l = layout(); l && l->hasHeightForWidth()) {
    const int need = l->heightForWidth(width());
    if (need != minimumHeight()) setMinimumHeight(need);
  }
}

#include "pages/stack_page.h"

#include "app_context.h"
#include "gpulab/result_views.hpp"
#include "models/stack_model.h"
#include "pages/chosen_device.h"
#include "pages/page_registry.h"
#include "widgets/projector_side_tab.h"
#include "widgets/source_badge.h"
#include "widgets/stack_diagram.h"

#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QTimer>
#include <QVBoxLayout>

using namespace gpulab;

namespace {
constexpr int k_maxEntries = 40;

// What ran it, in the class's words: a CPU-type Vulkan device is never called a GPU.
QString backendWord(stack_model::Api api) {
  switch (api) {
    case stack_model::Api::cpu: return QObject::tr("CPU");
    case stack_model::Api::vulkan: return QObject::tr("Vulkan GPU");
    case stack_model::Api::vulkanCpu: return QObject::tr("Vulkan on the CPU (not a GPU)");
    default: return QObject::tr("GPU");
  }
}

StackDiagram::Api diagramApi(stack_model::Api api) {
  switch (api) {
    case stack_model::Api::vulkan: return StackDiagram::Api::vulkan;
    case stack_model::Api::vulkanCpu: return StackDiagram::Api::vulkanCpu;
    default: return StackDiagram::Api::cuda;
  }
}

// The path in words, top to bottom, for the results strip.
QString pathWords(unsigned mask, StackDiagram::Api api) {
  QStringList parts;
  for (int l = 0; l < StackDiagram::LayerCount; ++l) {
    static const int order[] = {StackDiagram::Framework, StackDiagram::Library,  StackDiagram::CpuLibrary,
                                StackDiagram::Kernels,   StackDiagram::CpuCode,  StackDiagram::Runtime,
                                StackDiagram::Hardware,  StackDiagram::CpuCores};
    const int layer = order[l];
    if (mask & (1u << layer)) {
      QString name = StackDiagram::layerName(StackDiagram::Layer(layer), api);
      const int dot = name.indexOf(QStringLiteral("· "));
      if (dot >= 0) name = name.mid(dot + 2);
      parts << name;
    }
  }
  return parts.join(QStringLiteral(" → "));
}
}  // namespace

StackPage::~StackPage() = default;

StackPage::StackPage(AppContext& ctx) : Page(ctx) {
  m_diagram = new StackDiagram;
  setVisual(m_diagram);
  m_badge = new SourceBadge(SourceBadge::Kind::Model, tr("which layers each run used"));
  addBadge(m_badge);

  auto* box = new QGroupBox(tr("Experiments run so far"));
  auto* lay = new QVBoxLayout(box);
  m_list = new QListWidget(box);
  m_list->setObjectName(QStringLiteral("stackExperiments"));
  m_list->setWordWrap(true);
  m_list->setToolTip(tr("Everything measured on the other pages, newest first (and any opened recording). Pick one "
                        "to light up the layers it went through."));
  m_list->setMinimumHeight(160);
  lay->addWidget(m_list);
  controls()->addWidget(box, 1);
  m_listBox = box;

  auto* about = new QGroupBox(tr("About this layer"));
  auto* al = new QVBoxLayout(about);
  m_explain = new QLabel(about);
  m_explain->setWordWrap(true);
  m_explain->setMinimumHeight(110);
  m_explain->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  al->addWidget(m_explain);
  controls()->addWidget(about);
  // On a projector the layer's explanation (what the class reads while the teacher clicks) keeps the column; the
  // list of runs takes its own tab.
  m_listTab = std::make_unique<ProjectorSideTab>(
      sideTabs(), controls(), QList<QWidget*>{box}, about, tr("Runs"),
      tr("The experiments run so far: their own tab on a projector, so the layer's explanation needs no scrolling"));

  m_path = new QLabel(this);
  m_path->setWordWrap(true);
  m_path->setTextFormat(Qt::RichText);
  resultsStrip()->addWidget(m_path, 1);

  connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) { selectExperiment(row); });
  connect(m_diagram, &StackDiagram::layerClicked, this, [this](int l) {
    m_sticky = l;
    showLayer(l);
  });
  connect(m_diagram, &StackDiagram::layerHovered, this, [this](int l) { showLayer(l >= 0 ? l : m_sticky); });

  // Results arrive in streams (a sweep): rebuild the list once they settle, not once per result.
  m_refresh = makeRedrawTimer([this] { refreshList(); });
  connect(&m_ctx.results(), &ResultStore::resultAdded, this, [this] { m_refresh->start(); });
  connect(&m_ctx.results(), &ResultStore::cleared, this, [this] { m_refresh->start(); });
  // The examples and the GPU column's names follow the chosen device (CUDA's layers or Vulkan's).
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] { refreshList(); });

  m_sticky = StackDiagram::Framework;
  showLayer(m_sticky);
  refreshList();
}

QString StackPage::takeaway() const {
  return tr("Between model(x) and the transistors sit libraries, kernels, a runtime and a driver; here is the path "
            "each experiment really took.");
}

QString StackPage::describe(const Result& r) {
  const stack_model::Description d = stack_model::describe(r);
  QString what;
  if (d.gemm) {
    what = tr("GEMM %1×%2×%3").arg(d.m).arg(d.n).arg(d.k);
    what += QStringLiteral(" ") + QString::fromUtf8(display_name(d.precision).data(), int(display_name(d.precision).size()));
  } else {
    what = QString::fromStdString(d.what);
  }
  return tr("%1 · %2 · %3").arg(what, QString::fromStdString(d.variant), backendWord(d.api));
}

void StackPage::refreshList() {
  const QString previous = m_list->currentRow() >= 0 && m_list->currentItem() ? m_list->currentItem()->text() : QString();
  const bool followNewest = m_list->currentRow() <= 0;
  m_entries.clear();
  const auto& all = m_ctx.results().all();
  for (auto it = all.crbegin(); it != all.crend() && m_entries.size() < k_maxEntries; ++it) {
    if (!it->result.error.empty()) continue;  // a refused run went through nothing
    m_entries.push_back({it->result, m_ctx.results().sourceLabel(it->source)});
  }
  m_examples = m_entries.isEmpty();
  if (m_examples) {
    // Nothing has run yet: three typical paths, marked as examples, so the diagram still teaches something.
    // With a Vulkan device chosen, the examples take Vulkan's path (a CPU-type device's marked as such).
    const gpulab::DeviceClass chosen = chosen_device::kind(m_ctx);
    const bool vulkan = chosen == gpulab::DeviceClass::vulkan_gpu || chosen == gpulab::DeviceClass::vulkan_on_cpu;
    using gpulab::BackendKind;
    auto example = [](BackendKind backend, const char* variant, bool cpuType = false) {
      Result r;
      r.experiment = "gemm";
      r.backend = gpulab::backend_name(backend);
      r.variant = variant;
      r.params = {{"m", 1024}, {"n", 1024}, {"k", 1024}};
      if (cpuType) r.provenance["device_type"] = "CPU (not a GPU)";  // as the Vulkan backend marks lavapipe
      return r;
    };
    if (vulkan) {
      const bool cpuType = chosen == gpulab::DeviceClass::vulkan_on_cpu;
      m_entries.push_back({example(BackendKind::vulkan, "vectorized", cpuType), tr("example")});
      m_entries.push_back({example(BackendKind::vulkan, "naive", cpuType), tr("example")});
    } else {
      m_entries.push_back({example(BackendKind::cuda, "cublas"), tr("example")});
      m_entries.push_back({example(BackendKind::cuda, "warptile"), tr("example")});
    }
    m_entries.push_back({example(BackendKind::cpu, "blas"), tr("example")});
  }
  QSignalBlocker block(m_list);
  m_list->clear();
  int keep = 0;
  for (int i = 0; i < m_entries.size(); ++i) {
    const QString text = tr("%1 — %2").arg(describe(m_entries[i].result), m_entries[i].source);
    m_list->addItem(text);
    if (!followNewest && text == previous) keep = i;
  }
  m_list->setCurrentRow(keep);
  selectExperiment(keep);
}

void StackPage::selectExperiment(int row) {
  if (row < 0 || row >= m_entries.size()) {
    m_diagram->setLit(0, {});
    m_path->clear();
    return;
  }
  if (m_list->currentRow() != row) {
    QSignalBlocker block(m_list);
    m_list->setCurrentRow(row);
  }
  const Entry& e = m_entries[row];
  const unsigned mask = StackDiagram::layersFor(e.result);
  const stack_model::Api api = stack_model::apiOf(e.result);
  // The GPU column wears the names of the API the run went through; a CPU run leaves it as the chosen device's.
  const gpulab::DeviceClass chosen = chosen_device::kind(m_ctx);
  const StackDiagram::Api column =
      api != stack_model::Api::cpu ? diagramApi(api)
      : chosen == gpulab::DeviceClass::vulkan_gpu ? StackDiagram::Api::vulkan
      : chosen == gpulab::DeviceClass::vulkan_on_cpu ? StackDiagram::Api::vulkanCpu
                                                : StackDiagram::Api::cuda;
  m_diagram->setApi(column);
  const QString device = QString::fromStdString(gpulab::result_header(e.result).device);
  m_diagram->setLit(mask, !device.isEmpty() ? tr("Lit: %1 on %2 (%3)").arg(describe(e.result), device, e.source)
                                            : tr("Lit: %1 (%2)").arg(describe(e.result), e.source));
  const bool vulkan = api == stack_model::Api::vulkan || api == stack_model::Api::vulkanCpu;
  QString note;
  if (mask & StackDiagram::bit(StackDiagram::Library)) note = tr("A library call: cuBLAS chose and launched its own kernels.");
  else if (api == stack_model::Api::vulkanCpu && (mask & StackDiagram::bit(StackDiagram::Kernels)))
    note = tr("Our own compute shader through Vulkan, run on the CPU by llvmpipe: not a GPU.");
  else if (vulkan && (mask & StackDiagram::bit(StackDiagram::Kernels)))
    note = tr("Our own compute shader, dispatched through Vulkan: no library layer.");
  else if (mask & StackDiagram::bit(StackDiagram::Kernels)) note = tr("Our own kernel: launched directly, no library layer.");
  else if (mask & StackDiagram::bit(StackDiagram::CpuLibrary)) note = tr("OpenBLAS on the CPU: no CUDA runtime, no driver.");
  else if (mask & StackDiagram::bit(StackDiagram::CpuCode)) note = tr("Plain CPU loops: no library, no driver.");
  else if (vulkan) note = tr("A copy: the Vulkan driver moves the data through a staging buffer; no shader runs.");
  else note = tr("A copy: the runtime drives the copy engines; no kernel runs.");
  m_path->setText(
      tr("<b>%1</b> &nbsp;·&nbsp; %2").arg(pathWords(mask, column).toHtmlEscaped(), note.toHtmlEscaped()));
  m_badge->set(e.source == tr("example") ? SourceBadge::Kind::Model
                                         : (e.source == m_ctx.results().sourceLabel(-1) ? SourceBadge::Kind::MeasuredHere
                                                                                        : SourceBadge::Kind::Recorded),
               e.source == tr("example") ? tr("example paths: run something on another page") : e.source);
}

void StackPage::showLayer(int layer) {
  if (layer < 0) {
    m_explain->clear();
    return;
  }
  const auto l = StackDiagram::Layer(layer);
  const StackDiagram::Api api = m_diagram->api();
  m_explain->setText(QStringLiteral("<b>%1</b><br>%2").arg(StackDiagram::layerName(l, api).toHtmlEscaped(),
                                                            StackDiagram::layerExplanation(l, api).toHtmlEscaped()));
}

bool StackPage::listInOwnTab() const { return m_listTab->inOwnTab(); }

QString StackPage::explanationText() const { return m_explain->text(); }

void StackPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_listTab->place(theme.isProjector());
  if (!m_listTab->inOwnTab()) controls()->setStretchFactor(m_listBox, 1);  // the list takes the column's spare height
  m_diagram->setTheme(theme);
}

QList<PlotExport> StackPage::plots() {
  QList<PlotExport> out;
  out.append(PlotExport{QStringLiteral("stack"), tr("The software stack"), nullptr, m_diagram, [this] {
                          QString csv = QStringLiteral("experiment,backend,variant,source,layers\n");
                          for (const Entry& e : m_entries)
                            csv += QStringLiteral("%1,%2,%3,\"%4\",\"%5\"\n")
                                       .arg(QString::fromStdString(e.result.experiment),
                                            QString::fromStdString(e.result.backend),
                                            QString::fromStdString(e.result.variant), e.source,
                                            pathWords(StackDiagram::layersFor(e.result), m_diagram->api()));
                          return csv;
                        }});
  return out;
}

GPULAB_REGISTER_PAGE(100, StackPage);

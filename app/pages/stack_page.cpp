#include "pages/stack_page.h"

#include "app_context.h"
#include "pages/page_registry.h"
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

QString backendWord(const std::string& b) { return b == "cuda" ? QObject::tr("GPU") : QObject::tr("CPU"); }

// The path in words, top to bottom, for the results strip.
QString pathWords(unsigned mask) {
  QStringList parts;
  for (int l = 0; l < StackDiagram::LayerCount; ++l) {
    static const int order[] = {StackDiagram::Framework, StackDiagram::Library,  StackDiagram::CpuLibrary,
                                StackDiagram::Kernels,   StackDiagram::CpuCode,  StackDiagram::Runtime,
                                StackDiagram::Hardware,  StackDiagram::CpuCores};
    const int layer = order[l];
    if (mask & (1u << layer)) {
      QString name = StackDiagram::layerName(StackDiagram::Layer(layer));
      const int dot = name.indexOf(QStringLiteral("· "));
      if (dot >= 0) name = name.mid(dot + 2);
      parts << name;
    }
  }
  return parts.join(QStringLiteral(" → "));
}
}  // namespace

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

  auto* about = new QGroupBox(tr("About this layer"));
  auto* al = new QVBoxLayout(about);
  m_explain = new QLabel(about);
  m_explain->setWordWrap(true);
  m_explain->setMinimumHeight(110);
  m_explain->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  al->addWidget(m_explain);
  controls()->addWidget(about);

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

  m_sticky = StackDiagram::Framework;
  showLayer(m_sticky);
  refreshList();
}

QString StackPage::takeaway() const {
  return tr("Between model(x) and the transistors sit libraries, kernels, a runtime and a driver; here is the path "
            "each experiment really took.");
}

QString StackPage::describe(const Result& r) {
  QString what;
  if (r.experiment == "gemm") {
    const auto m = qint64(r.param("m")), n = qint64(r.param("n")), k = qint64(r.param("k"));
    what = tr("GEMM %1×%2×%3").arg(m).arg(n).arg(k);
    what += QStringLiteral(" ") + QString::fromUtf8(display_name(r.precision).data(), int(display_name(r.precision).size()));
  } else {
    what = QString::fromStdString(r.experiment);
    what.replace(QLatin1Char('_'), QLatin1Char(' '));
  }
  return tr("%1 · %2 · %3").arg(what, QString::fromStdString(r.variant), backendWord(r.backend));
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
    auto example = [](const char* backend, const char* variant) {
      Result r;
      r.experiment = "gemm";
      r.backend = backend;
      r.variant = variant;
      r.params = {{"m", 1024}, {"n", 1024}, {"k", 1024}};
      return r;
    };
    m_entries.push_back({example("cuda", "cublas"), tr("example")});
    m_entries.push_back({example("cuda", "warptile"), tr("example")});
    m_entries.push_back({example("cpu", "blas"), tr("example")});
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
  const auto dev = e.result.provenance.find("device");
  m_diagram->setLit(mask, dev != e.result.provenance.end()
                              ? tr("Lit: %1 on %2 (%3)").arg(describe(e.result), QString::fromStdString(dev->second), e.source)
                              : tr("Lit: %1 (%2)").arg(describe(e.result), e.source));
  QString note;
  if (mask & StackDiagram::bit(StackDiagram::Library)) note = tr("A library call: cuBLAS chose and launched its own kernels.");
  else if (mask & StackDiagram::bit(StackDiagram::Kernels)) note = tr("Our own kernel: launched directly, no library layer.");
  else if (mask & StackDiagram::bit(StackDiagram::CpuLibrary)) note = tr("OpenBLAS on the CPU: no CUDA runtime, no driver.");
  else if (mask & StackDiagram::bit(StackDiagram::CpuCode)) note = tr("Plain CPU loops: no library, no driver.");
  else note = tr("A copy: the runtime drives the copy engines; no kernel runs.");
  m_path->setText(tr("<b>%1</b> &nbsp;·&nbsp; %2").arg(pathWords(mask).toHtmlEscaped(), note.toHtmlEscaped()));
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
  m_explain->setText(QStringLiteral("<b>%1</b><br>%2").arg(StackDiagram::layerName(l).toHtmlEscaped(),
                                                            StackDiagram::layerExplanation(l).toHtmlEscaped()));
}

QString StackPage::explanationText() const { return m_explain->text(); }

void StackPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
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
                                            pathWords(StackDiagram::layersFor(e.result)));
                          return csv;
                        }});
  return out;
}

LessonContent StackPage::lesson() const {
  LessonContent c;
  c.intro = tr("Fast hardware is useless without software that keeps it busy. A call like model(x) in PyTorch goes "
               "through several layers: the framework turns it into library calls (cuBLAS for matrix maths, cuDNN "
               "for convolutions, normalisation and attention, NCCL for talking to other GPUs); each library call "
               "launches kernels; the CUDA runtime and driver move the data and queue the launches; and the GPU's "
               "SMs finally run thousands of threads. CUDA arrived in 2007, years before deep learning took off — "
               "that head start and the libraries built on it are as much NVIDIA's advantage as the chips. Run "
               "something on the matrix-multiply page, then come back to see which layers it used.");
  c.questions.append({tr("The matrix-multiply page runs our own ladder of kernels and cuBLAS on the same GPU. Which "
                         "layer of the stack does our own kernel skip, and why is cuBLAS usually faster anyway?"),
                      tr("It skips the library layer: gpulab launches its kernel directly. cuBLAS is usually faster "
                         "because its kernels have been tuned for years for each GPU generation (tiling, Tensor "
                         "Cores, picking a kernel per shape) — the software moat the lesson talks about.")});
  c.questions.append({tr("OpenBLAS on the CPU also does matrix maths. Which layers does it not need?"),
                      tr("The CUDA runtime and the driver: there is no separate device to copy data to or launch "
                         "kernels on. The library runs as ordinary threads on the CPU cores, scheduled by the "
                         "operating system.")});
  return c;
}

GPULAB_REGISTER_PAGE(100, StackPage);

#include "pages/alternatives/alternatives_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/launch_model.hpp"
#include "gpulab/roofs.hpp"
#include "runner/result_store.h"
#include "widgets/roofline_plot.h"
#include "pages/page_registry.h"
#include "widgets/plot_style.h"
#include "widgets/source_badge.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

using namespace gpulab;

namespace {
// The sizes plotted: n = 8 … 16,384 in quarter-octave steps.
QVector<double> sizes() {
  QVector<double> n;
  for (double v = 8; v <= 16384 * 1.001; v *= std::pow(2.0, 0.25)) n.push_back(v);
  return n;
}
constexpr double k_bytesPerFloat = 4;
}  // namespace

AlternativesPage::AlternativesPage(AppContext& ctx) : Page(ctx) {
  m_plot = new QCustomPlot;
  m_plot->setObjectName(QStringLiteral("alternativesPlot"));
  m_plot->setToolTip(tr("Time for one n×n FP32 matrix product. Orange: this CPU at its measured peak. Green dotted: "
                        "the card, counting the copies over its host link and the launch. Green dashed: the card's "
                        "arithmetic alone (datasheet). The vertical line: from here on the card wins."));
  m_plot->setMinimumHeight(240);
  useLogAxis(m_plot, true);
  useLogAxis(m_plot, false);
  m_plot->xAxis->setLabel(tr("matrix size n (n×n times n×n)"));
  m_plot->yAxis->setLabel(tr("time, s"));
  m_plot->legend->setVisible(true);
  m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  m_cpu = m_plot->addGraph();
  m_cpu->setName(tr("this CPU at its measured peak (model)"));
  m_gpu = m_plot->addGraph();
  m_gpu->setName(tr("GPU incl. copies + launch (model)"));
  m_gpuPeak = m_plot->addGraph();
  m_gpuPeak->setName(tr("GPU arithmetic only (datasheet)"));
  m_cross = new QCPItemStraightLine(m_plot);
  setVisual(m_plot);

  m_cpuBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("CPU peak"));
  m_gpuBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("card"));
  addBadge(m_cpuBadge);
  addBadge(m_gpuBadge);

  auto* box = new QGroupBox(tr("Small work: CPU or GPU?"));
  auto* form = new QFormLayout(box);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  m_card = new QComboBox(box);
  m_card->setObjectName(QStringLiteral("alternativesCard"));
  setControlId(m_card, QStringLiteral("alternatives.card"));
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(8);
  for (const auto& g : models::catalogue())
    if (g.fp32_tflops && g.host_link_gbs > 0)
      m_card->addItem(QString::fromStdString(g.name), QString::fromStdString(g.name));
  m_card->setCurrentIndex(std::max(0, m_card->findData(QStringLiteral("H100 SXM"))));
  m_card->setToolTip(tr("The GPU compared with this CPU: its FP32 peak and host-link speed come from the datasheet"));
  form->addRow(tr("card"), m_card);
  m_overhead = new QSpinBox(box);
  setControlId(m_overhead, QStringLiteral("alternatives.launch_overhead"));
  m_overhead->setRange(1, 500);
  // One trip to the card is a launch that is waited for: the sourced launch + wait (launch_model.hpp), rounded.
  m_overhead->setValue(int(std::lround(gpulab::models::published_launch_costs().launch_and_wait_s * 1e6)));
  m_overhead->setSuffix(tr(" µs"));
  m_overhead->setToolTip(tr("Fixed cost of one trip to the GPU: launching the kernel and waiting for it. %1 µs is "
                            "what %2 measured for a launch + wait (a kernel launched back to back without waiting "
                            "costs %3 µs; more from Python)")
                             .arg(fmtFixed(gpulab::models::published_launch_costs().launch_and_wait_s * 1e6, 1),
                                  QString::fromUtf8(gpulab::models::launch_costs_source()),
                                  fmtFixed(gpulab::models::published_launch_costs().back_to_back_s * 1e6, 1)));
  form->addRow(tr("launch"), m_overhead);
  m_onGpu = new QCheckBox(tr("data stays on the GPU"), box);
  setControlId(m_onGpu, QStringLiteral("alternatives.data_on_gpu"));
  m_onGpu->setToolTip(tr("Leave out copying A and B to the card and C back: the case where the data lives on the "
                         "GPU between steps"));
  form->addRow(m_onGpu);
  controls()->addWidget(box);

  auto* vbox = new QGroupBox(tr("Two chips (datasheet)"));
  auto* vl = new QVBoxLayout(vbox);
  m_vendors = new QLabel(vbox);
  m_vendors->setObjectName(QStringLiteral("alternativesVendors"));
  m_vendors->setWordWrap(true);
  m_vendors->setTextFormat(Qt::RichText);
  m_vendors->setToolTip(tr("From the catalogue (data/gpu-specs.csv), dense figures"));
  vl->addWidget(m_vendors);
  controls()->addWidget(vbox);
  controls()->addStretch(1);

  m_verdict = addResultLabel(1, Qt::RichText);
  m_verdict->setObjectName(QStringLiteral("alternativesVerdict"));

  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { replot(); });
  connect(m_overhead, &QSpinBox::valueChanged, this, [this] { replot(); });
  connect(m_onGpu, &QCheckBox::toggled, this, [this] { replot(); });
  // A GPU's launch measured later (the roofs suite) changes the crossover sentence; other results do not.
  connect(&m_ctx.results(), &ResultStore::resultAdded, this, [this](const StoredResult& r) {
    if (gpulab::as_overhead(r.result)) replot();
  });
  replot();
}

QString AlternativesPage::takeaway() const {
  return tr("NVIDIA's lead is as much software as silicon; and for small, branchy or serial work the CPU is still "
            "the faster tool.");
}

void AlternativesPage::setCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
}
void AlternativesPage::setOverheadUs(int us) { m_overhead->setValue(us); }
void AlternativesPage::setDataOnGpu(bool on) { m_onGpu->setChecked(on); }

double AlternativesPage::cpuSeconds(double n) const {
  const double peak = m_ctx.cpuInfo().peak_gflops_fp32 * 1e9;
  return peak > 0 ? 2 * n * n * n / peak : 0;
}

double AlternativesPage::gpuSeconds(double n) const { return gpuSecondsWithLaunch(n, m_overhead->value() * 1e-6); }

double AlternativesPage::gpuSecondsWithLaunch(double n, double launchS) const {
  const models::GpuSpec* g = models::find_gpu(m_card->currentData().toString().toStdString());
  if (!g || !g->fp32_tflops) return 0;
  const double compute = 2 * n * n * n / (*g->fp32_tflops * 1e12);
  const double copies = m_onGpu->isChecked() ? 0 : 3 * n * n * k_bytesPerFloat / (g->host_link_gbs * 1e9);
  return compute + copies + launchS;
}

double AlternativesPage::crossover() const { return crossoverWithLaunch(m_overhead->value() * 1e-6); }

double AlternativesPage::crossoverWithLaunch(double launchS) const {
  for (double n : sizes()) {
    const double gpu = gpuSecondsWithLaunch(n, launchS), cpu = cpuSeconds(n);
    if (gpu > 0 && cpu > 0 && gpu < cpu) return n;
  }
  return 0;
}

double AlternativesPage::measuredLaunchS(QString* device) const {
  double best = 0;
  for (const StoredResult& s : m_ctx.results().all()) {
    const auto o = gpulab::as_overhead(s.result);
    // A real GPU's empty launch only: lavapipe and the emulator are no GPU's launch path.
    if (!o || !o->head.ok || !o->head.on_gpu || o->head.cpu_device || o->elements > 0 || o->graph) continue;
    if (best > 0 && o->per_op_s >= best) continue;
    best = o->per_op_s;
    if (device) *device = shortDeviceName(s.result);
  }
  return best;
}

QString AlternativesPage::verdictText() const {
  const double n = crossover();
  const QString card = m_card->currentText();
  if (cpuSeconds(64) <= 0) return tr("This CPU's peak is unknown here, so the two cannot be compared.");
  if (n <= 0)
    return tr("Up to n = 16,384 this CPU finishes first: the %1's copies and launch never pay off here "
              "<i>(model from the measured CPU peak and the datasheet)</i>.").arg(card);
  QString text = tr("Below n ≈ <b>%1</b> this CPU finishes first (n = 64: %2 here against %3 on the %4); above it the card "
                    "wins by up to %5× <i>(model: measured CPU peak, datasheet card)</i>.")
                     .arg(fmtCount(qint64(std::llround(n))), fmtSeconds(cpuSeconds(64)), fmtSeconds(gpuSeconds(64)), card,
                          fmtCount(qint64(std::llround(cpuSeconds(16384) / gpuSeconds(16384)))));
  // The launch measured on a real GPU (gpulab bench --suite roofs, here or in an opened recording): the crossover
  // with that floor instead of the spin box's figure.
  QString device;
  if (const double launch = measuredLaunchS(&device); launch > 0) {
    const double measured = crossoverWithLaunch(launch);
    text += QStringLiteral(" ") +
            (measured > 0 ? tr("With the launch + wait measured on %1 (<b>%2</b>), the CPU wins below n ≈ <b>%3</b>.")
                                .arg(device.toHtmlEscaped(), fmtSeconds(launch), fmtCount(qint64(std::llround(measured))))
                          : tr("With the launch + wait measured on %1 (<b>%2</b>), this CPU finishes first up to "
                               "n = 16,384.").arg(device.toHtmlEscaped(), fmtSeconds(launch)));
  }
  return text;
}

QString AlternativesPage::vendorText() const {
  // One wrapped line per chip, not a table: the column stays narrow enough for a projector at 1366×768.
  auto line = [](const char* name, const char* software) {
    const models::GpuSpec* g = models::find_gpu(name);
    if (!g) return QString();
    return tr("<b>%1</b> (%2): %3 GB %4 · %5 · FP16 %6 dense · %7 · %8")
        .arg(QString::fromStdString(g->name).toHtmlEscaped(), QString::fromStdString(g->vendor).toHtmlEscaped(),
             fmtFixed(g->memory_gb, 0), QString::fromStdString(g->memory_type).toHtmlEscaped(),
             fmtSi(g->bandwidth_gbs * 1e9, "B/s"), fmtSi(g->fp16_tflops.value_or(0) * 1e12, "FLOP/s"),
             QString::fromStdString(g->interconnect_name()).toHtmlEscaped(), QLatin1String(software));
  };
  return line("H100 SXM", "CUDA") + QStringLiteral("<br><br>") + line("MI300X", "ROCm") +
         tr("<br><br>More memory and bandwidth on paper; whether a team's code runs well on it decides.");
}

void AlternativesPage::replot() {
  const QVector<double> n = sizes();
  QVector<double> cpu, gpu, peak;
  const models::GpuSpec* g = models::find_gpu(m_card->currentData().toString().toStdString());
  for (double v : n) {
    cpu.push_back(cpuSeconds(v));
    gpu.push_back(gpuSeconds(v));
    peak.push_back(g && g->fp32_tflops ? 2 * v * v * v / (*g->fp32_tflops * 1e12) : 0);
  }
  m_cpu->setData(n, cpu, true);
  m_gpu->setData(n, gpu, true);
  m_gpuPeak->setData(n, peak, true);
  m_plot->xAxis->setRange(n.front(), n.back());
  double lo = 1e300, hi = 0;
  for (const auto* v : {&cpu, &gpu, &peak})
    for (double x : *v)
      if (x > 0) lo = std::min(lo, x), hi = std::max(hi, x);
  if (hi > 0) m_plot->yAxis->setRange(lo / 2, hi * 2);
  const double cross = crossover();
  m_cross->setVisible(cross > 0);
  m_cross->point1->setCoords(cross > 0 ? cross : 1, 1e-9);
  m_cross->point2->setCoords(cross > 0 ? cross : 1, 1);
  m_plot->replot();

  const DeviceInfo& ci = m_ctx.cpuInfo();
  const bool measured = ci.peak_source.rfind("measured", 0) == 0;
  QString how = QString::fromStdString(ci.peak_source);
  if (how.startsWith(QLatin1String("measured: "))) how = how.mid(10);
  m_cpuBadge->set(measured ? SourceBadge::Kind::MeasuredHere : SourceBadge::Kind::Model, tr("CPU peak: %1").arg(how));
  if (g) m_gpuBadge->set(SourceBadge::Kind::Datasheet, QString::fromStdString(g->source));
  m_verdict->setText(verdictText());
  m_vendors->setText(vendorText());
}

void AlternativesPage::applyTheme(const Theme& t) {
  Page::applyTheme(t);
  stylePlot(m_plot, t);
  styleGraph(m_cpu, t, t.cpu, SeriesKind::Model);
  QPen cpuPen = seriesPen(t, t.cpu, SeriesKind::Model);
  cpuPen.setWidthF(t.lineWidth);
  m_cpu->setPen(cpuPen);
  styleGraph(m_gpu, t, t.gpu, SeriesKind::Model);
  QPen gpuPen = seriesPen(t, t.gpu, SeriesKind::Model);
  gpuPen.setWidthF(t.lineWidth);
  m_gpu->setPen(gpuPen);
  styleGraph(m_gpuPeak, t, t.gpu, SeriesKind::Datasheet);
  m_cross->setPen(QPen(t.mutedText, 1, Qt::DashDotLine));
  m_plot->replot();
}

QList<PlotExport> AlternativesPage::plots() {
  return {PlotExport{QStringLiteral("cpu_or_gpu"), tr("Small work: CPU or GPU?"), m_plot, nullptr, [this] {
                       QString csv = QStringLiteral("n,cpu_s (model: measured peak),gpu_with_copies_s (model),"
                                                    "gpu_arithmetic_s (datasheet)\n");
                       const auto* c = m_cpu->data().data();
                       const auto* g = m_gpu->data().data();
                       const auto* p = m_gpuPeak->data().data();
                       for (int i = 0; i < c->size(); ++i)
                         csv += QStringLiteral("%1,%2,%3,%4\n")
                                    .arg(c->at(i)->key, 0, 'f', 1)
                                    .arg(c->at(i)->value, 0, 'g', 6)
                                    .arg(g->at(i)->value, 0, 'g', 6)
                                    .arg(p->at(i)->value, 0, 'g', 6);
                       return csv;
                     }}};
}

GPULAB_REGISTER_PAGE(105, AlternativesPage);

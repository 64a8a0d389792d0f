#include "pages/batch_page.h"

#include "app_context.h"
#include "export/plot_csv.h"
#include "format.h"
#include "gpulab/experiments.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "models/batch_sweep.h"
#include "models/guarded_conclusions.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/roofline_plot.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

using gpulab::Precision;

namespace {

QString precName(Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }

std::string chooseVariant(gpulab::Backend& be, const gpulab::GemmSpec& spec) {
  return gpulab::models::library_gemm_variant(be, spec);
}

int log2i(long long v) {
  int e = 0;
  while ((1LL << (e + 1)) <= v) ++e;
  return e;
}

}  // namespace

BatchPage::BatchPage(AppContext& ctx) : Page(ctx) {
  auto* visual = new QSplitter(Qt::Horizontal, this);
  m_plot = new QCustomPlot(visual);
  m_plot->setObjectName(QStringLiteral("batchPlot"));
  m_plot->setMinimumSize(360, 260);
  m_roof = new RooflinePlot(visual);
  m_roof->setCompact(true);
  m_roof->setTitle(tr("Each point on the roofline"));
  m_roof->setMinimumWidth(260);
  visual->addWidget(m_plot);
  visual->addWidget(m_roof);
  visual->setStretchFactor(0, 3);
  visual->setStretchFactor(1, 2);
  setVisual(visual);

  m_badge = new SourceBadge(SourceBadge::Kind::MeasuredHere, QString());
  m_recordedBadge = new SourceBadge(SourceBadge::Kind::Recorded, QString());
  m_modelBadge = new SourceBadge(SourceBadge::Kind::Model, tr("dotted"));
  for (SourceBadge* b : {m_badge, m_recordedBadge, m_modelBadge}) addBadge(b);

  m_modelLabel = addResultLabel(1, Qt::RichText);
  m_crossLabel = addResultLabel(1, Qt::RichText);
  m_lastLabel = addResultLabel(1, Qt::RichText);
  m_modelLabel->setToolTip(tr("The model: the ridge point is peak ÷ bandwidth; the batch where the layer's FLOPs "
                              "per byte reach it is where it should turn compute-bound."));
  m_crossLabel->setToolTip(tr("The measured crossover: the first batch reaching 80 % of the best FLOP/s seen, "
                              "provided slower (memory-bound) batches came before it and the plateau after it."));
  m_lastLabel->setToolTip(tr("The most recent measurement of the sweep."));

  m_table = new QTableWidget(0, 7, this);
  m_table->setHorizontalHeaderLabels(
      {tr("B"), tr("time"), tr("FLOP/s"), tr("spread"), tr("bytes"), tr("FLOP/B"), tr("GB/s")});
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setToolTip(tr("Every batch size of the sweep: median time, FLOP/s with its spread over the samples "
                         "(half the range from the slowest to the fastest), bytes by the lesson's count (X, W and Y "
                         "once each), FLOPs per byte and the bandwidth that implies."));
  sideTabs()->addTab(m_table, tr("Numbers"));

  buildControls();
  runBar()->setRunText(tr("Run sweep"));
  runBar()->runButton()->setToolTip(tr("Measure the triad bandwidth, then Y = X·W for every batch size (Space)."));

  m_replot = makeRedrawTimer([this] { replot(); });

  // A bandwidth measured earlier in this session (e.g. on the Roofline page) gives the model a start.
  for (const auto& s : m_ctx.results().all())
    if (s.source < 0 && s.result.ok() && s.result.experiment == "bandwidth" && s.result.backend == "cpu")
      m_bandwidth = std::max(m_bandwidth, s.result.gbps * 1e9);
  updateLabels();
  recordingsChanged();
}

void BatchPage::buildControls() {
  auto* form = new QFormLayout;
  m_backend = new QComboBox(this);
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_backend->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_backend->setMinimumContentsLength(10);
  m_backend->addItem(tr("CPU · OpenBLAS, all cores"), QStringLiteral("cpu"));
  if (m_ctx.hasGpu())
    m_backend->addItem(tr("GPU · %1").arg(QString::fromStdString(m_ctx.gpuInfo()->name)), QStringLiteral("cuda"));
  else
    m_backend->setToolTip(tr("Where the sweep runs. No GPU here: %1").arg(m_ctx.gpuReason()));
  if (m_ctx.hasGpu()) {
    m_backend->setCurrentIndex(1);
    m_backend->setToolTip(tr("Where the sweep runs: the CPU through OpenBLAS or the GPU through cuBLAS."));
  }
  form->addRow(tr("Device"), m_backend);

  m_precision = new QComboBox(this);
  form->addRow(tr("Precision"), m_precision);
  m_precision->setToolTip(tr("Number format of X, W and Y. Fewer bytes per element raise the FLOPs per byte of "
                             "every batch; greyed formats are not available on this device (hover for why)."));

  auto slider = [this, form](const QString& name, int lo, int hi, int value, QSlider** s, QLabel** label,
                             const QString& tip) {
    auto* row = new QHBoxLayout;
    *s = new QSlider(Qt::Horizontal, this);
    (*s)->setRange(lo, hi);
    (*s)->setValue(value);
    (*s)->setPageStep(1);
    (*s)->setToolTip(tip);
    *label = new QLabel(this);
    (*label)->setToolTip(tip);
    row->addWidget(*s, 1);
    row->addWidget(*label);
    form->addRow(name, row);
    connect(*s, &QSlider::valueChanged, this, [this] { updateLabels(); });
  };
  slider(tr("d_in"), 8, 13, 12, &m_dIn, &m_dInLabel,
         tr("Columns of X = rows of W (the layer's input width), 256 … 8192. The lesson uses 4096."));
  slider(tr("d_out"), 8, 13, 12, &m_dOut, &m_dOutLabel,
         tr("Columns of W and Y (the layer's output width), 256 … 8192. The lesson uses 4096."));
  slider(tr("largest B"), 0, 10, 10, &m_maxB, &m_maxBLabel,
         tr("The sweep runs B = 1, 2, 4 … up to this batch (rows of X: tokens or examples at once)."));

  m_list = new QLineEdit(this);
  m_list->setPlaceholderText(tr("custom, e.g. 1, 3, 8, 24, 100"));
  m_list->setToolTip(tr("Your own batch sizes, separated by commas (1 … 65,536). Empty: powers of two up to "
                        "the largest B."));
  form->addRow(tr("B list"), m_list);
  connect(m_list, &QLineEdit::textChanged, this, [this] { updateLabels(); });

  m_budget = new QComboBox(this);
  m_budget->addItem(tr("Quick (≈0.2 s per size)"), 0.2);
  m_budget->addItem(tr("Careful (≈1 s per size)"), 1.0);
  m_budget->setToolTip(tr("How long each batch size is timed after its check: longer means more samples and a "
                          "steadier median on a busy machine."));
  form->addRow(tr("Timing"), m_budget);
  controls()->addLayout(form);

  auto* presets = new QHBoxLayout;
  auto* lessonBtn = new QPushButton(tr("Lesson: 4096², FP16"), this);
  lessonBtn->setToolTip(tr("d_in = d_out = 4096, B = 1 … 1024, FP16 where the device has it (FP32 otherwise): "
                           "the lesson's gpu_numbers.py."));
  auto* quickBtn = new QPushButton(tr("Quick: 1024²"), this);
  quickBtn->setToolTip(tr("A small layer (1024 × 1024) up to B = 256: a sweep in a couple of seconds, though its "
                          "weights fit in a CPU's cache, which flatters the memory-bound end."));
  presets->addWidget(lessonBtn);
  presets->addWidget(quickBtn);
  controls()->addLayout(presets);
  connect(lessonBtn, &QPushButton::clicked, this, [this] {
    m_list->clear();
    setDims(4096, 4096);
    setMaxBatch(1024);
    setPrecision(Precision::fp16);
    if (precision() != Precision::fp16) setPrecision(Precision::fp32);
  });
  connect(quickBtn, &QPushButton::clicked, this, [this] {
    m_list->clear();
    setDims(1024, 1024);
    setMaxBatch(256);
  });

  auto* note = new QLabel(tr("The crossover is found from the points (80 % of the plateau), not assumed; the "
                             "model's ridge uses the FMA peak and the triad bandwidth measured at the start of "
                             "the sweep."),
                          this);
  note->setWordWrap(true);
  note->setObjectName(QStringLiteral("batchNote"));
  controls()->addWidget(note);

  connect(m_backend, &QComboBox::currentIndexChanged, this, [this] {
    refillPrecisions();
    updateLabels();
  });
  connect(m_precision, &QComboBox::currentIndexChanged, this, [this] { updateLabels(); });
  refillPrecisions();
}

gpulab::Backend& BatchPage::backend() {
  if (m_backend->currentData().toString() == QStringLiteral("cuda") && m_ctx.cuda()) return *m_ctx.cuda();
  return m_ctx.cpu();
}

void BatchPage::refillPrecisions() {
  const QSignalBlocker block(m_precision);
  const int previous = m_precision->currentIndex() >= 0 ? m_precision->currentData().toInt() : -1;
  m_precision->clear();
  auto* model = qobject_cast<QStandardItemModel*>(m_precision->model());
  gpulab::Backend& be = backend();
  int firstOk = -1, keep = -1;
  for (Precision p : gpulab::all_precisions) {
    gpulab::GemmSpec s;
    s.m = 1;
    s.precision = p;
    const std::string v = chooseVariant(be, s);
    s.variant = v.empty() ? "blas" : v;
    const gpulab::Support sup = be.supports(s);
    m_precision->addItem(precName(p), static_cast<int>(p));
    const int i = m_precision->count() - 1;
    if (model) {
      model->item(i)->setEnabled(sup.ok);
      model->item(i)->setToolTip(sup.ok ? tr("%1 through %2").arg(precName(p), QString::fromStdString(s.variant))
                                        : QString::fromStdString(sup.reason));
    }
    if (sup.ok && firstOk < 0) firstOk = i;
    if (sup.ok && static_cast<int>(p) == previous) keep = i;
    // FP32 by default: the one format every device runs, and TF32 never stands in for it silently.
    if (sup.ok && p == Precision::fp32 && previous < 0) keep = i;
  }
  m_precision->setCurrentIndex(keep >= 0 ? keep : std::max(0, firstOk));
}

void BatchPage::setDims(int dIn, int dOut) {
  m_dIn->setValue(log2i(std::max(256, dIn)));
  m_dOut->setValue(log2i(std::max(256, dOut)));
  updateLabels();
}

void BatchPage::setMaxBatch(int maxBatch) { m_maxB->setValue(log2i(std::clamp(maxBatch, 1, 1024))); }

void BatchPage::setBatchList(const QString& text) { m_list->setText(text); }

void BatchPage::setPrecision(Precision p) {
  const int i = m_precision->findData(static_cast<int>(p));
  auto* model = qobject_cast<QStandardItemModel*>(m_precision->model());
  if (i >= 0 && (!model || model->item(i)->isEnabled())) m_precision->setCurrentIndex(i);
}

Precision BatchPage::precision() const { return static_cast<Precision>(m_precision->currentData().toInt()); }
int BatchPage::dIn() const { return 1 << m_dIn->value(); }
int BatchPage::dOut() const { return 1 << m_dOut->value(); }

QVector<long long> BatchPage::batches() const {
  std::set<long long> out;
  const QStringList parts = m_list->text().split(QRegularExpression(QStringLiteral("[\\s,;]+")), Qt::SkipEmptyParts);
  for (const QString& part : parts) {
    bool ok = false;
    const long long b = part.toLongLong(&ok);
    if (ok && b >= 1 && b <= 65536) out.insert(b);
  }
  if (out.empty())
    for (int e = 0; e <= m_maxB->value(); ++e) out.insert(1LL << e);
  return QVector<long long>(out.begin(), out.end());
}

double BatchPage::peakFlops() const {
  const Precision p = m_sweep.isEmpty() ? precision() : m_sweepPrecision;
  const bool onGpu = m_sweep.isEmpty() ? m_backend->currentData().toString() == QStringLiteral("cuda") : m_sweepOnGpu;
  if (onGpu && m_ctx.gpuInfo()) {
    // A GPU's roof comes from its datasheet (dense); the module's clock model is the fallback for FP32/FP64.
    if (const auto* spec = gpulab::models::find_gpu(m_ctx.gpuInfo()->name))
      if (const auto peak = spec->peak_flops_for(p)) return *peak;
    if (p == Precision::fp64) return m_ctx.gpuInfo()->peak_gflops_fp64 * 1e9;
    return m_ctx.gpuInfo()->peak_gflops_fp32 * 1e9;
  }
  // The CPU's roof: the FMA peak the backend measured with register-only FMA chains.
  return (p == Precision::fp64 ? m_ctx.cpuInfo().peak_gflops_fp64 : m_ctx.cpuInfo().peak_gflops_fp32) * 1e9;
}

double BatchPage::modelRidge() const { return gpulab::models::ridge_point(peakFlops(), m_bandwidth); }

double BatchPage::modelCrossoverBatch() const {
  const Precision p = m_sweep.isEmpty() ? precision() : m_sweepPrecision;
  return gpulab::models::crossover_batch_for_ridge(modelRidge(), gpulab::bytes_per_element(p),
                                                   m_sweep.isEmpty() ? dIn() : m_sweepDIn,
                                                   m_sweep.isEmpty() ? dOut() : m_sweepDOut);
}

void BatchPage::updateLabels() {
  m_dInLabel->setText(fmtCount(dIn()));
  m_dOutLabel->setText(fmtCount(dOut()));
  const QVector<long long> bs = batches();
  m_maxBLabel->setText(m_list->text().trimmed().isEmpty() ? fmtCount(1LL << m_maxB->value()) : tr("(list)"));
  const double bpe = gpulab::bytes_per_element(precision());
  double flops = 0;
  for (long long b : bs) flops += gpulab::models::matmul_flops(double(b), dIn(), dOut());
  m_maxB->setToolTip(tr("The sweep runs B = 1, 2, 4 … up to this batch. Now: %1 sizes, %2 per pass, weights %3.")
                         .arg(bs.size())
                         .arg(fmtSi(flops, "FLOP"), fmtBytes(bpe * dIn() * dOut())));
  scheduleReplot();
}

void BatchPage::run() {
  gpulab::Backend& be = backend();
  const Precision p = precision();
  const QVector<long long> bs = batches();
  const int di = dIn(), dout = dOut();
  gpulab::GemmSpec probe;
  probe.m = 1;
  probe.precision = p;
  const std::string variant = chooseVariant(be, probe);
  if (variant.empty()) {
    probe.variant = "blas";
    runBar()->showError(tr("%1 cannot run here: %2")
                            .arg(precName(p), QString::fromStdString(be.supports(probe).reason)));
    return;
  }
  m_sweep.clear();
  m_table->setRowCount(0);
  m_sweepPrecision = p;
  m_sweepDIn = di;
  m_sweepDOut = dout;
  m_sweepOnGpu = be.kind() == "cuda";
  m_sweepDevice = QString::fromStdString(be.device_info().name);
  m_bandwidth = 0;
  m_crossFound = false;
  m_crossBatch = 0;
  m_crossReason = tr("sweep running");
  m_roof->setHighlight(0, 0, {});
  m_busy.start();
  updateLabels();

  gpulab::MeasurePolicy policy;
  policy.min_samples = 2;
  policy.max_samples = 30;
  policy.warmup_runs = 0;  // the check run already warmed caches and clocks
  policy.time_budget_s = m_budget->currentData().toDouble();
  policy.target_rel_spread = 0.05;
  gpulab::Backend* bePtr = &be;
  const std::vector<long long> list(bs.begin(), bs.end());
  startJob(tr("Batch sweep %1×%2 %3").arg(di).arg(dout).arg(precName(p)),
           [bePtr, list, di, dout, p, variant](const gpulab::RunContext& ctx) {
             // Progress by work: the big batches are where the time goes.
             double total = 0;
             for (long long b : list) total += gpulab::models::matmul_flops(double(b), di, dout);
             const double streamShare = 0.08;
             gpulab::RunContext sub = ctx;
             sub.progress_base = 0;
             sub.progress_span = streamShare;
             // First the memory roof, measured in the same run as the points it explains.
             gpulab::BandwidthSpec bw;
             bw.kind = "triad";
             bw.bytes_per_array = bePtr->kind() == "cuda" ? (std::size_t(1) << 30) : (std::size_t(64) << 20);
             gpulab::run_bandwidth(*bePtr, bw, sub);
             double done = 0;
             for (long long b : list) {
               if (ctx.cancelled()) break;
               const double f = gpulab::models::matmul_flops(double(b), di, dout);
               sub.progress_base = streamShare + (1 - streamShare) * done / total;
               sub.progress_span = (1 - streamShare) * f / total;
               gpulab::GemmSpec s;
               s.m = b;
               s.k = di;
               s.n = dout;
               s.precision = p;
               s.variant = variant;
               gpulab::run_gemm(*bePtr, s, sub);
               done += f;
             }
           },
           policy);
}

void BatchPage::onResult(const gpulab::Result& r) {
  if (r.experiment == "bandwidth") {
    if (r.ok()) m_bandwidth = r.gbps * 1e9;
    else runBar()->showError(tr("The bandwidth run failed: %1").arg(QString::fromStdString(r.error)));
    scheduleReplot();
    return;
  }
  if (r.experiment != "gemm") return;
  if (!r.ok()) {
    runBar()->showError(tr("B = %1: %2").arg(r.param("m")).arg(QString::fromStdString(r.error)));
    return;
  }
  SweepPoint pt;
  pt.batch = static_cast<long long>(r.param("m"));
  pt.seconds = r.stats.median_s;
  pt.flops = r.flops;
  pt.flopsPerS = r.gflops * 1e9;
  pt.bytes = r.bytes;
  pt.intensity = r.bytes > 0 ? r.flops / r.bytes : 0;
  pt.gbps = r.gbps;
  const gpulab::models::RateRange range = gpulab::models::gflops_range(r);
  pt.lowFlopsPerS = range.low * 1e9;
  pt.highFlopsPerS = range.high * 1e9;
  pt.samples = range.samples;
  m_busy.note(r.stats.rel_spread, r.stats.median_s);
  m_sweep.push_back(pt);

  const int row = m_table->rowCount();
  m_table->insertRow(row);
  const QStringList cells{fmtCount(pt.batch), fmtSeconds(pt.seconds), fmtSi(pt.flopsPerS, "FLOP/s"),
                          QString::fromStdString(gpulab::models::spread_text(range)), fmtBytes(pt.bytes), fmtFixed(pt.intensity, pt.intensity < 10 ? 2 : 1),
                          fmtFixed(pt.gbps, 1)};
  for (int c = 0; c < cells.size(); ++c) {
    auto* item = new QTableWidgetItem(cells[c]);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_table->setItem(row, c, item);
  }
  m_lastLabel->setText(tr("<b>B = %1</b>: %2, %3, %4 moved, <b>%5 FLOP/B</b>, %6")
                           .arg(fmtCount(pt.batch), fmtSeconds(pt.seconds), fmtSi(pt.flopsPerS, "FLOP/s"),
                                fmtBytes(pt.bytes), fmtFixed(pt.intensity, pt.intensity < 10 ? 2 : 1),
                                fmtSi(pt.gbps * 1e9, "B/s")));
  scheduleReplot();
}

void BatchPage::findCrossover() {
  // Stated only where the points' spreads support it (models/guarded_conclusions): a zig-zag is not a crossover.
  std::vector<gpulab::models::BatchPoint> pts;
  for (const SweepPoint& s : m_sweep)
    pts.push_back({double(s.batch), s.intensity, {s.lowFlopsPerS, s.flopsPerS, s.highFlopsPerS, s.samples}});
  const gpulab::models::GuardedCrossover c = gpulab::models::guarded_crossover(pts);
  m_crossFound = c.conclusion.stated;
  m_crossReason = QString::fromStdString(c.conclusion.text);
  m_crossBatch = static_cast<long long>(c.batch);
  m_crossIntensity = c.intensity;
  m_crossFlops = c.rate;
}

void BatchPage::onRunFinished(bool cancelled) {
  if (!m_sweepOnGpu) m_busy.finish();  // a GPU sweep's timings do not depend on the CPU's other programs
  findCrossover();
  if (m_crossFound)
    m_roof->setHighlight(m_crossIntensity, m_crossFlops, tr("crossover B = %1").arg(fmtCount(m_crossBatch)));
  runBar()->showStatus(cancelled ? tr("Cancelled: %1 sizes measured, kept.").arg(m_sweep.size()) : crossoverText());
  replot();
}

QString BatchPage::crossoverText() const {
  if (m_crossFound)
    return tr("Measured: compute-bound from B = %1 (%2 FLOP/B, %3)")
        .arg(fmtCount(m_crossBatch), fmtFixed(m_crossIntensity, 1), fmtSi(m_crossFlops, "FLOP/s"));
  if (m_sweep.isEmpty()) return tr("No sweep yet: press Run sweep (Space).");
  return tr("No crossover found: %1").arg(m_crossReason);
}

void BatchPage::recordingsChanged() { scheduleReplot(); }

void BatchPage::scheduleReplot() { m_replot->start(); }

void BatchPage::replot() {
  const Theme& theme = m_ctx.theme();
  m_plot->clearGraphs();
  m_plot->clearItems();
  stylePlot(m_plot, theme);
  useLogAxis(m_plot, true);
  useLogAxis(m_plot, false, QStringLiteral("FLOP/s"));
  m_plot->xAxis->setLabel(tr("Batch size B (rows of X)"));
  m_plot->yAxis->setLabel(tr("Achieved speed"));
  m_plot->legend->setVisible(true);
  m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

  const bool onGpu = m_sweep.isEmpty() ? m_backend->currentData().toString() == QStringLiteral("cuda") : m_sweepOnGpu;
  const QColor hw = onGpu ? theme.gpu : theme.cpu;
  const Precision p = m_sweep.isEmpty() ? precision() : m_sweepPrecision;
  const double di = m_sweep.isEmpty() ? dIn() : m_sweepDIn, dout = m_sweep.isEmpty() ? dOut() : m_sweepDOut;
  const double bpe = gpulab::bytes_per_element(p);
  const double peak = peakFlops();

  const QVector<long long> planned = batches();
  double bmin = planned.isEmpty() ? 1 : double(planned.front()), bmax = planned.isEmpty() ? 1024 : double(planned.back());
  for (const SweepPoint& s : m_sweep) {
    bmin = std::min(bmin, double(s.batch));
    bmax = std::max(bmax, double(s.batch));
  }
  double ylo = std::numeric_limits<double>::infinity(), yhi = 0;

  // The model, as soon as a bandwidth is known: attainable = min(peak, I(B) · bandwidth).
  if (m_bandwidth > 0 && peak > 0) {
    QVector<double> xs, ys;
    for (double lb = std::log2(bmin); lb <= std::log2(bmax) + 1e-9; lb += 0.05) {
      const double b = std::exp2(lb);
      const double I = gpulab::models::arithmetic_intensity(b, di, dout, bpe);
      xs << b;
      ys << gpulab::models::attainable_flops(peak, m_bandwidth, I);
    }
    QCPGraph* g = m_plot->addGraph();
    g->setName(tr("model: min(%1 peak, FLOP/B × %2)").arg(fmtSi(peak, "FLOP/s"), fmtSi(m_bandwidth, "B/s")));
    g->setData(xs, ys, true);
    styleGraph(g, theme, theme.model, SeriesKind::Model);
    tagSource(g, tr("model"));
    for (double y : ys) {
      ylo = std::min(ylo, y);
      yhi = std::max(yhi, y);
    }
    const double bx = modelCrossoverBatch();
    if (bx > 0) {
      auto* line = new QCPItemStraightLine(m_plot);
      line->point1->setCoords(bx, 1);
      line->point2->setCoords(bx, 2);
      line->setPen(seriesPen(theme, theme.model, SeriesKind::Model));
    }
  }

  // Recorded sweeps of the same shape: hollow marks, so a laptop class sees what a datacentre GPU does.
  QMap<QString, QPair<QVector<double>, QVector<double>>> recorded;
  QMap<QString, QColor> recordedColor;  // by the result's backend: a recorded CPU sweep is orange, not green
  QMap<QString, QString> recordedSource;
  for (const auto& s : m_ctx.results().all()) {
    const auto& r = s.result;
    if (s.source < 0 || !r.ok() || r.experiment != "gemm" || r.param("k") != di || r.param("n") != dout) continue;
    if (r.param("m") == r.param("k")) continue;  // a square GEMM is a ceiling run, not part of a sweep
    const QString key = tr("%1 %2 · %3").arg(shortDeviceName(r), precName(r.precision), m_ctx.results().sourceLabel(s.source));
    recordedSource[key] = m_ctx.results().sourceLabel(s.source);
    recordedColor[key] = r.backend == "cuda" ? theme.gpu : theme.cpu;
    recorded[key].first << r.param("m");
    recorded[key].second << r.gflops * 1e9;
  }
  QVector<RooflinePlot::Point> roofPts;
  for (auto it = recorded.cbegin(); it != recorded.cend(); ++it) {
    if (it.value().first.size() < 3) continue;
    QCPGraph* g = m_plot->addGraph();
    g->setName(it.key());
    g->setData(it.value().first, it.value().second);
    styleGraph(g, theme, recordedColor.value(it.key(), theme.gpu), SeriesKind::Recorded);
    tagSource(g, recordedSource.value(it.key()));
    for (double y : it.value().second) {
      ylo = std::min(ylo, y);
      yhi = std::max(yhi, y);
    }
    for (double x : it.value().first) {
      bmin = std::min(bmin, x);
      bmax = std::max(bmax, x);
    }
  }

  // This sweep, measured here.
  {
    QVector<double> xs, ys, lows, highs;
    QVector<SweepPoint> sorted = m_sweep;
    std::sort(sorted.begin(), sorted.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.batch < b.batch; });
    for (const SweepPoint& s : sorted) {
      xs << double(s.batch);
      ys << s.flopsPerS;
      lows << s.lowFlopsPerS;
      highs << s.highFlopsPerS;
      ylo = std::min(ylo, s.flopsPerS);
      yhi = std::max(yhi, s.flopsPerS);
      RooflinePlot::Point rp;
      rp.intensity = s.intensity;
      rp.flops = s.flopsPerS;
      rp.color = hw;
      rp.group = tr("B sweep");
      rp.tooltip = tr("B = %1, %2×%3 %4 on %5\n%6 (samples %8 – %9) at %7 FLOP/B\nmeasured here")
                       .arg(fmtCount(s.batch))
                       .arg(int(di))
                       .arg(int(dout))
                       .arg(precName(p), m_sweepDevice, fmtSi(s.flopsPerS, "FLOP/s"), fmtFixed(s.intensity, 2),
                            fmtSi(s.lowFlopsPerS, "FLOP/s"), fmtSi(s.highFlopsPerS, "FLOP/s"));
      roofPts << rp;
    }
    QCPGraph* g = m_plot->addGraph();
    g->setName(m_sweep.isEmpty() ? tr("measured here (press Run sweep)")
                                 : tr("measured here: %1 %2×%3").arg(precName(p)).arg(int(di)).arg(int(dout)));
    g->setData(xs, ys, true);
    styleGraph(g, theme, hw, SeriesKind::Measured);
    tagSource(g, tr("measured here"));
    addSpreadBars(g, ys, lows, highs, hw.darker(140));
  }

  // The measured crossover.
  if (m_crossFound && m_crossBatch > 0) {
    auto* line = new QCPItemStraightLine(m_plot);
    line->point1->setCoords(double(m_crossBatch), 1);
    line->point2->setCoords(double(m_crossBatch), 2);
    line->setPen(QPen(theme.good, theme.lineWidth));
    auto* t = new QCPItemText(m_plot);
    t->position->setType(QCPItemPosition::ptPlotCoords);
    t->position->setCoords(double(m_crossBatch), std::isfinite(ylo) ? ylo : 1);
    t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    t->setPadding(QMargins(6, 2, 2, 4));
    t->setText(tr("measured crossover\nB = %1").arg(fmtCount(m_crossBatch)));
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(theme.plotFontPt);
    f.setBold(true);
    t->setFont(f);
    t->setColor(theme.good.darker(theme.dark ? 80 : 130));
    t->setTextAlignment(Qt::AlignLeft);
  }
  if (const double bx = modelCrossoverBatch(); bx > 0 && m_bandwidth > 0) {
    auto* t = new QCPItemText(m_plot);
    t->position->setCoords(bx, std::isfinite(yhi) && yhi > 0 ? yhi : 1);
    t->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    t->setPadding(QMargins(2, 2, 6, 2));
    t->setText(tr("model ridge\nB ≈ %1").arg(fmtFixed(bx, bx < 10 ? 1 : 0)));
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(theme.plotFontPt);
    t->setFont(f);
    t->setColor(theme.mutedText);
    t->setTextAlignment(Qt::AlignRight);
  }

  // One badge per source drawn: "measured here" only once this machine has measured a point.
  m_badge->setVisible(!m_sweep.isEmpty());
  m_recordedBadge->setVisible(!recordedSource.isEmpty());
  if (!recordedSource.isEmpty()) m_recordedBadge->set(SourceBadge::Kind::Recorded, recordedSource.first());
  fitBadges();
  if (m_sweep.isEmpty() && recorded.isEmpty()) {
    // Nothing measured yet: say what will appear here rather than leave an empty grid.
    auto* hint = new QCPItemText(m_plot);
    hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    hint->position->setCoords(0.5, 0.45);
    hint->setText(tr("Run sweep (Space):\none point per batch size"));
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(theme.plotFontPt);
    hint->setFont(f);
    hint->setColor(theme.mutedText);
    hint->setTextAlignment(Qt::AlignCenter);
  }
  if (!std::isfinite(ylo) || yhi <= 0) {
    ylo = onGpu ? 1e11 : 1e9;
    yhi = onGpu ? 1e15 : 1e11;
  }
  m_plot->xAxis->setRange(bmin / 1.5, bmax * 1.5);
  m_plot->yAxis->setRange(ylo / 2, yhi * 2.5);
  m_plot->replot();

  // The small roofline: the model's roof for this device and the sweep's points.
  QVector<RooflinePlot::Roof> roofs;
  if (peak > 0) {
    RooflinePlot::Roof r;
    r.label = tr("model roof");
    r.peakFlops = peak;
    r.bandwidth = m_bandwidth;
    r.color = theme.model;
    r.kind = SeriesKind::Model;
    roofs << r;
  }
  m_roof->setRoofs(roofs);
  m_roof->setPoints(roofPts);

  // The strip.
  const double ridge = modelRidge();
  const double bx = modelCrossoverBatch();
  const QString peakWhat = onGpu ? tr("datasheet") : tr("FMA");
  if (m_bandwidth > 0 && peak > 0) {
    m_modelLabel->setText(tr("<b>Model</b>: %1 peak (%2) ÷ %3 triad = ridge <b>%4 FLOP/B</b> → compute-bound "
                             "from <b>B ≈ %5</b>")
                              .arg(fmtSi(peak, "FLOP/s"), peakWhat, fmtSi(m_bandwidth, "B/s"),
                                   fmtFixed(ridge, ridge < 10 ? 1 : 0),
                                   bx > 0 ? fmtFixed(bx, bx < 10 ? 1 : 0) : tr("never at this width")));
  } else {
    m_modelLabel->setText(tr("<b>Model</b>: %1 peak (%2); the bandwidth is measured at the start of the sweep.")
                              .arg(fmtSi(peak, "FLOP/s"), peakWhat));
  }
  const QString warning = busyWarningHtml(m_busy, theme);
  m_crossLabel->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                        QStringLiteral("<b>%1</b>").arg(crossoverText().toHtmlEscaped()));
  if (m_sweep.isEmpty()) {
    const double i1 = gpulab::models::arithmetic_intensity(1, di, dout, bpe);
    m_lastLabel->setText(tr("%1 sizes planned; B = 1 does %2 FLOP/B, B = %3 does %4 FLOP/B (%5).")
                             .arg(planned.size())
                             .arg(fmtFixed(i1, 2), fmtCount(static_cast<long long>(bmax)),
                                  fmtFixed(gpulab::models::arithmetic_intensity(bmax, di, dout, bpe), 1), precName(p)));
  }
}

void BatchPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_roof->applyTheme(theme);
  for (QLabel* l : {m_modelLabel, m_crossLabel, m_lastLabel})
    l->setStyleSheet(QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt));
  // Slider values keep room for their widest text ("8,192", "(list)") at the theme's font size.
  QFont valueFont = font();
  valueFont.setPointSize(theme.baseFontPt);
  const QFontMetrics fm(valueFont);
  const int valueW = std::max(fm.horizontalAdvance(QStringLiteral("8,192")), fm.horizontalAdvance(tr("(list)"))) + 8;
  for (QLabel* l : {m_dInLabel, m_dOutLabel, m_maxBLabel}) {
    l->setFont(valueFont);
    l->setMinimumWidth(valueW);
  }
  replot();
}

QList<PlotExport> BatchPage::plots() {
  PlotExport a;
  a.id = QStringLiteral("batch-flops");
  a.title = tr("FLOP/s against batch size");
  a.plot = m_plot;
  a.csv = [this] { return plotSeriesCsv(m_plot, QStringLiteral("batch"), QStringLiteral("flop_per_s")); };
  PlotExport b;
  b.id = QStringLiteral("batch-roofline");
  b.title = tr("The batch sweep on the roofline");
  b.plot = m_roof->plot();
  b.csv = [this] { return m_roof->csv(); };
  return {a, b};
}

QString BatchPage::headlineAnswer() {
  // On the H100 SXM sheet 1,979 is FP16/BF16 with 2:4 sparsity (= dense FP8); the app uses dense figures only.
  const gpulab::models::GpuSpec* h = gpulab::models::find_gpu("H100 SXM");
  if (!h || !h->fp8_tflops || !h->fp16_tflops) return {};
  return tr("No, for two reasons. That headline is FP16/BF16 with 2:4 sparsity (the same number is the dense FP8 "
            "figure); the dense FP16/BF16 figure this app uses is %1 — compare like with like. And batch 1 sits "
            "far left of the ridge point, where the memory roof, not the compute roof, sets the speed.")
      .arg(fmtCount(std::llround(*h->fp16_tflops)));
}

LessonContent BatchPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "A dense layer multiplies a batch X (B rows) by a weight matrix W (d_in × d_out). The weights are the big "
      "part: at B = 1 each one is fetched from memory to be used in a single multiply-add, about 2 FLOPs per "
      "2 bytes in FP16 — 1 FLOP per byte. Every extra row reuses the same weights, so the work grows with B while "
      "the traffic barely does. This page measures that, one batch size after another: first the layer is limited "
      "by how fast memory delivers W, then, past the ridge point, by how fast the cores can multiply.");
  c.questions << LessonQuestion{
      tr("Why is generating text for a single user memory-bound, even on the fastest GPU?"),
      tr("Each new token is a batch of one: every weight is read once and used for about 2 FLOPs. At ~1 FLOP per "
         "byte the GPU would need ~300 times more reuse to keep its cores busy, so it waits on HBM. Batching users "
         "together (or processing a whole prompt at once) is what moves the point to the right.")};
  c.questions << LessonQuestion{
      tr("Doubling the batch doubles the FLOPs. Why does the time barely change at small B?"),
      tr("Because the time is spent reading W, and W is the same size at B = 1 and B = 2. The extra rows of X and "
         "Y are tiny next to d_in × d_out weights, so throughput (FLOP/s) almost doubles for free — until the "
         "arithmetic itself takes longer than the read.")};
  c.questions << LessonQuestion{
      tr("The H100 SXM's sheet quotes 1,979 TFLOP/s. Will a batch-1 FP16 decoder see anything close to it?"),
      headlineAnswer()};
  const BatchPage* self = this;
  c.exercises << LessonExercise{
      tr("Predict the arithmetic intensity at B = 256 in FP16, with d_in = d_out = 4096 (bytes counted as in the "
         "lesson: X, W and Y once each)."),
      tr("FLOPs per byte"),
      [] { return gpulab::models::arithmetic_intensity(256, 4096, 4096, 2); },
      tr("2·256·4096² FLOPs over 2·(256·4096 + 4096² + 256·4096) bytes = 227.6 FLOPs per byte."),
      0.02};
  c.exercises << LessonExercise{
      tr("And at B = 1? (Same layer, FP16.)"),
      tr("FLOPs per byte"),
      [] { return gpulab::models::arithmetic_intensity(1, 4096, 4096, 2); },
      tr("2·4096² FLOPs over about 2·4096² bytes: 1.0 FLOP per byte — why batch-1 decoding is memory-bound."),
      0.05};
  c.exercises << LessonExercise{
      tr("Run the sweep first. At what batch size does this machine turn compute-bound?"),
      tr("B"),
      [self] { return self->crossoverFound() ? double(self->crossoverBatch()) : self->modelCrossoverBatch(); },
      tr("The measured crossover (the first batch reaching 80 % of the plateau). Without a finished sweep the app "
         "answers with the model's estimate from the ridge point. This machine's ridge is the one in the Model line "
         "under the plot — its measured FP32 peak ÷ its measured triad bandwidth — and the crossover sits where "
         "the layer's FLOPs per byte reach it; a datasheet H100 in FP16 needs about 300, batches in the hundreds."),
      0.5};
  c.exercises.back().measured = true;  // the sweep's crossover: running it again changes the answer
  return c;
}

GPULAB_REGISTER_PAGE(30, BatchPage);

#include "pages/batch/batch_page.h"

#include "app_context.h"
#include "widgets/choice_box.h"
#include "widgets/fitting_columns.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "models/measured_peak.h"
#include "pages/chosen_device.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/roofline_plot.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/frame_coalescer.h"
#include "widgets/stacked_or_tabbed.h"
#include "widgets/spread_marks.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
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

int log2i(long long v) {
  int e = 0;
  while ((1LL << (e + 1)) <= v) ++e;
  return e;
}

}  // namespace

BatchPage::BatchPage(AppContext& ctx) : Page(ctx) {
  m_plot = new QCustomPlot;
  m_plot->setObjectName(QStringLiteral("batchPlot"));
  m_roof = new RooflinePlot;
  m_roof->setCompact(true);
  m_roof->setTitle(tr("Each point on the roofline"));
  // Side by side where both are wide enough to read at the theme's fonts (applyTheme), else behind two tabs: at
  // 1366×768 on a projector the roofline was squeezed until its title and ticks were cut.
  m_visual = new StackedOrTabbed(m_plot, m_roof, tr("Speed against B"), tr("On the roofline"), 3, 2);
  m_visual->setOrientation(Qt::Horizontal);
  m_visual->setObjectName(QStringLiteral("batchViews"));
  setVisual(m_visual);

  m_badge = new SourceBadge(SourceBadge::Kind::MeasuredHere, QString());
  m_modelBadge = new SourceBadge(SourceBadge::Kind::Model, tr("dotted"));
  addBadge(m_badge);
  for (SourceBadge* b : m_recordedBadges.badges()) addBadge(b);
  addBadge(m_modelBadge);

  m_modelLabel = addResultLabel(1, Qt::RichText);
  m_crossLabel = addResultLabel(1, Qt::RichText);
  m_lastLabel = addResultLabel(1, Qt::RichText);
  m_modelLabel->setToolTip(tr("The model: the ridge point is peak ÷ bandwidth; the batch where the layer's FLOPs "
                              "per byte reach it is where it should turn compute-bound."));
  m_crossLabel->setToolTip(tr("The measured crossover: the first batch reaching 80 % of the best FLOP/s seen, "
                              "provided slower (memory-bound) batches came before it and the plateau after it."));
  m_lastLabel->setToolTip(tr("The most recent measurement of the sweep."));

  m_table = new QTableWidget(0, 8, this);
  m_table->setHorizontalHeaderLabels(
      {tr("B"), tr("time"), tr("FLOP/s"), tr("spread"), tr("bytes"), tr("FLOP/B"), tr("GB/s"), tr("of peak")});
  m_table->horizontalHeaderItem(7)->setToolTip(
      tr("The point's share of its device's FMA peak measured by the roofs suite in this session (independent FMA "
         "chains in registers, gpulab bench --suite roofs); – where none was measured. A tensor-core format has "
         "none: its roof is another unit's."));
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setToolTip(tr("Every batch size of the sweep: median time, FLOP/s with its spread over the samples "
                         "(half the range from the slowest to the fastest), bytes by the lesson's count (X, W and Y "
                         "once each), FLOPs per byte and the bandwidth that implies. Where the column is narrow, "
                         "the time, bytes, GB/s and peak-share columns are hidden (in that order)."));
  sideTabs()->addTab(m_table, tr("Numbers"));
  // In the narrow side column the time, bytes and GB/s give way first: B, FLOP/s, spread and FLOP/B are the lesson.
  m_tableColumns = new FittingColumns(m_table, {1, 4, 6, 7});

  buildControls();
  runBar()->setRunText(tr("Run sweep"));
  runBar()->runButton()->setToolTip(tr("Measure the triad bandwidth, then Y = X·W for every batch size (Space)."));

  m_frame = new FrameCoalescer([this] { applyFrame(); }, this);

  // A bandwidth measured earlier in this session (e.g. on the Roofline page) gives the model a start.
  const SourcedResults inputs = sourcedResults();
  m_bandwidth = batch_model::sessionCpuBandwidth(inputs);
  updateLabels();
  recordingsChanged();
}

void BatchPage::buildControls() {
  auto* form = new QFormLayout;
  m_backend = new QComboBox(this);
  setControlId(m_backend, QStringLiteral("batch.device"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_backend->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_backend->setMinimumContentsLength(10);
  form->addRow(tr("Device"), m_backend);

  m_precision = new QComboBox(this);
  setControlId(m_precision, QStringLiteral("batch.precision"));
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
    // A value's texts and curve are set once a frame: each new text asks for a layout pass of the page.
    connect(*s, &QSlider::valueChanged, this, [this] {
      m_valueTextsStale = true;
      scheduleReplot();
    });
  };
  slider(tr("d_in"), 8, 13, 12, &m_dIn, &m_dInLabel,
         tr("Columns of X = rows of W (the layer's input width), 256 … 8192. The lesson uses 4096."));
  slider(tr("d_out"), 8, 13, 12, &m_dOut, &m_dOutLabel,
         tr("Columns of W and Y (the layer's output width), 256 … 8192. The lesson uses 4096."));
  setControlId(m_dIn, QStringLiteral("batch.d_in"), powerOfTwoPositions(m_dIn));  // 256 … 8192
  setControlId(m_dOut, QStringLiteral("batch.d_out"), powerOfTwoPositions(m_dOut));
  slider(tr("largest B"), 0, 10, 10, &m_maxB, &m_maxBLabel,
         tr("The sweep runs B = 1, 2, 4 … up to this batch (rows of X: tokens or examples at once)."));
  setControlId(m_maxB, QStringLiteral("batch.max_batch"), powerOfTwoPositions(m_maxB));  // 1 … 1024

  m_list = new QLineEdit(this);
  setControlId(m_list, QStringLiteral("batch.list"));
  m_list->setPlaceholderText(tr("custom, e.g. 1, 3, 8, 24, 100"));
  m_list->setToolTip(tr("Your own batch sizes, separated by commas (1 … 65,536). Empty: powers of two up to "
                        "the largest B."));
  form->addRow(tr("B list"), m_list);
  connect(m_list, &QLineEdit::textChanged, this, [this] { updateLabels(); });

  m_budget = new QComboBox(this);
  setControlId(m_budget, QStringLiteral("batch.timing"));
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
  refillDevices();
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] { refillDevices(); });
}

void BatchPage::refillDevices() {
  // The GPU slot stays chosen across a device switch (and on a fresh page, where there is one).
  const bool gpu = m_backend->count() == 0 || gpuChosen();
  {
    const QSignalBlocker block(m_backend);
    m_backend->clear();
    addChoice(m_backend, tr("CPU · OpenBLAS"), tr("OpenBLAS on all of this machine's cores"), false);
    if (m_ctx.hasGpu()) {
      // Named by device_words: a CPU-type Vulkan device is "Vulkan on the CPU (llvmpipe) — not a GPU".
      m_backend->addItem(chosen_device::name(m_ctx), true);
      if (gpu) m_backend->setCurrentIndex(1);
      m_backend->setToolTip(tr("Where the sweep runs: the CPU through OpenBLAS, or %1 through its library GEMM "
                               "(cuBLAS) or, on Vulkan, its fastest shader.")
                                .arg(chosen_device::name(m_ctx)));
    } else {
      m_backend->setToolTip(tr("Where the sweep runs. No GPU here: %1").arg(m_ctx.gpuReason()));
    }
  }
  refillPrecisions();
  updateLabels();
}

bool BatchPage::gpuChosen() const { return m_backend->currentData().toBool(); }

gpulab::Backend& BatchPage::backend() {
  if (gpuChosen() && m_ctx.gpu()) return *m_ctx.gpu();
  return m_ctx.cpu();
}

batch_model::SweepSetup BatchPage::controlsSetup() const {
  batch_model::SweepSetup c;
  c.precision = precision();
  c.dIn = dIn();
  c.dOut = dOut();
  c.onGpu = gpuChosen();
  c.isGpu = c.onGpu && m_ctx.gpuInfo() && gpulab::device_words(*m_ctx.gpuInfo()).is_gpu;
  return c;
}

void BatchPage::refillPrecisions() {
  const QSignalBlocker block(m_precision);
  const int previous = m_precision->currentIndex() >= 0 ? m_precision->currentData().toInt() : -1;
  m_precision->clear();
  auto* model = qobject_cast<QStandardItemModel*>(m_precision->model());
  gpulab::Backend& be = backend();
  int firstOk = -1, keep = -1;
  const QVector<long long> bs = batches();
  for (Precision p : gpulab::all_precisions) {
    // The plan builder's choice of GEMM, so the box greys exactly what the run would refuse.
    std::string why;
    const std::string v = gpulab::batch_gemm_variant(be, p, bs.isEmpty() ? 1 : bs.back(), dIn(), dOut(), &why);
    const gpulab::Support sup = v.empty() ? gpulab::Support::no(why) : gpulab::Support{};
    m_precision->addItem(precName(p), static_cast<int>(p));
    const int i = m_precision->count() - 1;
    if (model) {
      model->item(i)->setEnabled(sup.ok);
      model->item(i)->setToolTip(sup.ok ? tr("%1 through %2").arg(precName(p), QString::fromStdString(v))
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
  const batch_model::SweepSetup shown = shownSetup();
  const Precision p = shown.precision;
  const bool onGpu = shown.onGpu;
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
  const batch_model::SweepSetup shown = shownSetup();
  return gpulab::models::crossover_batch_for_ridge(modelRidge(), gpulab::bytes_per_element(shown.precision),
                                                   shown.dIn, shown.dOut);
}

void BatchPage::updateLabels() {
  setValueTexts();
  scheduleReplot();
}

void BatchPage::setValueTexts() {
  m_valueTextsStale = false;
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
}

gpulab::BatchControls BatchPage::runControls() const {
  gpulab::BatchControls c;
  c.d_in = dIn();
  c.d_out = dOut();
  const QVector<long long> bs = batches();
  c.batches.assign(bs.begin(), bs.end());
  c.precision = precision();
  c.use_gpu = gpuChosen();
  return c;
}

gpulab::Plan BatchPage::plan() { return gpulab::batch_plan(planBackends(), runControls()); }

void BatchPage::run() {
  gpulab::Backend& be = backend();
  const gpulab::BatchControls c = runControls();
  std::string why;
  if (gpulab::batch_gemm_variant(be, c.precision, c.batches.empty() ? 1 : c.batches.back(), c.d_in, c.d_out, &why)
          .empty()) {
    runBar()->showError(tr("%1 cannot run here: %2").arg(precName(c.precision), QString::fromStdString(why)));
    return;
  }
  m_frame->flush();  // the last run's rows, before the table is emptied
  const gpulab::DeviceWords words = gpulab::device_words(be.device_info());
  m_state = batch_model::startSweep({c.precision, int(c.d_in), int(c.d_out), &be != &m_ctx.cpu(), words.is_gpu, words.label});
  m_table->setRowCount(0);
  m_rowsShown = 0;
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
  startPlan(tr("Batch sweep %1×%2 %3").arg(c.d_in).arg(c.d_out).arg(precName(c.precision)), plan(), policy);
}

void BatchPage::onResult(const gpulab::Result& r) {
  const batch_model::Reading reading = batch_model::read(r);
  switch (reading.kind) {
    case batch_model::Reading::Kind::other:
      return;
    case batch_model::Reading::Kind::bandwidth:
      m_bandwidth = reading.bandwidth;
      scheduleReplot();
      return;
    case batch_model::Reading::Kind::bandwidthFailed:
      runBar()->showError(tr("The bandwidth run failed: %1").arg(QString::fromStdString(reading.error)));
      scheduleReplot();
      return;
    case batch_model::Reading::Kind::pointFailed:
      runBar()->showError(tr("B = %1: %2").arg(reading.batch).arg(QString::fromStdString(reading.error)));
      return;
    case batch_model::Reading::Kind::point:
      break;
  }
  const SweepPoint& pt = reading.point;
  // The FMA peak measured here on the point's own device in its precision (none: the page offers no share).
  const SourcedResults inputs = sourcedResults();
  batch_model::apply(m_state, pt, measured_peak::bestPeakGflops(inputs, -1, measured_peak::deviceOf(r), r.precision));
  m_busy.note(pt.relSpread, pt.seconds);
  // Its table row and sentence come with the frame's redraw: a burst of results costs one row batch, one
  // column fit and one redraw, not one each.
  scheduleReplot();
}

void BatchPage::appendPendingRows() {
  const int points = int(m_state.points.size());
  if (m_rowsShown >= points) return;
  for (; m_rowsShown < points; ++m_rowsShown) {
    const SweepPoint& pt = m_state.points[m_rowsShown];
    const gpulab::models::RateRange range{pt.lowFlopsPerS / 1e9, pt.flopsPerS / 1e9, pt.highFlopsPerS / 1e9,
                                          pt.samples};
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QStringList cells{fmtCount(pt.batch), fmtSeconds(pt.seconds), fmtSi(pt.flopsPerS, "FLOP/s"),
                            QString::fromStdString(gpulab::models::spread_text(range)), fmtBytes(pt.bytes),
                            fmtFixed(pt.intensity, pt.intensity < 10 ? 2 : 1), fmtFixed(pt.gbps, 1),
                            peakShareText(pt.flopsPerS / 1e9)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      m_table->setItem(row, c, item);
    }
  }
  m_tableColumns->refit();
  const SweepPoint& pt = m_state.points.back();
  const QString share = peakShareText(pt.flopsPerS / 1e9);
  m_lastLabel->setText(tr("<b>B = %1</b>: %2, %3, %4 moved, <b>%5 FLOP/B</b>, %6")
                           .arg(fmtCount(pt.batch), fmtSeconds(pt.seconds), fmtSi(pt.flopsPerS, "FLOP/s"),
                                fmtBytes(pt.bytes), fmtFixed(pt.intensity, pt.intensity < 10 ? 2 : 1),
                                fmtSi(pt.gbps * 1e9, "B/s")) +
                       (m_state.measuredPeakGflops <= 0 ? QString()
                        : measured_peak::shareOf(pt.flopsPerS / 1e9, m_state.measuredPeakGflops).above
                            ? tr(", above the measured peak")
                            : tr(", <b>%1</b> of measured peak").arg(share)));
}

QString BatchPage::peakShareText(double gflops) const {
  const measured_peak::Share s = measured_peak::shareOf(gflops, m_state.measuredPeakGflops);
  if (s.above) return tr("above");  // the peak itself was measured low: never "140 %"
  return s.of > 0 ? tr("%1 %").arg(fmtFixed(100 * s.of, s.of < 0.1 ? 1 : 0)) : QStringLiteral("–");
}

void BatchPage::applyFrame() {
  if (m_valueTextsStale) setValueTexts();
  appendPendingRows();
  replot();
}

void BatchPage::findCrossover() {
  // Stated only where the points' spreads support it (models/guarded_conclusions): a zig-zag is not a crossover.
  const gpulab::models::GuardedCrossover c = batch_model::crossover(m_state.points);
  m_crossFound = c.conclusion.stated;
  m_crossReason = QString::fromStdString(c.conclusion.text);
  m_crossBatch = static_cast<long long>(c.batch);
  m_crossIntensity = c.intensity;
  m_crossFlops = c.rate;
}

void BatchPage::onRunFinished(bool cancelled) {
  m_frame->flush();  // the last results' rows first
  if (!m_state.ran.onGpu) m_busy.finish();  // a GPU sweep's timings do not depend on the CPU's other programs
  findCrossover();
  if (m_crossFound)
    m_roof->setHighlight(m_crossIntensity, m_crossFlops, tr("crossover B = %1").arg(fmtCount(m_crossBatch)));
  runBar()->showStatus(cancelled ? tr("Cancelled: %1 sizes measured, kept.").arg(m_state.points.size()) : crossoverText());
  m_frame->request();
  m_frame->flush();
}

QString BatchPage::crossoverText() const {
  if (m_crossFound)
    return tr("Measured: compute-bound from B = %1 (%2 FLOP/B, %3)")
        .arg(fmtCount(m_crossBatch), fmtFixed(m_crossIntensity, 1), fmtSi(m_crossFlops, "FLOP/s"));
  if (m_state.points.empty()) return tr("No sweep yet: press Run sweep (Space).");
  return tr("No crossover found: %1").arg(m_crossReason);
}

void BatchPage::recordingsChanged() { scheduleReplot(); }

void BatchPage::scheduleReplot() {
  if (m_frame) m_frame->request();  // null while the constructor builds the controls
}

void BatchPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_roof->applyTheme(theme);
  // Each chart's least readable width: the sweep's "100 GFLOP/s" ticks, its axis title and a data area; the
  // roofline's title across.
  {
    const QFontMetrics tick(QFont(QStringLiteral("DejaVu Sans"), theme.plotFontPt));
    QFont bold(QStringLiteral("DejaVu Sans"), theme.plotFontPt + 2);
    bold.setBold(true);
    m_plot->setMinimumSize(tick.horizontalAdvance(QStringLiteral("100 GFLOP/s")) + 2 * tick.height() + 260,
                           theme.isProjector() ? 300 : 260);
    m_roof->setMinimumWidth(std::max(260, QFontMetrics(bold).horizontalAdvance(tr("Each point on the roofline")) + 30));
    m_visual->updateGeometry();
    m_visual->relayout();
  }
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

GPULAB_REGISTER_PAGE(30, BatchPage);

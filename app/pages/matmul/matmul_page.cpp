#include "pages/matmul/matmul_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/gemm_model.hpp"
#include "models/gemm_csv.h"
#include "pages/matmul/matmul_page_detail.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/frame_coalescer.h"
#include "widgets/plot_object_pool.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <QApplication>
#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gpulab;
using matmul_detail::shape;

namespace {

// Square sizes on the slider: the lesson's n = 60 practice among powers of two, tiny to large.
const long long k_squares[] = {8, 16, 32, 60, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
constexpr int k_squareCount = int(sizeof k_squares / sizeof k_squares[0]);

// A row's check box as a class plan names it: "matmul.way.cpu_naive", "matmul.way.cpu_blas_all_threads",
// "matmul.way.cuda_cublas" (the way's backend and variant, and its threads where they tell rows apart).
QString wayControlId(const gpulab::MatmulWay& way) {
  QString id = QStringLiteral("matmul.way.") + QString::fromStdString(way.backend + "_" + way.variant);
  if (way.threads == 0) id += QStringLiteral("_all_threads");
  if (way.threads == 1) id += QStringLiteral("_1_thread");
  if (way.threads > 1) id += QStringLiteral("_%1_threads").arg(way.threads);
  return id;
}

}  // namespace

MatmulPage::MatmulPage(AppContext& ctx) : Page(ctx) {
  m_plot = new QCustomPlot;
  m_plot->setToolTip(tr("Speed of each way of computing the same product, in GFLOP/s (billions of floating-point "
                        "operations per second). Solid bars: measured here; hollow bars: recorded elsewhere; dashed "
                        "lines: the device's peak. A wrong answer gets no bar."));
  m_plot->yAxis->setRangeReversed(true);  // the professor on top, the fastest ways below
  m_plot->xAxis->setLabel(tr("speed (longer is faster)"));
  m_plot->yAxis->setTickLength(0, 0);
  m_plot->yAxis->setSubTicks(false);
  m_plot->yAxis->grid()->setVisible(false);
  // The chart takes the first focus so Space runs the page instead of being swallowed by the size slider.
  m_plot->setFocusPolicy(Qt::StrongFocus);
  m_plot->installEventFilter(this);  // which labels fit, and on how many lines, depends on its size
  setVisual(withPublishedLadder(m_plot, m_ctx));  // the published GPU ladder under it when no GPU is here

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, {});
  // The peak lines say on the chart whether they are measured or a model, so they need no badge of their own.
  QList<SourceBadge*> badges{m_measuredBadge};
  badges << m_recordedBadges.badges();  // one per recording drawn (two recordings are two sources)
  for (SourceBadge* b : badges) {
    b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    b->setWordWrap(false);  // a badge, not a banner, when the title wraps
    addBadge(b);
  }

  // Columns split by their stretch alone, not by their texts' lengths, and as tall as their longest text at that
  // width: a size dragged changed both texts, the columns' widths and line counts followed, and the plots above
  // moved up and down by a line on every other value.
  m_summary = addResultLabel(3, Qt::RichText);
  m_check = addResultLabel(2, Qt::RichText);
  for (QLabel* l : {m_summary, m_check}) {
    QSizePolicy byStretch(QSizePolicy::Ignored, QSizePolicy::Preferred);
    byStretch.setHeightForWidth(true);
    l->setSizePolicy(byStretch);
  }
  m_summary->setToolTip(tr("The key ratios of the current size: how much faster than the naive loop each best "
                           "variant is"));
  m_check->setToolTip(tr("Every variant's output is compared with an FP64 reference before it is timed"));
  // An open recording with nothing at this size: one click (or Alt+S) to the size it measured most, beside the
  // results that would otherwise say only "nothing run at this size yet" (updateRecordedSizes shows it).
  m_showRecorded = new QPushButton(this);
  m_showRecorded->setObjectName(QStringLiteral("showRecordedSize"));
  m_showRecorded->setVisible(false);
  // Never the widget that makes the window wider than the screen (the projector's font at 1366 px): it takes its
  // text's width when the strip has it, and shrinks before the page would grow.
  m_showRecorded->setMinimumWidth(1);
  connect(m_showRecorded, &QPushButton::clicked, this, &MatmulPage::showRecordedSize);
  resultsStrip()->addWidget(m_showRecorded, 0);

  // The frame's work: the size's texts when it moved (each new text asks for a layout pass of the page), the chart.
  m_frame = new FrameCoalescer([this] {
    if (m_sizeTextsStale) setSizeTexts();
    replot();
  }, this);
  m_pool = std::make_unique<PlotObjectPool>(m_plot);

  buildRows();
  buildControls();
  runBar()->setRunText(tr("Run the variants"));
  runBar()->runButton()->setToolTip(tr("Check, then time every ticked variant at the chosen size; bars appear as "
                                       "each finishes (Space)"));
  updateEstimate();
  replot();
}

MatmulPage::~MatmulPage() = default;

void MatmulPage::buildRows() {
  m_rows.clear();
  const DeviceWords live = m_ctx.gpuInfo() ? device_words(*m_ctx.gpuInfo()) : DeviceWords{};
  for (const matmul_model::Row& r : matmul_model::buildRows(planBackends(), live, inputs()))
    m_rows.push_back({QString::fromStdString(r.key), rowName(r), r.live, r});
}

std::vector<matmul_model::Input> MatmulPage::inputs() const {
  const SourcedResults out = sourcedResults();
  return out;
}

void MatmulPage::buildControls() {
  auto* sizeBox = new QGroupBox(tr("Size: A is m×k, B is k×n"));
  auto* sl = new QGridLayout(sizeBox);
  m_square = new QSlider(Qt::Horizontal);
  m_square->setRange(0, k_squareCount - 1);
  m_square->setPageStep(1);
  setControlId(m_square, QStringLiteral("matmul.size"), QList<double>(std::begin(k_squares), std::end(k_squares)));
  m_square->setToolTip(tr("Square sizes n×n·n×n from tiny (8) to large (8192); the lesson's practice uses n = 60"));
  m_squareValue = new QLabel;
  m_squareValue->setMinimumWidth(60);
  m_squareValue->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  // The square row and the m k n row each in a row of their own: sharing the grid's columns, "square" widened the
  // "m" column and the row of three spin boxes no longer fit the projector's side column at 1366 px.
  auto* squareRow = new QHBoxLayout;
  squareRow->addWidget(new QLabel(tr("square")));
  squareRow->addWidget(m_square, 1);
  squareRow->addWidget(m_squareValue);
  sl->addLayout(squareRow, 0, 0, 1, 6);
  const int maxDim = m_ctx.gpu() ? 16384 : 8192;  // any device in the GPU slot takes the larger sizes
  auto spin = [&](const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(1, maxDim);
    // No "16,384": the comma widened each of the three boxes past the projector's side column at 1366 px.
    s->setToolTip(tip);
    return s;
  };
  m_spinM = spin(tr("m: rows of A and of the result (the batch, for a layer)"));
  m_spinK = spin(tr("k: the length of every dot product (a layer's inputs, d_in)"));
  m_spinN = spin(tr("n: columns of B and of the result (a layer's outputs, d_out)"));
  setControlId(m_spinM, QStringLiteral("matmul.m"));
  setControlId(m_spinK, QStringLiteral("matmul.k"));
  setControlId(m_spinN, QStringLiteral("matmul.n"));
  auto* mknRow = new QHBoxLayout;
  mknRow->setSpacing(4);
  for (auto [name, spinBox] : {std::pair{tr("m"), m_spinM}, std::pair{tr("k"), m_spinK}, std::pair{tr("n"), m_spinN}}) {
    mknRow->addWidget(new QLabel(name));
    mknRow->addWidget(spinBox, 1);
  }
  sl->addLayout(mknRow, 1, 0, 1, 6);
  struct Preset {
    QString text, tip;
    long long m, k, n;
  };
  const Preset presets[] = {
      {tr("n = 60"), tr("The lesson's practice: two 60×60 matrices, 3,600 cells"), 60, 60, 60},
      {tr("512³"), tr("512×512 matrices: big enough that the naive loop is clearly slow"), 512, 512, 512},
      {tr("layer 32×4096"), tr("The lesson's layer: batch 32 times a 4096×4096 weight matrix, 131,072 cells, "
                              "1.07 GFLOPs"),
       32, 4096, 4096},
      {tr("4096³"), tr("A 4096-class square product (137 GFLOPs): the naive loop would take minutes"), 4096, 4096, 4096},
  };
  int col = 0;
  auto* presetRow = new QGridLayout;  // 2×2: four buttons in a row do not fit the projector font
  for (const Preset& p : presets) {
    auto* b = new QPushButton(p.text);
    b->setToolTip(p.tip);
    const long long m = p.m, k = p.k, n = p.n;
    connect(b, &QPushButton::clicked, this, [this, m, k, n] { setSize(m, k, n); });
    presetRow->addWidget(b, col / 2, col % 2);
    ++col;
  }
  sl->addLayout(presetRow, 2, 0, 1, 6);
  m_shapeInfo = new QLabel;
  m_shapeInfo->setWordWrap(true);
  m_shapeInfo->setTextFormat(Qt::RichText);
  sl->addWidget(m_shapeInfo, 3, 0, 1, 6);
  // A recording is only replayed at the sizes it measured: offer them, or its bars stay out of sight.
  m_recordedSizes = new QLabel;
  m_recordedSizes->setWordWrap(true);
  m_recordedSizes->setTextFormat(Qt::RichText);
  m_recordedSizes->setToolTip(tr("Sizes the opened recording measured: click one to show its bars"));
  m_recordedSizes->setVisible(false);
  connect(m_recordedSizes, &QLabel::linkActivated, this, [this](const QString& link) {
    const QStringList mkn = link.split(QLatin1Char('x'));
    if (mkn.size() == 3) setSize(mkn[0].toLongLong(), mkn[1].toLongLong(), mkn[2].toLongLong());
  });
  sl->addWidget(m_recordedSizes, 4, 0, 1, 6);
  controls()->addWidget(sizeBox);

  connect(m_square, &QSlider::valueChanged, this, [this](int i) {
    if (m_updatingSize) return;
    const long long n = k_squares[std::clamp(i, 0, k_squareCount - 1)];
    moveToSize(n, n, n);
  });
  for (QSpinBox* s : {m_spinM, m_spinK, m_spinN})
    connect(s, &QSpinBox::valueChanged, this, [this] {
      if (m_updatingSize) return;
      moveToSize(m_spinM->value(), m_spinK->value(), m_spinN->value());
    });

  auto* varBox = new QGroupBox(tr("Ways to compute it"));
  auto* vl = new QVBoxLayout(varBox);
  vl->setSpacing(2);
  m_rowsLayout = vl;
  refreshRowChecks();
  // What the GPU slot holds, in device_words' words (lavapipe: "Vulkan on the CPU (llvmpipe) — not a GPU"), or
  // what to do without a GPU; the device panel gives the full reason.
  m_gpuNote = new QLabel;
  m_gpuNote->setWordWrap(true);
  m_gpuNote->setObjectName(QStringLiteral("matmulGpuNote"));
  vl->addWidget(m_gpuNote);
  updateGpuNote();
  // The device panel switched the GPU slot (CUDA, a Vulkan GPU, lavapipe): its rows and their names follow.
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] {
    refreshRowChecks();
    scheduleReplot();
  });
  controls()->addWidget(varBox);

  m_log = new QCheckBox(tr("Logarithmic GFLOP/s axis"));
  setControlId(m_log, QStringLiteral("matmul.log_axis"));
  m_log->setToolTip(tr("Show rates that differ by thousands of times side by side (each grid step is 10×)"));
  m_log->setChecked(m_ctx.gpu() != nullptr);  // a second device's rates differ by orders of magnitude
  connect(m_log, &QCheckBox::toggled, this, [this] { scheduleReplot(); });
  controls()->addWidget(m_log);

  m_estimate = new QLabel;
  m_estimate->setWordWrap(true);
  m_estimate->setTextFormat(Qt::RichText);
  m_estimate->setToolTip(tr("How long the naive loop will take at this size, check included: from its rate measured "
                            "here at this size, else timed just now on a few rows of this very product (in cache, at "
                            "small sizes, the loop runs many times faster than out of cache, so a rate from another "
                            "size would mislead)"));
  controls()->addWidget(m_estimate);
  // A probe ~0.3 s after the size settles (a dragged slider does not probe every step), when nothing else runs.
  m_probeTimer = new QTimer(this);
  m_probeTimer->setSingleShot(true);
  m_probeTimer->setInterval(300);
  connect(m_probeTimer, &QTimer::timeout, this, [this] { probeNaiveRateInBackground(); });

  setSize(m_m, m_k, m_n);
}

void MatmulPage::setSize(long long m, long long k, long long n) {
  moveToSize(m, k, n);
  setSizeTexts();
}

void MatmulPage::moveToSize(long long m, long long k, long long n) {
  m_m = std::max(1LL, m);
  m_k = std::max(1LL, k);
  m_n = std::max(1LL, n);
  m_updatingSize = true;
  m_spinM->setValue(int(m_m));
  m_spinK->setValue(int(m_k));
  m_spinN->setValue(int(m_n));
  int nearest = 0;
  for (int i = 0; i < k_squareCount; ++i)
    if (std::abs(k_squares[i] - m_n) < std::abs(k_squares[nearest] - m_n)) nearest = i;
  m_square->setValue(nearest);
  m_updatingSize = false;
  m_notes.clear();
  m_sizeTextsStale = true;
  scheduleReplot();
}

void MatmulPage::setSizeTexts() {
  m_sizeTextsStale = false;
  m_squareValue->setText(m_m == m_k && m_k == m_n ? QString::number(m_n) : tr("—"));
  updateEstimate();
  updateRecordedSizes();
}

QVector<std::array<long long, 3>> MatmulPage::recordedSizes() const {
  QVector<std::array<long long, 3>> out;
  for (const matmul_model::Shape& s : matmul_model::recordedSizes(inputs())) out.push_back({s.m, s.k, s.n});
  return out;
}

void MatmulPage::showRecordedSize() {
  const auto results = inputs();
  if (matmul_model::recordedSizes(results).empty()) return;
  const matmul_model::Shape s = matmul_model::busiestRecordedSize(results);
  setSize(s.m, s.k, s.n);
}

QString MatmulPage::recordedSizesText() const { return m_recordedSizes ? m_recordedSizes->text() : QString(); }

void MatmulPage::refreshRowChecks() {
  QHash<QString, bool> checked;
  for (int i = 0; i < m_rowChecks.size() && i < m_rows.size(); ++i) checked[m_rows[i].key] = m_rowChecks[i]->isChecked();
  buildRows();
  qDeleteAll(m_rowChecks);
  m_rowChecks.clear();
  for (int i = 0; i < m_rows.size(); ++i) {
    const Row& r = m_rows[i];
    auto* c = new QCheckBox(r.name);
    setControlId(c, wayControlId(r.model.way));
    c->setChecked(r.live && checked.value(r.key, true));
    c->setEnabled(r.live);
    c->setToolTip(rowTip(r.model));
    m_rowsLayout->insertWidget(i, c);
    m_rowChecks.push_back(c);
  }
  updateGpuNote();
}

void MatmulPage::setVariantEnabled(const QString& key, bool on) {
  for (int i = 0; i < m_rows.size(); ++i)
    if (m_rows[i].key == key) m_rowChecks[i]->setChecked(on);
}

// ---- estimates ----

double MatmulPage::naiveSecondsPerRun(long long m, long long k, long long n, double gflops) {
  if (!(gflops > 0)) gflops = kAssumedNaiveGflops;
  return models::matmul_flops(double(m), double(k), double(n)) / (gflops * 1e9);
}

bool MatmulPage::naiveTooLong(long long m, long long k, long long n, double gflops, double limitS) {
  // A big naive run is checked once and timed once (see run()), so it costs about two runs.
  return 2.0 * naiveSecondsPerRun(m, k, n, gflops) > limitS;
}

namespace {
// The policy run() gives a way: a big size is checked once and timed once (the plan builder decides which).
MeasurePolicy runPolicy(bool single) {
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 30;
  policy.time_budget_s = 1.0;  // per variant: enough for a steady median on a quiet machine
  if (single) {
    policy.warmup_runs = 0;
    policy.min_samples = 1;
    policy.max_samples = 1;
  }
  return policy;
}
QString probeKey(long long k, long long n) { return QString::number(k) + QLatin1Char('x') + QString::number(n); }
}  // namespace

double MatmulPage::naiveGflopsForEstimate(long long n, QString* source) const {
  // Only k and n decide how the naive loop meets the caches (each row of C walks all of B), so a rate counts only
  // when it was taken at this k×n; m just scales the time.
  const long long k = n == m_n ? m_k : n;
  const auto results = inputs();
  if (const Result* best = matmul_model::naiveMeasuredAt(results, k, n)) {
    if (source) {
      const auto g = as_gemm(*best);
      *source = tr("measured here at %1").arg(shape(g->m, g->k, g->n));
    }
    return best->gflops;
  }
  const auto probe = m_naiveProbes.constFind(probeKey(k, n));
  if (probe != m_naiveProbes.constEnd()) {
    if (source) *source = probe->second;
    return probe->first;
  }
  if (source) *source = tr("assumed, not yet measured at this size");
  return kAssumedNaiveGflops;
}

std::optional<GemmSpec> MatmulPage::naiveProbeSpec() const {
  if (m_naiveProbes.contains(probeKey(m_k, m_n)) || m_ctx.runner().isBusy()) return std::nullopt;  // never race the worker for the CPU
  QString src;
  naiveGflopsForEstimate(m_n, &src);
  if (src.startsWith(tr("measured here"))) return std::nullopt;
  // B is allocated in full for the probe: beyond 256 MiB the probe itself would be slow, so stay assumed.
  if (double(m_k) * double(m_n) * 4 > 256.0 * 1024 * 1024) return std::nullopt;
  GemmSpec spec;
  spec.m = m_m;
  spec.k = m_k;
  spec.n = m_n;
  spec.variant = m_rows[matmul_detail::rowOfKind(m_rows, MatmulWayKind::cpu_naive)].model.way.variant;
  return spec;
}

namespace {
double probedGflops(const GemmSpec& spec, const gpulab::MeasurePolicy& policy) {
  try {
    return gpulab::estimate_cpu_gemm(spec, policy, 0.05).gflops;
  } catch (const std::exception&) {
    return 0;  // too big for memory, for instance: the estimate stays assumed
  }
}
}  // namespace

bool MatmulPage::probeNaiveRate() {
  const std::optional<GemmSpec> spec = naiveProbeSpec();
  if (!spec) return false;
  const double g = probedGflops(*spec, runPolicy(false));
  if (!(g > 0)) return false;
  m_naiveProbes.insert(probeKey(spec->k, spec->n), {g, tr("timed just now on a few rows of this product")});
  updateEstimate();
  return true;
}

bool MatmulPage::probeNaiveRateInBackground() {
  const std::optional<GemmSpec> spec = naiveProbeSpec();
  if (!spec || m_probeInFlight) return false;
  m_probeInFlight = true;
  const gpulab::MeasurePolicy policy = runPolicy(false);
  QPointer<MatmulPage> self(this);
  // The task holds copies only; its answer comes back through the GUI thread's queue, and is dropped if the page
  // has gone. A size changed meanwhile keeps its own key: the answer files under the size it was timed at.
  QThreadPool::globalInstance()->start([self, spec = *spec, policy] {
    const double g = probedGflops(spec, policy);
    QMetaObject::invokeMethod(qApp, [self, spec, g] {
      if (!self) return;
      self->m_probeInFlight = false;
      if (!(g > 0)) return;
      self->m_naiveProbes.insert(probeKey(spec.k, spec.n), {g, tr("timed just now on a few rows of this product")});
      self->updateEstimate();
    }, Qt::QueuedConnection);
  });
  return true;
}

RunEstimate MatmulPage::naiveRunEstimate() const {
  QString src;
  const double g = naiveGflopsForEstimate(m_n, &src);
  GemmSpec spec;
  spec.m = m_m;
  spec.k = m_k;
  spec.n = m_n;
  spec.variant = m_rows[matmul_detail::rowOfKind(m_rows, MatmulWayKind::cpu_naive)].model.way.variant;
  const bool single = naiveSecondsPerRun(m_m, m_k, m_n, g) > 0.5;
  return gpulab::estimate_gemm_from_rate(spec, runPolicy(single), g, src.toStdString());
}

void MatmulPage::updateEstimate() {
  const double flops = models::matmul_flops(double(m_m), double(m_k), double(m_n));
  m_shapeInfo->setText(tr("2·m·k·n = <b>%1</b> · %2 output cells, each a %3-term dot product")
                           .arg(fmtSi(flops, "FLOP"), fmtCount(qint64(m_m * m_n)), fmtCount(qint64(m_k))));
  const RunEstimate e = naiveRunEstimate();
  const bool assumed = QString::fromStdString(e.basis).startsWith(tr("assumed"));
  const bool tooLong = naiveTooLong(m_m, m_k, m_n, e.gflops);
  // The whole measurement, not one run: the check is a full run of its own (plus the FP64 reference).
  m_estimate->setText(tr("Naive loop at this size: about <b>%1</b> a run; checked and timed, about <b>%2</b> "
                         "(check %3 + %4 timed run(s)%5). Rate %6: %7%8")
                          .arg(fmtSeconds(e.run_s, 2), fmtSeconds(e.total_s, 2), fmtSeconds(e.check_s, 2))
                          .arg(e.samples)
                          .arg(e.warmup_s > 0 ? tr(" + a warm-up") : QString(), fmtSi(e.gflops * 1e9, "FLOP/s"),
                               QString::fromStdString(e.basis),
                               tooLong ? tr(" — <b>Run will ask first</b>") : QString()));
  if (assumed && m_probeTimer && !m_naiveProbes.contains(probeKey(m_k, m_n))) m_probeTimer->start();
}

// ---- running ----

MatmulControls MatmulPage::runControls() const {
  MatmulControls c;
  c.m = m_m;
  c.k = m_k;
  c.n = m_n;
  for (int i = 0; i < m_rows.size(); ++i)
    if (m_rows[i].live && !m_rowChecks[i]->isChecked()) c.left_out.push_back(m_rows[i].model.key);
  c.naive_gflops = naiveGflopsForEstimate(m_n);
  return c;
}

gpulab::Plan MatmulPage::plan() { return matmul_plan(planBackends(), runControls()); }

void MatmulPage::run() {
  if (isRunning()) return;
  m_notes.clear();
  MatmulControls controls = runControls();
  const int naiveRow = matmul_detail::rowOfKind(m_rows, MatmulWayKind::cpu_naive);
  const bool naiveWanted = naiveRow >= 0 && m_rowChecks[naiveRow]->isChecked();
  if (!std::any_of(m_rowChecks.begin(), m_rowChecks.end(), [](QCheckBox* c) { return c->isEnabled() && c->isChecked(); })) {
    runBar()->showError(tr("Tick at least one way to compute the product."));
    return;
  }
  if (naiveWanted) {
    probeNaiveRate();  // no rate for this size yet: a few rows now (~0.1 s) beat a guess from another size
    QString src;
    const double g = naiveGflopsForEstimate(m_n, &src);
    controls.naive_gflops = g;
    const RunEstimate est = naiveRunEstimate();
    if (naiveTooLong(m_m, m_k, m_n, g)) {
      const double t = naiveSecondsPerRun(m_m, m_k, m_n, g);
      int answer = m_tooLongAnswer;
      if (answer == 0) {
        QMessageBox box(QMessageBox::Question, tr("The professor will take a while"),
                        tr("The naive loop at %1 has %2 to do. At %3 (%4) one run takes about %5, and checking plus "
                           "timing it about %6.\n\nRun it anyway, or skip the naive loop and time the others?")
                            .arg(shape(m_m, m_k, m_n), fmtSi(models::matmul_flops(m_m, m_k, m_n), "FLOP"),
                                 fmtSi(g * 1e9, "FLOP/s"), src, fmtSeconds(t, 2), fmtSeconds(est.total_s, 2)),
                        QMessageBox::NoButton, this);
        QPushButton* runAnyway = box.addButton(tr("Run it anyway"), QMessageBox::AcceptRole);
        QPushButton* skip = box.addButton(tr("Skip the naive loop"), QMessageBox::RejectRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(skip);
        box.exec();
        answer = box.clickedButton() == runAnyway ? 1 : box.clickedButton() == skip ? 2 : 3;
      }
      if (answer == 3) return;
      if (answer == 2) {
        controls.left_out.push_back(m_rows[naiveRow].model.key);
        m_notes[m_rows[naiveRow].key] = tr("skipped: about %1 per run here").arg(fmtSeconds(t, 2));
      }
    }
  }
  Plan plan = matmul_plan(planBackends(), controls);
  if (plan.jobs.empty()) {
    scheduleReplot();
    return;
  }
  m_pending.clear();
  for (const PlanJob& j : plan.jobs)
    m_pending.insert(QString::fromStdString(matmul_way_key(matmul_way_of(
        j.backend ? j.backend->kind() : std::string(), j.variant, int(j.params.at("threads")), false))));
  m_busy.start();
  if (!startPlan(tr("Matrix multiply %1").arg(shape(m_m, m_k, m_n)), std::move(plan), runPolicy(false)))
    m_pending.clear();
  scheduleReplot();
}

double MatmulPage::practiceRatio() {
  const double ratio = matmul_model::practiceRatio(inputs());
  if (ratio > 0) return ratio;
  // Not measured here yet: the runner times it (never the GUI thread); the exercise says to check again.
  if (!m_ctx.runner().isBusy()) {
    MeasurePolicy policy;  // the fastest of 30 runs each: at 60³ a run lasts microseconds
    policy.min_samples = 30;
    policy.max_samples = 30;
    policy.time_budget_s = 1.0;
    m_busy.start();
    startPlan(tr("n = 60 practice: the naive loop and BLAS, 30 runs each"), matmul_practice_plan(planBackends()),
              policy);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

void MatmulPage::onResult(const Result& r) {
  m_pending.remove(QString::fromStdString(matmul_model::rowKeyOf(r)));
  if (const auto g = as_gemm(r); g && g->head.ok && !g->head.on_gpu)
    m_busy.note(r.stats.rel_spread, r.stats.median_s);  // the CPU's own noise
  scheduleReplot();
}

void MatmulPage::onRunFinished(bool cancelled) {
  m_pending.clear();
  m_busy.finish();
  scheduleReplot();
  if (!cancelled) {
    m_frame->flush();  // the last results' bars, before the status reads them
    const int wrong = wrongAnswerCount();
    runBar()->showStatus(wrong ? tr("Done: %1 variant(s) gave a wrong answer").arg(wrong) : tr("Done: every answer checked"));
  }
  updateEstimate();  // the naive rate just measured makes the estimate better
}

void MatmulPage::recordingsChanged() {
  refreshRowChecks();  // a recording can bring GPU rows
  m_log->setChecked(m_log->isChecked() || std::any_of(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.model.gpu_side; }));
  // Just opened a recording that has nothing at this size, and nothing measured here either: go to the size
  // it measured most bars at, so the replay shows something instead of an empty plot.
  const auto results = inputs();
  const bool anyHere = std::any_of(m_rows.begin(), m_rows.end(), [this](const Row& r) {
    return !recordedBars(r).empty() || measuredFor(r);
  });
  if (!matmul_model::recordedSizes(results).empty() && !anyHere) {
    const matmul_model::Shape best = matmul_model::busiestRecordedSize(results);
    setSize(best.m, best.k, best.n);
  }
  updateRecordedSizes();
  scheduleReplot();
}

// ---- reading results ----

const Result* MatmulPage::measuredFor(const Row& row) const {
  return matmul_model::measuredFor(inputs(), row.model, currentShape());
}

std::vector<matmul_model::Recorded> MatmulPage::recordedBars(const Row& row) const {
  return matmul_model::recordedBars(inputs(), row.model, currentShape());
}

int MatmulPage::measuredBarCount() const { return matmul_model::counts(inputs(), rowModels(), currentShape()).measuredBars; }
int MatmulPage::passedCheckCount() const { return matmul_model::counts(inputs(), rowModels(), currentShape()).passed; }
int MatmulPage::wrongAnswerCount() const { return matmul_model::counts(inputs(), rowModels(), currentShape()).wrong; }
int MatmulPage::recordedBarCount() const { return matmul_model::counts(inputs(), rowModels(), currentShape()).recordedBars; }
QString MatmulPage::summaryText() const { return m_summary->text(); }

std::vector<matmul_model::Row> MatmulPage::rowModels() const {
  std::vector<matmul_model::Row> out;
  for (const Row& r : m_rows) out.push_back(r.model);
  return out;
}

void MatmulPage::scheduleReplot() {
  if (m_frame) m_frame->request();  // null while the constructor builds the controls
}

void MatmulPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  replot();
}

// ---- export ----

QString MatmulPage::csv() const {
  std::vector<models::GemmBarRow> rows;
  const Result* naive = m_rows.isEmpty() ? nullptr : measuredFor(m_rows.front());  // the naive loop is row 0
  for (const Row& row : m_rows) {
    const int threads = row.model.way.threads;
    rows.push_back({row.name.toStdString(), threads, "measured here", measuredFor(row)});
    for (const matmul_model::Recorded& rec : recordedBars(row))  // a line per recording, each under its own label
      rows.push_back({row.name.toStdString(), threads, m_ctx.results().sourceLabel(rec.source).toStdString(), rec.result});
  }
  return QString::fromStdString(models::gemm_bars_csv(rows, naive && naive->ok() ? naive->gflops : 0));
}

QList<PlotExport> MatmulPage::plots() {
  PlotExport e;
  e.id = QStringLiteral("gflops");
  e.title = tr("Matrix multiply %1: GFLOP/s per variant").arg(shape(m_m, m_k, m_n));
  e.plot = m_plot;
  e.csv = [this] { return csv(); };
  // The room for the bars' labels depends on the plot's width: fit the axis to the slide's, then back.
  e.layoutFor = [this](const QSize& size) {
    m_exportWidth = size.isEmpty() ? 0 : size.width();
    replot();
  };
  return QList<PlotExport>{e} + publishedLadderExports(this);
}

void MatmulPage::showEvent(QShowEvent* e) {
  Page::showEvent(e);
  // Keyboard focus left on a button outside the page (the device panel's) would turn Space into a click there;
  // the page's own visual takes it, so Space runs this page's experiment.
  QWidget* focus = QApplication::focusWidget();
  if (!focus || !isAncestorOf(focus)) m_plot->setFocus(Qt::OtherFocusReason);
}

bool MatmulPage::eventFilter(QObject* watched, QEvent* e) {
  if (watched == m_plot && e->type() == QEvent::Resize && m_frame) scheduleReplot();
  return Page::eventFilter(watched, e);
}

GPULAB_REGISTER_PAGE(20, MatmulPage);

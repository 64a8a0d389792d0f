#include "pages/matmul_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/gemm_model.hpp"
#include "models/gemm_csv.h"
#include "models/guarded_conclusions.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"

#include <QApplication>
#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace gpulab;

namespace {

// Square sizes on the slider: the lesson's n = 60 practice among powers of two, tiny to large.
const long long k_squares[] = {8, 16, 32, 60, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
constexpr int k_squareCount = int(sizeof k_squares / sizeof k_squares[0]);

QString gpuName(const std::string& v) {
  // The ladder in its numbered order (gpu/cuda/kernels/0N_*.cu): what each step adds is in its file header.
  if (v == "naive") return QObject::tr("GPU 1 naive");
  if (v == "coalesced") return QObject::tr("GPU 2 coalesced");
  if (v == "smem") return QObject::tr("GPU 3 smem tiles");
  if (v == "blocktile1d") return QObject::tr("GPU 4 1D blocking");
  if (v == "blocktile2d") return QObject::tr("GPU 5 2D blocking");
  if (v == "vectorized") return QObject::tr("GPU 6 vectorised");
  if (v == "warptile") return QObject::tr("GPU 7 warp tiles");
  if (v == "cublas") return QObject::tr("GPU cuBLAS");
  return QObject::tr("GPU %1").arg(QString::fromStdString(v));
}

QString rowKey(const std::string& backend, const std::string& variant, int threads) {
  return QStringLiteral("%1/%2/%3").arg(QString::fromStdString(backend), QString::fromStdString(variant)).arg(threads);
}

// The row a result belongs to: CPU BLAS splits into 1 thread and "all" (0, or any count a recording used).
QString rowKeyFor(const Result& r) {
  int threads = -1;
  if (r.backend == "cpu" && r.variant == "blas") threads = r.param("threads") == 1 ? 1 : 0;
  return rowKey(r.backend, r.variant, threads);
}

bool isFp32Gemm(const Result& r) { return r.experiment == "gemm" && r.precision == Precision::fp32; }

QString shape(long long m, long long k, long long n) {
  if (m == k && k == n) return QString::number(n) + QStringLiteral("³");  // not "%1³": arg() reads ³ as a digit
  return QStringLiteral("%1×%2 · %2×%3").arg(m).arg(k).arg(n);
}

// A rough single-run rate for variants not measured yet, only to decide how many samples a big size gets.
double guessGflops(const std::string& backend, const std::string& variant) {
  if (backend == "cuda") return variant == "naive" || variant == "coalesced" ? 300 : 5000;
  if (variant == "reordered") return 8;
  if (variant == "blas") return 30;
  return MatmulPage::kAssumedNaiveGflops;
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
  setVisual(withPublishedLadder(m_plot, m_ctx));  // the published GPU ladder under it when no GPU is here

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, {});
  m_recordedBadge = new SourceBadge(SourceBadge::Kind::Recorded, {});
  // The peak lines say on the chart whether they are measured or a model, so they need no badge of their own.
  for (SourceBadge* b : {m_measuredBadge, m_recordedBadge}) {
    b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    b->setWordWrap(false);  // a badge, not a banner, when the title wraps
    addBadge(b);
  }

  m_summary = new QLabel(this);
  m_check = new QLabel(this);
  for (QLabel* l : {m_summary, m_check}) {
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
  }
  m_summary->setToolTip(tr("The key ratios of the current size: how much faster than the naive loop each best "
                           "variant is"));
  m_check->setToolTip(tr("Every variant's output is compared with an FP64 reference before it is timed"));
  resultsStrip()->addWidget(m_summary, 3);
  resultsStrip()->addWidget(m_check, 2);

  m_replot = makeRedrawTimer([this] { replot(); });

  buildRows();
  buildControls();
  runBar()->setRunText(tr("Run the variants"));
  runBar()->runButton()->setToolTip(tr("Check, then time every ticked variant at the chosen size; bars appear as "
                                       "each finishes (Space)"));
  updateEstimate();
  replot();
}

void MatmulPage::buildRows() {
  m_rows.clear();
  const int threads = std::max(1, m_ctx.cpuInfo().threads > 0 ? m_ctx.cpuInfo().threads : m_ctx.cpuInfo().compute_units);
  m_rows.push_back({rowKey("cpu", "naive", -1), tr("CPU naive loop (professor)"), "cpu", "naive", -1, true});
  m_rows.push_back({rowKey("cpu", "reordered", -1), tr("CPU reordered loop"), "cpu", "reordered", -1, true});
  m_rows.push_back({rowKey("cpu", "blas", 1), tr("CPU BLAS, 1 thread"), "cpu", "blas", 1, true});
  m_rows.push_back({rowKey("cpu", "blas", 0), tr("CPU BLAS, %1 threads").arg(threads), "cpu", "blas", 0, true});
  if (Backend* gpu = m_ctx.cuda())
    for (const std::string& v : gpu->gemm_variants()) m_rows.push_back({rowKey("cuda", v, -1), gpuName(v), "cuda", v, -1, true});
  // A recording made on a GPU machine brings its ladder even where there is no GPU.
  for (const StoredResult& s : m_ctx.results().all()) {
    if (s.source < 0 || !isFp32Gemm(s.result) || s.result.backend != "cuda") continue;
    const QString key = rowKeyFor(s.result);
    if (std::none_of(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.key == key; }))
      m_rows.push_back({key, gpuName(s.result.variant), "cuda", s.result.variant, -1, false});
  }
}

void MatmulPage::buildControls() {
  auto* sizeBox = new QGroupBox(tr("Size: A is m×k, B is k×n"));
  auto* sl = new QGridLayout(sizeBox);
  m_square = new QSlider(Qt::Horizontal);
  m_square->setRange(0, k_squareCount - 1);
  m_square->setPageStep(1);
  m_square->setToolTip(tr("Square sizes n×n·n×n from tiny (8) to large (8192); the lesson's practice uses n = 60"));
  m_squareValue = new QLabel;
  m_squareValue->setMinimumWidth(60);
  m_squareValue->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  sl->addWidget(new QLabel(tr("square")), 0, 0);
  sl->addWidget(m_square, 0, 1, 1, 4);
  sl->addWidget(m_squareValue, 0, 5);
  const int maxDim = m_ctx.hasGpu() ? 16384 : 8192;
  auto spin = [&](const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(1, maxDim);
    s->setGroupSeparatorShown(true);
    s->setToolTip(tip);
    return s;
  };
  m_spinM = spin(tr("m: rows of A and of the result (the batch, for a layer)"));
  m_spinK = spin(tr("k: the length of every dot product (a layer's inputs, d_in)"));
  m_spinN = spin(tr("n: columns of B and of the result (a layer's outputs, d_out)"));
  sl->addWidget(new QLabel(tr("m")), 1, 0);
  sl->addWidget(m_spinM, 1, 1);
  sl->addWidget(new QLabel(tr("k")), 1, 2);
  sl->addWidget(m_spinK, 1, 3);
  sl->addWidget(new QLabel(tr("n")), 1, 4);
  sl->addWidget(m_spinN, 1, 5);
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
    setSquare(k_squares[std::clamp(i, 0, k_squareCount - 1)]);
  });
  for (QSpinBox* s : {m_spinM, m_spinK, m_spinN})
    connect(s, &QSpinBox::valueChanged, this, [this] {
      if (m_updatingSize) return;
      setSize(m_spinM->value(), m_spinK->value(), m_spinN->value());
    });

  auto* varBox = new QGroupBox(tr("Ways to compute it"));
  auto* vl = new QVBoxLayout(varBox);
  vl->setSpacing(2);
  m_rowChecks.clear();
  for (const Row& r : m_rows) {
    auto* c = new QCheckBox(r.name);
    c->setChecked(r.live);
    c->setEnabled(r.live);
    QString tip;
    if (r.variant == "naive" && r.backend == "cpu")
      tip = tr("Three nested loops, one cell after another, one core: the professor");
    else if (r.variant == "reordered")
      tip = tr("The same loops in i-k-j order: memory is read in a straight line, so the cache and SIMD lanes help");
    else if (r.variant == "blas")
      tip = r.threads == 1 ? tr("OpenBLAS on one core: blocking for the caches, SIMD, fused multiply-add")
                           : tr("OpenBLAS on every core: the CPU's own small stadium");
    else if (!r.live)
      tip = tr("Only in an opened recording: this machine has no GPU to run it");
    else
      tip = tr("A CUDA kernel on the GPU (the stadium): each ladder step keeps what the last did and adds one idea");
    c->setToolTip(tip);
    vl->addWidget(c);
    m_rowChecks.push_back(c);
  }
  if (!m_ctx.hasGpu()) {
    // The device panel gives the full reason; here one line says what to do about it.
    auto* note = new QLabel(tr("No GPU here. Open a recording (File → Open) to see a GPU's kernel ladder as hollow bars."));
    note->setToolTip(m_ctx.gpuReason());
    note->setWordWrap(true);
    vl->addWidget(note);
  }
  controls()->addWidget(varBox);

  m_log = new QCheckBox(tr("Logarithmic GFLOP/s axis"));
  m_log->setToolTip(tr("Show rates that differ by thousands of times side by side (each grid step is 10×)"));
  m_log->setChecked(m_ctx.hasGpu());
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
  connect(m_probeTimer, &QTimer::timeout, this, [this] { probeNaiveRate(); });

  setSize(m_m, m_k, m_n);
}

void MatmulPage::setSize(long long m, long long k, long long n) {
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
  m_squareValue->setText(m_m == m_k && m_k == m_n ? QString::number(m_n) : tr("—"));
  m_notes.clear();
  updateEstimate();
  updateRecordedSizes();
  scheduleReplot();
}

QVector<std::array<long long, 3>> MatmulPage::recordedSizes() const {
  QVector<std::array<long long, 3>> out;
  for (const StoredResult& s : m_ctx.results().all()) {
    if (s.source < 0 || !isFp32Gemm(s.result) || !s.result.ok() || s.result.gflops <= 0) continue;
    const std::array<long long, 3> mkn = {std::llround(s.result.param("m")), std::llround(s.result.param("k")),
                                          std::llround(s.result.param("n"))};
    if (mkn[0] > 0 && mkn[1] > 0 && mkn[2] > 0 && !out.contains(mkn)) out.push_back(mkn);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return double(a[0]) * a[1] * a[2] < double(b[0]) * b[1] * b[2];
  });
  return out;
}

QString MatmulPage::recordedSizesText() const { return m_recordedSizes ? m_recordedSizes->text() : QString(); }

void MatmulPage::updateRecordedSizes() {
  if (!m_recordedSizes) return;
  const auto sizes = recordedSizes();
  // Squares, then the batch sweep's layer shapes grouped by k×n ("m × 4096 × 4096, m = 1 · 2 · 4 …"): short
  // enough for the controls column even in the projector font.
  QStringList squares;
  QMap<QPair<long long, long long>, QStringList> layers;  // (k, n) -> the m values
  bool here = false;
  auto link = [this](const std::array<long long, 3>& s, const QString& name) {
    const bool current = s[0] == m_m && s[1] == m_k && s[2] == m_n;
    return current ? QStringLiteral("<b>%1</b>").arg(name)
                   : QStringLiteral("<a href=\"%1x%2x%3\">%4</a>").arg(s[0]).arg(s[1]).arg(s[2]).arg(name);
  };
  for (const auto& s : sizes) {
    here = here || (s[0] == m_m && s[1] == m_k && s[2] == m_n);
    if (s[0] == s[1] && s[1] == s[2]) squares << link(s, QString::number(s[2]) + QStringLiteral("³"));  // not "%1³": ³ is a digit to arg()
    else layers[{s[1], s[2]}] << link(s, QString::number(s[0]));
  }
  QStringList lines;
  if (!squares.isEmpty()) lines << tr("Recorded at: %1").arg(squares.join(QStringLiteral(" · ")));
  for (auto it = layers.cbegin(); it != layers.cend(); ++it)
    lines << tr("%1m × %2 × %3, m = %4")
                 .arg(lines.isEmpty() ? tr("Recorded at: ") : QString())
                 .arg(it.key().first)
                 .arg(it.key().second)
                 .arg(it.value().join(QStringLiteral(" · ")));
  if (!sizes.isEmpty() && !here) lines.prepend(tr("<b>The recording has no bars at this size.</b>"));
  m_recordedSizes->setVisible(!sizes.isEmpty());
  m_recordedSizes->setText(lines.join(QStringLiteral("<br>")));
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
// The policy run() gives a variant: a big size is checked once and timed once (see run()).
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
  const Result* best = nullptr;
  for (const StoredResult& s : m_ctx.results().all()) {
    const Result& r = s.result;
    if (s.source >= 0 || !isFp32Gemm(r) || r.backend != "cpu" || r.variant != "naive" || !r.ok() || r.gflops <= 0)
      continue;
    if (qint64(r.param("n")) != n || qint64(r.param("k")) != k) continue;
    best = &r;  // the newest
  }
  if (best) {
    if (source)
      *source = tr("measured here at %1").arg(shape(qint64(best->param("m")), qint64(best->param("k")), qint64(best->param("n"))));
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

bool MatmulPage::probeNaiveRate() {
  const QString key = probeKey(m_k, m_n);
  if (m_naiveProbes.contains(key) || m_ctx.runner().isBusy()) return false;  // never race the worker for the CPU
  QString src;
  naiveGflopsForEstimate(m_n, &src);
  if (src.startsWith(tr("measured here"))) return false;
  // B is allocated in full for the probe: beyond 256 MiB the probe itself would be slow, so stay assumed.
  if (double(m_k) * double(m_n) * 4 > 256.0 * 1024 * 1024) return false;
  GemmSpec spec;
  spec.m = m_m;
  spec.k = m_k;
  spec.n = m_n;
  spec.variant = "naive";
  try {
    const RunEstimate e = gpulab::estimate_cpu_gemm(spec, runPolicy(false), 0.05);
    if (!(e.gflops > 0)) return false;
    m_naiveProbes.insert(key, {e.gflops, tr("timed just now on a few rows of this product")});
  } catch (const std::exception&) {
    return false;
  }
  updateEstimate();
  return true;
}

RunEstimate MatmulPage::naiveRunEstimate() const {
  QString src;
  const double g = naiveGflopsForEstimate(m_n, &src);
  GemmSpec spec;
  spec.m = m_m;
  spec.k = m_k;
  spec.n = m_n;
  spec.variant = "naive";
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

void MatmulPage::run() {
  if (isRunning()) return;
  struct Plan {
    Backend* backend;
    GemmSpec spec;
    bool single;  // a big size: checked once and timed once
    QString key;
  };
  QVector<Plan> plans;
  m_notes.clear();
  bool naiveWanted = false;
  for (int i = 0; i < m_rows.size(); ++i) {
    const Row& r = m_rows[i];
    if (!r.live || !m_rowChecks[i]->isChecked()) continue;
    Backend* b = r.backend == "cuda" ? m_ctx.cuda() : &m_ctx.cpu();
    if (!b) continue;
    GemmSpec s;
    s.m = m_m;
    s.n = m_n;
    s.k = m_k;
    s.variant = r.variant;
    s.threads = r.threads < 0 ? 0 : r.threads;
    const double g = r.backend == "cpu" && r.variant == "naive" ? naiveGflopsForEstimate(m_n) : guessGflops(r.backend, r.variant);
    const bool single = naiveSecondsPerRun(m_m, m_k, m_n, g) > 0.5;
    if (r.backend == "cpu" && r.variant == "naive") naiveWanted = true;
    plans.push_back({b, s, single, r.key});
  }
  if (plans.isEmpty()) {
    runBar()->showError(tr("Tick at least one way to compute the product."));
    return;
  }
  if (naiveWanted) {
    probeNaiveRate();  // no rate for this size yet: a few rows now (~0.1 s) beat a guess from another size
    QString src;
    const double g = naiveGflopsForEstimate(m_n, &src);
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
        const QString key = rowKey("cpu", "naive", -1);
        plans.erase(std::remove_if(plans.begin(), plans.end(), [&](const Plan& p) { return p.key == key; }), plans.end());
        m_notes[key] = tr("skipped: about %1 per run here").arg(fmtSeconds(t, 2));
        if (plans.isEmpty()) {
          scheduleReplot();
          return;
        }
      }
    }
  }
  const MeasurePolicy policy = runPolicy(false);
  m_pending.clear();
  for (const Plan& p : plans) m_pending.insert(p.key);
  m_runM = m_m;
  m_runK = m_k;
  m_runN = m_n;
  m_busy.start();
  std::vector<Plan> jobPlans(plans.begin(), plans.end());
  const bool started = startJob(
      tr("Matrix multiply %1").arg(shape(m_m, m_k, m_n)),
      [jobPlans](const RunContext& ctx) {
        const double parts = double(jobPlans.size());
        for (std::size_t i = 0; i < jobPlans.size(); ++i) {
          if (ctx.cancelled()) return;
          RunContext sub = ctx;
          sub.progress_base = ctx.progress_base + ctx.progress_span * double(i) / parts;
          sub.progress_span = ctx.progress_span / parts;
          // A big size: one check and one timed run: a second sample would double minutes of waiting for little.
          if (jobPlans[i].single) sub.policy = runPolicy(true);
          run_gemm(*jobPlans[i].backend, jobPlans[i].spec, sub);
        }
      },
      policy);
  if (!started) m_pending.clear();
  scheduleReplot();
}

void MatmulPage::onResult(const Result& r) {
  m_pending.remove(rowKeyFor(r));
  if (r.ok() && r.backend == "cpu") m_busy.note(r.stats.rel_spread, r.stats.median_s);  // the CPU's own noise
  scheduleReplot();
}

void MatmulPage::onRunFinished(bool cancelled) {
  m_pending.clear();
  m_busy.finish();
  scheduleReplot();
  if (!cancelled) {
    replot();
    const int wrong = wrongAnswerCount();
    runBar()->showStatus(wrong ? tr("Done: %1 variant(s) gave a wrong answer").arg(wrong) : tr("Done: every answer checked"));
  }
  updateEstimate();  // the naive rate just measured makes the estimate better
}

void MatmulPage::recordingsChanged() {
  // A recording can bring GPU rows: rebuild the variant list and its check boxes.
  QHash<QString, bool> checked;
  for (int i = 0; i < m_rows.size(); ++i) checked[m_rows[i].key] = m_rowChecks[i]->isChecked();
  const int before = int(m_rows.size());
  buildRows();
  if (m_rows.size() != before) {
    // Rebuild the controls column's check boxes in place: simplest is to add the new ones to the same box.
    QWidget* box = m_rowChecks.isEmpty() ? nullptr : m_rowChecks.front()->parentWidget();
    auto* lay = box ? qobject_cast<QVBoxLayout*>(box->layout()) : nullptr;
    for (int i = before; i < m_rows.size() && lay; ++i) {
      auto* c = new QCheckBox(m_rows[i].name);
      c->setChecked(false);
      c->setEnabled(false);
      c->setToolTip(tr("Only in an opened recording: this machine has no GPU to run it"));
      lay->insertWidget(i, c);
      m_rowChecks.push_back(c);
    }
    while (m_rowChecks.size() > m_rows.size()) delete m_rowChecks.takeLast();
  }
  for (int i = 0; i < m_rows.size(); ++i)
    if (checked.contains(m_rows[i].key)) m_rowChecks[i]->setChecked(checked[m_rows[i].key]);
  m_log->setChecked(m_log->isChecked() || std::any_of(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.backend == "cuda"; }));
  // Just opened a recording that has nothing at this size, and nothing measured here either: go to the size
  // it measured most bars at, so the replay shows something instead of an empty plot.
  const auto sizes = recordedSizes();
  const bool anyHere = std::any_of(m_rows.begin(), m_rows.end(), [this](const Row& r) {
    return recordedFor(r, nullptr) || measuredFor(r);
  });
  if (!sizes.isEmpty() && !anyHere) {
    std::array<long long, 3> best = sizes.front();
    int bestCount = -1;
    for (const auto& sz : sizes) {
      int count = 0;
      for (const StoredResult& s : m_ctx.results().all())
        if (s.source >= 0 && isFp32Gemm(s.result) && s.result.ok() && s.result.param("m") == double(sz[0]) &&
            s.result.param("k") == double(sz[1]) && s.result.param("n") == double(sz[2]))
          ++count;
      if (count > bestCount) {  // ties keep the smaller size: the naive loop is more likely to be there
        best = sz;
        bestCount = count;
      }
    }
    setSize(best[0], best[1], best[2]);
  }
  updateRecordedSizes();
  scheduleReplot();
}

// ---- reading results ----

bool MatmulPage::matchesSize(const Result& r) const {
  return r.param("m") == double(m_m) && r.param("k") == double(m_k) && r.param("n") == double(m_n);
}

const Result* MatmulPage::measuredFor(const Row& row) const {
  const Result* found = nullptr;
  for (const StoredResult& s : m_ctx.results().all())
    if (s.source < 0 && isFp32Gemm(s.result) && matchesSize(s.result) && rowKeyFor(s.result) == row.key) found = &s.result;
  return found;  // the newest
}

const Result* MatmulPage::recordedFor(const Row& row, int* source) const {
  const Result* found = nullptr;
  for (const StoredResult& s : m_ctx.results().all())
    if (s.source >= 0 && isFp32Gemm(s.result) && matchesSize(s.result) && rowKeyFor(s.result) == row.key &&
        s.result.ok() && (!found || s.result.gflops > found->gflops)) {
      found = &s.result;
      if (source) *source = s.source;
    }
  return found;
}

int MatmulPage::measuredBarCount() const {
  int n = 0;
  for (const Row& r : m_rows)
    if (const Result* res = measuredFor(r); res && res->ok() && res->gflops > 0) ++n;
  return n;
}
int MatmulPage::passedCheckCount() const {
  int n = 0;
  for (const Row& r : m_rows)
    if (const Result* res = measuredFor(r); res && res->error.empty() && res->check.passed) ++n;
  return n;
}
int MatmulPage::wrongAnswerCount() const {
  int n = 0;
  for (const Row& r : m_rows)
    if (const Result* res = measuredFor(r); res && res->error.empty() && !res->check.passed) ++n;
  return n;
}
int MatmulPage::recordedBarCount() const {
  int n = 0;
  for (const Row& r : m_rows)
    if (recordedFor(r, nullptr)) ++n;
  return n;
}
QString MatmulPage::summaryText() const { return m_summary->text(); }

// ---- drawing ----

void MatmulPage::scheduleReplot() {
  if (!m_replot->isActive()) m_replot->start();
}

void MatmulPage::replot() {
  const Theme& th = m_ctx.theme();
  const bool logAxis = m_log->isChecked();
  m_plot->clearPlottables();
  m_plot->clearItems();
  stylePlot(m_plot, th);
  m_plot->yAxis->grid()->setVisible(false);

  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (int i = 0; i < m_rows.size(); ++i) ticker->addTick(i, m_rows[i].name);
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setRange(-0.6, double(m_rows.size()) - 0.4);

  // Reference rates at this size: the professor, and the best library on each kind of hardware.
  auto measuredRate = [&](const QString& key) {
    for (const Row& r : m_rows)
      if (r.key == key)
        if (const Result* res = measuredFor(r); res && res->ok()) return res->gflops;
    return 0.0;
  };
  const double naive = measuredRate(rowKey("cpu", "naive", -1));
  const double blasAll = measuredRate(rowKey("cpu", "blas", 0));
  // "% of BLAS" is against the faster BLAS run: on a busy shared machine all threads can lose to one.
  const double blasBest = std::max(blasAll, measuredRate(rowKey("cpu", "blas", 1)));
  const double cublas = measuredRate(rowKey("cuda", "cublas", -1));
  QString naiveSrc;
  const double naiveRef = naive > 0 ? naive : naiveGflopsForEstimate(m_n, &naiveSrc);
  const double cpuPeak = m_ctx.cpuInfo().peak_gflops_fp32;
  const double gpuPeak = m_ctx.gpuInfo() ? m_ctx.gpuInfo()->peak_gflops_fp32 : 0.0;

  // First pass: what to draw, and the value range.
  struct Bar {
    int row;
    double value;
    bool recorded;
    bool gpu;
    QString text;
    models::RateRange range = {};  // measured bars: the samples' spread, drawn as a whisker
  };
  QVector<Bar> bars;
  struct Note {
    int row;
    QString text;
    QColor color;
  };
  QVector<Note> notes;
  double vmax = 0, vmin = 1e300;
  bool anyCpu = false, anyGpu = false, anyRecorded = false;
  QString recordedLabel;
  QString firstPending;
  for (const Row& r : m_rows)
    if (m_pending.contains(r.key)) {
      firstPending = r.key;
      break;
    }
  for (int i = 0; i < m_rows.size(); ++i) {
    const Row& row = m_rows[i];
    const bool gpu = row.backend == "cuda";
    const Result* res = measuredFor(row);
    int src = -1;
    const Result* rec = recordedFor(row, &src);
    const bool pending = m_pending.contains(row.key);
    if (res && !pending) {
      if (!res->error.empty()) {
        notes.push_back({i, tr("not run: %1").arg(QString::fromStdString(res->error)), th.mutedText});
      } else if (!res->check.passed) {
        // A wrong answer is never a bar: its speed means nothing.
        notes.push_back({i, tr("✗ wrong answer: max rel err %1").arg(res->check.max_rel_err, 0, 'e', 1), th.bad});
      } else if (res->gflops > 0) {
        // Two short lines read better on a projector than one long one: the rate and speed-up, then the shares.
        const models::RateRange range = models::gflops_range(*res);
        const QString spread = QString::fromStdString(models::spread_text(range));
        // The spread opens the second line: the first (rate, speed-up) is the one that must fit beside the bar.
        QStringList parts{fmtSi(res->gflops * 1e9, "FLOP/s")}, shares{spread};
        shares.removeAll(QString());
        if (row.backend == "cpu" && row.variant == "naive") parts << tr("the professor");
        else if (naiveRef > 0)
          parts << tr("%1%2× the professor").arg(naive > 0 ? QString() : QStringLiteral("≈"), fmtSi(res->gflops / naiveRef, "", 3).trimmed());
        const double lib = gpu ? cublas : blasBest;
        const bool isLib = gpu ? row.variant == "cublas" : row.variant == "blas";
        if (lib > 0 && !isLib) shares << tr("%1 % of %2").arg(fmtFixed(100 * res->gflops / lib, res->gflops / lib < 0.1 ? 1 : 0), gpu ? tr("cuBLAS") : tr("BLAS"));
        const double peak = gpu ? gpuPeak : cpuPeak;
        // Above 100 % means the peak itself was measured low (a busy shared machine): say so, not "140 %".
        if (peak > 0 && res->gflops > peak * 1.02) shares << tr("above the measured peak");
        else if (peak > 0) shares << tr("%1 % of peak").arg(fmtFixed(100 * res->gflops / peak, res->gflops / peak < 0.1 ? 1 : 0));
        bars.push_back({i, res->gflops, false, gpu, QStringLiteral("✓ ") + parts.join(QStringLiteral(" · ")) +
                                                      (shares.isEmpty() ? QString() : QLatin1Char('\n') + shares.join(QStringLiteral(" · "))), range});
        vmax = std::max(vmax, res->gflops);
        vmin = std::min(vmin, res->gflops);
        (gpu ? anyGpu : anyCpu) = true;
      }
    } else if (pending) {
      notes.push_back({i, row.key == firstPending ? tr("running…") : tr("waiting…"), th.mutedText});
    } else if (m_notes.contains(row.key)) {
      notes.push_back({i, m_notes.value(row.key), th.mutedText});
    }
    if (rec) {
      anyRecorded = true;
      recordedLabel = m_ctx.results().sourceLabel(src);
      // The share of the same recording's library run: the ladder's "% of cuBLAS" is the number to judge it by.
      // On the CPU the faster of the recording's two BLAS runs is the reference (see blasBest).
      QString share;
      const QStringList libKeys = gpu ? QStringList{rowKey("cuda", "cublas", -1)}
                                      : QStringList{rowKey("cpu", "blas", 0), rowKey("cpu", "blas", 1)};
      double libRate = 0;
      if (!libKeys.contains(row.key))
        for (const Row& lr : m_rows)
          if (libKeys.contains(lr.key)) {
            int lsrc = -1;
            if (const Result* lib = recordedFor(lr, &lsrc); lib && lsrc == src) libRate = std::max(libRate, lib->gflops);
          }
      if (libRate > 0)
        share = tr(" · %1 % of %2").arg(fmtFixed(100 * rec->gflops / libRate, 0), gpu ? tr("cuBLAS") : tr("BLAS"));
      bars.push_back({i, rec->gflops, true, gpu,
                      tr("%1%2\n%3").arg(fmtSi(rec->gflops * 1e9, "FLOP/s"), share, recordedLabel)});
      vmax = std::max(vmax, rec->gflops);
      vmin = std::min(vmin, rec->gflops);
    }
  }
  // The peaks belong on the chart when bars of that hardware are there: they say how far from the ceiling we are.
  if (anyCpu && cpuPeak > 0) vmax = std::max(vmax, cpuPeak);
  if (anyGpu && gpuPeak > 0) vmax = std::max(vmax, gpuPeak);
  if (vmax <= 0) {
    vmax = 100;
    vmin = 0.1;
  }

  QFont labelFont(QStringLiteral("DejaVu Sans"));
  labelFont.setPointSize(th.plotFontPt);
  m_plot->yAxis->setTickLabelFont(labelFont);
  // Bar labels a little smaller than the row names: they carry more text and must fit beside the bars.
  QFont rowFont = labelFont;
  labelFont.setPointSize(std::max(9, th.plotFontPt - 2));
  const QFontMetrics labelMetrics(labelFont), rowMetrics(rowFont);
  // The axis rect's width is only known after a layout: the widget's width less the row names and margins.
  int namesPx = 0;
  for (const Row& r : m_rows) namesPx = std::max(namesPx, rowMetrics.horizontalAdvance(r.name));
  const double widthPx = m_exportWidth > 0 ? m_exportWidth : m_plot->width();
  const double plotPx = std::max(250.0, widthPx - namesPx - 50.0);
  auto textFrac = [&](const QString& t) {
    int w = 0;
    for (const QString& line : t.split(QLatin1Char('\n'))) w = std::max(w, labelMetrics.horizontalAdvance(line));
    return (w + 16) / plotPx;
  };

  // Stretch the value axis so every label fits to the right of its bar; a label longer than ~60 % of the plot
  // goes inside its bar instead.
  double lo, hi;
  if (logAxis) {
    useLogAxis(m_plot, true, QStringLiteral("FLOP/s"), 1e9);  // the bars are in GFLOP/s
    lo = std::pow(10.0, std::floor(std::log10(std::max(1e-3, vmin / 2))));
    double span = std::log10(vmax * 1.3) - std::log10(lo);
    for (const Bar& b : bars) {
      const double f = textFrac(b.text);
      if (f < 0.9) span = std::max(span, (std::log10(b.value) - std::log10(lo)) / (0.97 - f));
    }
    // ...but never so far that the longest bar shrinks below about a third of the plot.
    span = std::min(span, std::max(std::log10(vmax * 1.3) - std::log10(lo), (std::log10(vmax) - std::log10(lo)) / 0.33));
    hi = lo * std::pow(10.0, span);
  } else {
    useSiAxis(m_plot->xAxis, QStringLiteral("FLOP/s"), 1e9);
    lo = 0;
    hi = vmax * 1.08;
    for (const Bar& b : bars) {
      const double f = textFrac(b.text);
      if (f < 0.9) hi = std::max(hi, b.value / (0.97 - f));
    }
    hi = std::min(hi, std::max(vmax * 1.08, vmax / 0.3));  // the longest bar keeps at least ~30 % of the width
  }
  m_plot->xAxis->setRange(lo, hi);

  auto makeBars = [&](bool recorded, bool gpu) {
    auto* b = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    const QColor c = gpu ? th.gpu : th.cpu;
    if (recorded) {
      b->setPen(QPen(c, 2.5));
      b->setBrush(Qt::NoBrush);
      b->setName(recordedLabel);
    } else {
      b->setPen(QPen(c.darker(115), 1));
      b->setBrush(c);
      b->setName(tr("measured here"));
    }
    b->setBaseValue(lo);
    b->setWidthType(QCPBars::wtPlotCoords);
    return b;
  };
  QCPBars* set[2][2] = {{nullptr, nullptr}, {nullptr, nullptr}};  // [recorded][gpu]
  for (const Bar& b : bars) {
    QCPBars*& target = set[b.recorded][b.gpu];
    if (!target) target = makeBars(b.recorded, b.gpu);
    // Measured and recorded share a row: measured above, recorded below.
    const bool both = std::count_if(bars.begin(), bars.end(), [&](const Bar& o) { return o.row == b.row; }) > 1;
    const double key = b.row + (both ? (b.recorded ? 0.2 : -0.2) : 0.0);
    const double width = both ? 0.38 : 0.62;
    target->setWidth(width);
    // QCPBars draws from the base value to base + value, so on the log axis (base = lo) the length is value - lo.
    target->addData(key, b.value - (logAxis ? lo : 0.0));
    if (b.range.samples > 1) addWhisker(m_plot, key, std::max(b.range.low, logAxis ? lo : 0.0), b.range.high, th.text);

    // The label goes inside a long bar (right-aligned, in the bar's contrast colour) and after a short one.
    auto* t = new QCPItemText(m_plot);
    t->setFont(labelFont);
    t->setText(b.text);
    t->position->setCoords(b.value, key);
    const double fracAlong = logAxis ? (std::log10(b.value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                                     : (b.value - lo) / (hi - lo);
    // Outside when it fits there; else inside when the bar is long enough to hold it; else outside regardless.
    const bool inside = fracAlong + textFrac(b.text) > 0.985 && fracAlong >= textFrac(b.text);
    if (!inside) t->position->setCoords(std::max(b.value, b.range.high), key);  // after the whisker
    t->setTextAlignment(inside ? Qt::AlignRight : Qt::AlignLeft);
    if (inside && !b.recorded) {
      t->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
      t->setPadding(QMargins(0, 0, 8, 0));
      t->setColor(QColor(Qt::black));  // orange and green bars both read best with black text
    } else {
      t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
      t->setPadding(QMargins(8, 0, 0, 0));
      t->setColor(th.text);
      if (inside && b.recorded) {
        t->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
        t->setPadding(QMargins(0, 0, 8, 0));
      }
    }
  }
  for (const Note& n : notes) {
    auto* t = new QCPItemText(m_plot);
    QFont f = labelFont;
    f.setBold(n.color == th.bad);
    t->setFont(f);
    t->setText(n.text);
    t->setColor(n.color);
    t->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    t->position->setTypeY(QCPItemPosition::ptPlotCoords);
    t->position->setCoords(0.01, n.row);
    t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  }
  auto peakLine = [&](double peak, const QColor& color, const QString& what, const std::string& src) {
    auto* line = new QCPItemStraightLine(m_plot);
    line->point1->setCoords(peak, 0);
    line->point2->setCoords(peak, 1);
    line->setPen(seriesPen(th, color, SeriesKind::Datasheet));
    auto* t = new QCPItemText(m_plot);
    t->setFont(labelFont);
    const QString how = src.rfind("measured", 0) == 0 ? tr("measured FMA") : tr("model");
    t->setText(tr("%1 peak %2 (%3)").arg(what, fmtSi(peak * 1e9, "FLOP/s"), how));
    t->setColor(color.darker(th.dark ? 80 : 140));
    t->position->setTypeX(QCPItemPosition::ptPlotCoords);
    t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(peak, 0.0);
    // Beside the line on the side with room, so a low peak's label is not cut off at the axis.
    const double at = logAxis ? (std::log10(peak) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (peak - lo) / (hi - lo);
    t->setPositionAlignment((at < 0.5 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    t->setPadding(QMargins(6, 2, 6, 2));
    t->setBrush(QBrush(th.surface));
  };
  if (anyCpu && cpuPeak > 0) peakLine(cpuPeak, th.cpu, tr("CPU"), m_ctx.cpuInfo().peak_source);
  if (anyGpu && gpuPeak > 0) peakLine(gpuPeak, th.gpu, tr("GPU"), m_ctx.gpuInfo()->peak_source);
  m_plot->replot(QCustomPlot::rpQueuedReplot);

  m_recordedBadge->setVisible(anyRecorded);
  // Badges stay short (they share the title row, and the projector font is large); the detail is in the tooltip.
  if (anyRecorded) {
    m_recordedBadge->set(SourceBadge::Kind::Recorded, recordedLabel);
    m_recordedBadge->setToolTip(tr("Hollow bars: results from the opened recording (%1)").arg(recordedLabel));
  }
  m_measuredBadge->setVisible(anyCpu || anyGpu);  // "measured here" only over bars measured here
  m_measuredBadge->set(SourceBadge::Kind::MeasuredHere);
  m_measuredBadge->setToolTip(tr("Solid bars: measured on this machine now, at %1").arg(shape(m_m, m_k, m_n)));

  // The results strip: the ratios a class should remember.
  QStringList s;
  if (naive > 0) s << tr("Professor: <b>%1</b>").arg(fmtSi(naive * 1e9, "FLOP/s"));
  else s << tr("Professor: not measured at this size (%1 assumed for ratios)").arg(fmtSi(naiveRef * 1e9, "FLOP/s"));
  if (blasAll > 0 && naiveRef > 0)
    s << tr("BLAS on all cores: <b>%1× faster</b>").arg(fmtSi(blasAll / naiveRef, "", 3).trimmed());
  if (cublas > 0 && naiveRef > 0)
    s << tr("cuBLAS: <b>%1× faster</b>").arg(fmtSi(cublas / naiveRef, "", 3).trimmed());
  // BLAS on 1 thread against all: named only when the spread (and a quiet machine) supports it.
  const Result* one = measuredFor(m_rows[2]);
  const Result* all = measuredFor(m_rows[3]);
  if (one && all && one->ok() && all->ok())
    s << QString::fromStdString(models::threads_conclusion(models::gflops_range(*one), models::gflops_range(*all),
                                                           std::max(2, m_ctx.cpuInfo().threads), m_busy.busy()).text).toHtmlEscaped();
  const QString warning = busyWarningHtml(m_busy, th);
  m_summary->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                     tr("<b>%1</b> · ").arg(shape(m_m, m_k, m_n)) + s.join(QStringLiteral(" · ")));
  const int passed = passedCheckCount(), wrong = wrongAnswerCount();
  if (passed + wrong == 0) m_check->setText(tr("Same answer: nothing run at this size yet"));
  else
    m_check->setText(tr("Same answer: <span style='color:%1'><b>%2 ✓</b></span>%3")
                         .arg(th.good.name())
                         .arg(passed)
                         .arg(wrong ? tr(" · <span style='color:%1'><b>%2 ✗</b></span>").arg(th.bad.name()).arg(wrong)
                                    : tr(" — every variant agrees with the FP64 reference")));
}

void MatmulPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  replot();
}

// ---- export and the lesson ----

QString MatmulPage::csv() const {
  std::vector<models::GemmBarRow> rows;
  const Result* naive = m_rows.isEmpty() ? nullptr : measuredFor(m_rows.front());  // the naive loop is row 0
  for (const Row& row : m_rows) {
    int src = -1;
    rows.push_back({row.name.toStdString(), row.threads, "measured here", measuredFor(row)});
    const Result* rec = recordedFor(row, &src);
    rows.push_back({row.name.toStdString(), row.threads, m_ctx.results().sourceLabel(src).toStdString(), rec});
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

double MatmulPage::quickRatioAt60() const {
  // Measured here already? Use the newest pair at 60³.
  double naive = 0, blas = 0;
  for (const StoredResult& s : m_ctx.results().all()) {
    const Result& r = s.result;
    if (s.source >= 0 || !isFp32Gemm(r) || !r.ok() || r.param("n") != 60 || r.param("m") != 60 || r.param("k") != 60) continue;
    // The fastest run of each, as the quick measurement below takes: at 60³ a run lasts microseconds, and the
    // minimum is the least disturbed by the rest of the machine.
    if (r.backend == "cpu" && r.variant == "naive") naive = r.stats.min_s > 0 ? r.stats.min_s : r.stats.median_s;
    if (r.backend == "cpu" && r.variant == "blas" && r.param("threads") == 0)
      blas = r.stats.min_s > 0 ? r.stats.min_s : r.stats.median_s;
  }
  if (naive > 0 && blas > 0) return naive / blas;
  if (m_ctx.runner().isBusy()) return 0;  // never race the worker thread for the CPU backend
  // Quick enough to do right here: at 60³ a naive run is well under a millisecond.
  auto best = [this](const char* variant) {
    GemmSpec s;
    s.m = s.n = s.k = 60;
    s.variant = variant;
    s.threads = 0;
    auto op = m_ctx.cpu().make_gemm(s);
    if (!op->verify().passed) return 0.0;
    double t = 1e30;
    for (int i = 0; i < 30; ++i) t = std::min(t, op->run_once());
    return t;
  };
  const double tn = best("naive"), tb = best("blas");
  return tn > 0 && tb > 0 ? tn / tb : 0;
}

QString MatmulPage::simdSentence(const std::string& simd) {
  const int lanes = simdFp32Lanes(simd);
  if (lanes == 0) return tr("several cells at once with the CPU's SIMD instructions");
  return tr("%1 cells at once with SIMD instructions (this CPU: %2, so %1 FP32 lanes per instruction)")
      .arg(lanes)
      .arg(QString::fromStdString(simd));
}

LessonContent MatmulPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "A dense layer of a neural network is one matrix product, Y = X·W. Each output cell is a dot product: a row "
      "of X times a column of W, multiplied term by term and summed. Counting one multiply and one add per term, "
      "an m×k by k×n product costs 2·m·k·n floating-point operations (FLOPs).\n\n"
      "This page computes the very same product several ways and times each one. The naive loop is the professor: "
      "one core, one cell after another, reading memory in an awkward order. Reordering the loops lets the cache "
      "and the SIMD lanes help; BLAS adds careful blocking and then every core. On a GPU, a ladder of CUDA kernels "
      "climbs step by step towards NVIDIA's cuBLAS.\n\n"
      "Every variant is first checked against a double-precision reference; a wrong answer is shown as such and "
      "never timed. Speed is given in GFLOP/s, as a multiple of the professor, and as a share of the device's peak.");
  c.questions = {
      {tr("Count the work in a 2×3 times 3×4 product with the 2·M·K·N formula. What comes out?"),
       tr("48 FLOPs (2 × 2 × 3 × 4). The product is a 2×4 grid of 8 cells; each cell is a dot product of length 3, "
          "so 3 multiplications and 3 additions apiece.")},
      {tr("The practice script times a Python loop against numpy and finds numpy hundreds of times faster. Here, "
          "at the same n = 60, BLAS beats the naive loop only 13–27×. Which is right?"),
       tr("Both: they time different professors. The script's slow side is Python itself: every multiply-add goes "
          "through the interpreter, which looks up types and makes a new number object each time, tens of "
          "nanoseconds per step — so a loop of 216,000 multiply-adds takes tens of milliseconds and numpy is "
          "hundreds of times faster. The app's professor is a compiled loop: the same one-cell-at-a-time order, "
          "but each step is a few machine instructions, well under a nanosecond. Against it, BLAS on all cores is "
          "13–27× faster at n = 60 on the laptops we measured (the exercise below measures it here). The first "
          "ratio is the price of interpreting; the second is the price of working serially.")},
      {tr("The reordered loop does exactly the same arithmetic as the naive one. Why is it faster?"),
       tr("Because of the order it reads memory in. The naive i-j-k loop walks down a column of B, touching a new "
          "cache line at every step. In i-k-j order the inner loop runs along a row of B and a row of C, so every "
          "cache line is used fully and the compiler can do %1.")
           .arg(simdSentence(m_ctx.cpuInfo().simd))},
      {tr("Why does the naive loop not get faster on a machine with more cores?"),
       tr("It is written as one thread doing one cell after another: it never asks for a second core. The cells are "
          "independent, so the work could be shared out — that is what BLAS on all threads and the GPU do.")},
      {tr("Why check every answer before timing it?"),
       tr("A fast wrong answer is worth nothing, and some mistakes (skipped work, zeros) even make code look faster. "
          "Checking first also warms up the caches and the device, so the timed runs are fair.")},
  };
  c.exercises = {
      {tr("How many FLOPs does a 2×3 by 3×4 product take?"), tr("FLOPs"),
       [] { return models::matmul_flops(2, 3, 4); }, tr("2·M·K·N = 2 × 2 × 3 × 4 = 48."), 0.0},
      {tr("The lesson's layer: batch 32 times a 4096×4096 weight matrix. How many GFLOPs is one pass?"), tr("GFLOP"),
       [] { return models::matmul_flops(32, 4096, 4096) / 1e9; },
       tr("2 × 32 × 4096 × 4096 = 1,073,741,824 FLOPs, about 1.07 GFLOPs, for 131,072 independent cells."), 0.03},
      {tr("At n = 60 (the practice script), how many times faster is BLAS on all cores than the naive loop here? "
          "Predict, then let the app measure."),
       tr("× faster"), [this] { return quickRatioAt60(); },
       tr("Measured on this machine: the fastest of 30 runs of each (or of your n = 60 Run's runs), since at this "
          "size a run takes microseconds and the minimum is the least disturbed. The lesson only "
          "promises \"at least 10×\"; press \"n = 60\" and Run to see the bars."),
       0.5},
      {tr("At the naive loop's rate on this machine, how many seconds would one 4096³ product take?"), tr("s"),
       [this] { return naiveSecondsPerRun(4096, 4096, 4096, naiveGflopsForEstimate(4096)); },
       tr("137 GFLOPs divided by the naive loop's rate — which is why the page asks before running it."), 0.25},
  };
  c.exercises[2].measured = true;  // times n = 60 here
  c.exercises[3].measured = true;  // reads the naive rate, which a Run changes
  return c;
}

void MatmulPage::showEvent(QShowEvent* e) {
  Page::showEvent(e);
  // Keyboard focus left on a button outside the page (the device panel's) would turn Space into a click there;
  // the page's own visual takes it, so Space runs this page's experiment.
  QWidget* focus = QApplication::focusWidget();
  if (!focus || !isAncestorOf(focus)) m_plot->setFocus(Qt::OtherFocusReason);
}

GPULAB_REGISTER_PAGE(20, MatmulPage);

#include "pages/precision_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/experiments.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/vram_model.hpp"
#include "gpulab/precision_error.hpp"
#include "pages/page_registry.h"
#include "pages/running_example.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using gpulab::Precision;

namespace {

QString precName(Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }

int indexOf(Precision p) {
  for (std::size_t i = 0; i < gpulab::all_precisions.size(); ++i)
    if (gpulab::all_precisions[i] == p) return static_cast<int>(i);
  return 0;
}

QString sci(double v) {
  if (!(v > 0)) return QStringLiteral("0");
  return QString::number(v, 'e', 1);
}

// The library GEMM for a format on this backend (cuBLASLt for the formats only it has), or empty.
std::string variantFor(gpulab::Backend& be, Precision p, gpulab::Support* why) {
  gpulab::GemmSpec s;
  s.precision = p;
  const auto vs = be.gemm_variants();
  std::vector<std::string> order{"cublas", "cublaslt", "blas"};
  gpulab::Support first = gpulab::Support::no("no library GEMM on this backend");
  bool haveFirst = false;
  for (const auto& v : order) {
    if (std::find(vs.begin(), vs.end(), v) == vs.end()) continue;
    s.variant = v;
    const gpulab::Support sup = be.supports(s);
    if (sup.ok) {
      *why = sup;
      return v;
    }
    if (!haveFirst) {
      first = sup;
      haveFirst = true;
    }
  }
  *why = first;
  return {};
}

}  // namespace

PrecisionPage::PrecisionPage(AppContext& ctx) : Page(ctx) {
  for (Precision p : gpulab::all_precisions) {
    Row r;
    r.precision = p;
    m_rows.push_back(r);
  }

  m_views = new QTabWidget(this);
  m_views->setObjectName(QStringLiteral("precisionViews"));
  // The chart above, the table with every number and reason below; the teacher can drag the divider.
  auto* summary = new QSplitter(Qt::Vertical, m_views);
  summary->setChildrenCollapsible(true);
  m_plot = new QCustomPlot(summary);
  m_plot->setObjectName(QStringLiteral("precisionPlot"));
  m_plot->setMinimumHeight(230);
  m_table = new QTableWidget(0, 6, summary);
  m_table->setHorizontalHeaderLabels({tr("Format"), tr("Throughput"), tr("Datasheet"), tr("Max abs error"),
                                      tr("Rel. error"), tr("Status on this device")});
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setWordWrap(false);
  m_table->setTextElideMode(Qt::ElideRight);  // one line per format; the full reason is the row's tooltip
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionMode(QAbstractItemView::NoSelection);
  m_table->setToolTip(tr("Each format: measured throughput, the chosen card's datasheet throughput (dense), the "
                         "kernel's own check against FP64 (max abs error "
                         "at the checked cells), the emulated GEMM's relative error, and why a format cannot "
                         "run here."));
  m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  summary->addWidget(m_plot);
  summary->addWidget(m_table);
  summary->setStretchFactor(0, 3);
  summary->setStretchFactor(1, 2);
  m_views->addTab(summary, tr("Speed · size · error"));

  auto* under = new QWidget(m_views);
  auto* ul = new QVBoxLayout(under);
  ul->setContentsMargins(0, 0, 0, 0);
  m_uplot = new QCustomPlot(under);
  m_uplot->setObjectName(QStringLiteral("underflowPlot"));
  m_uplot->setMinimumHeight(230);
  m_ulabel = new QLabel(under);
  m_ulabel->setWordWrap(true);
  m_ulabel->setTextFormat(Qt::RichText);
  ul->addWidget(m_uplot, 1);
  ul->addWidget(m_ulabel);
  m_views->addTab(under, tr("FP16 underflow"));
  m_views->setToolTip(tr("Two views: the formats side by side, and what FP16's range does to tiny gradients."));
  setVisual(m_views);

  m_badge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("speed"));
  m_emuBadge = new SourceBadge(SourceBadge::Kind::Model, tr("error: emulated"));
  m_recBadge = new SourceBadge(SourceBadge::Kind::Recorded, QString());
  m_sheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, QString());
  addBadge(m_badge);
  addBadge(m_sheetBadge);
  addBadge(m_emuBadge);
  addBadge(m_recBadge);
  m_recBadge->hide();

  m_speedLabel = addResultLabel(3, Qt::RichText);  // the widest: it also carries the datasheet's ratio
  m_errorLabel = addResultLabel(2, Qt::RichText);
  m_tf32Label = addResultLabel(2, Qt::RichText);
  m_tf32Label->setText(tr("<b>FP32 means FP32</b>: TF32 is its own row and is never switched on behind it."));
  m_tf32Label->setToolTip(tr("Some frameworks let FP32 matrix multiplies run on TF32 tensor cores by default, "
                             "which beats the FP32 peak with a 10-bit mantissa. Here each row is exactly its "
                             "format; an FP32 result above the FP32 peak is flagged."));

  buildControls();
  runBar()->setRunText(tr("Run all formats"));
  runBar()->runButton()->setToolTip(
      tr("Time a GEMM in every format this device runs, then compute each format's error against FP64 (Space)."));

  m_replot = makeRedrawTimer([this] { replot(); });
  m_underflowTimer = makeRedrawTimer([this] { recomputeUnderflow(); }, 120);  // the demo takes tens of ms: recompute once a slider rests

  refreshDatasheet();
  refreshSupport();
  recomputeUnderflow();
  recordingsChanged();
}

void PrecisionPage::buildControls() {
  auto* form = new QFormLayout;
  m_backend = new QComboBox(this);
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_backend->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_backend->setMinimumContentsLength(10);
  m_backend->addItem(tr("CPU · OpenBLAS"), QStringLiteral("cpu"));
  if (m_ctx.hasGpu()) {
    m_backend->addItem(tr("GPU · %1").arg(QString::fromStdString(m_ctx.gpuInfo()->name)), QStringLiteral("cuda"));
    m_backend->setCurrentIndex(1);
    m_backend->setToolTip(tr("Where the formats are timed. %1")
                              .arg(tensorCoreText(gpulab::models::find_gpu(m_ctx.gpuInfo()->name))));
  } else {
    m_backend->setToolTip(tr("Where the formats are timed. No GPU here (%1), so only FP64 and FP32 run; the "
                             "others are greyed with the reason, and the datasheet bars show every format.")
                              .arg(m_ctx.gpuReason()));
  }
  form->addRow(tr("Device"), m_backend);
  // Whose datasheet is drawn beside the measurements: with no GPU here this is where the tensor cores show.
  m_card = new QComboBox(this);
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(10);
  for (const auto& g : gpulab::models::catalogue())
    m_card->addItem(QString::fromStdString(g.name), QString::fromStdString(g.name));
  const gpulab::models::GpuSpec* detected = m_ctx.gpuInfo() ? gpulab::models::find_gpu(m_ctx.gpuInfo()->name) : nullptr;
  const int cardIndex = m_card->findData(detected ? QString::fromStdString(detected->name) : QStringLiteral("H100 SXM"));
  m_card->setCurrentIndex(std::max(0, cardIndex));
  m_card->setToolTip(tr("A card from the datasheet catalogue (dense figures): its throughput in every format is "
                        "drawn as dashed bars beside what was measured here or recorded."));
  form->addRow(tr("Datasheet"), m_card);
  // Why formats are greyed, in full, beside the device that decides it: the class reads it, nobody hovers.
  m_reasons = new QLabel(this);
  m_reasons->setWordWrap(true);
  m_reasons->setTextFormat(Qt::RichText);
  m_reasons->setToolTip(tr("What the backend said when asked whether it can run each format."));

  auto* sizeRow = new QHBoxLayout;
  m_size = new QSlider(Qt::Horizontal, this);
  m_size->setRange(8, 14);
  m_size->setValue(m_ctx.hasGpu() ? 13 : 10);
  m_size->setPageStep(1);
  m_size->setToolTip(tr("The timed GEMM is n × n × n. Large sizes reach the compute roof; on a 2-core CPU "
                        "1024 takes a fraction of a second, on a GPU use 8192."));
  m_sizeLabel = new QLabel(this);
  m_sizeLabel->setMinimumWidth(60);
  m_sizeLabel->setToolTip(m_size->toolTip());
  sizeRow->addWidget(m_size, 1);
  sizeRow->addWidget(m_sizeLabel);
  form->addRow(tr("GEMM size"), sizeRow);
  controls()->addLayout(form);
  controls()->addWidget(m_reasons);

  auto* ug = new QGroupBox(tr("Underflow demo"), this);
  auto* uf = new QFormLayout(ug);
  m_scale = new QComboBox(ug);
  for (double s : {8.0, 128.0, 1024.0, 8192.0, 65536.0}) m_scale->addItem(tr("× %1").arg(fmtCount(qint64(s))), s);
  m_scale->setCurrentIndex(2);
  m_scale->setToolTip(tr("The fixed loss scale: the loss (so every gradient) is multiplied by this before the "
                         "backward pass and divided out in FP32 before the update. Too small leaves tiny "
                         "gradients at zero; too big overflows FP16's 65,504."));
  uf->addRow(tr("Loss scale"), m_scale);
  auto expSlider = [this, uf](const QString& name, int lo, int hi, int v, QSlider** s, QLabel** l, const QString& tip) {
    auto* row = new QHBoxLayout;
    *s = new QSlider(Qt::Horizontal, this);
    (*s)->setRange(lo, hi);
    (*s)->setValue(v);
    (*s)->setPageStep(1);
    (*s)->setToolTip(tip);
    *l = new QLabel(this);
    (*l)->setMinimumWidth(50);
    (*l)->setToolTip(tip);
    row->addWidget(*s, 1);
    row->addWidget(*l);
    uf->addRow(name, row);
    connect(*s, &QSlider::valueChanged, this, [this] { m_underflowTimer->start(); });
  };
  expSlider(tr("Smallest gradient"), -12, -6, -8, &m_gmin, &m_gminLabel,
            tr("The smallest gradient magnitude in the demo (powers of ten). FP16 keeps nothing below ~3e-8."));
  expSlider(tr("Largest gradient"), -5, 0, -4, &m_gmax, &m_gmaxLabel,
            tr("The largest gradient magnitude. Large ones times a big loss scale overflow FP16."));
  connect(m_scale, &QComboBox::currentIndexChanged, this, [this] { m_underflowTimer->start(); });
  controls()->addWidget(ug);

  auto* note = new QLabel(tr("Errors come from a 64 × 64 × 4,096 product computed in software with each format's "
                             "exact rounding (inputs rounded, FP32 sums, FP16/BF16 results rounded), against FP64. "
                             "The device's own kernels are checked against FP64 too: the max abs error column."),
                          this);
  note->setWordWrap(true);
  note->setObjectName(QStringLiteral("precisionNote"));
  controls()->addWidget(note);

  connect(m_backend, &QComboBox::currentIndexChanged, this, [this] { refreshSupport(); });
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { refreshDatasheet(); });
  connect(m_size, &QSlider::valueChanged, this, [this] { m_sizeLabel->setText(fmtCount(gemmSize())); });
  m_sizeLabel->setText(fmtCount(gemmSize()));
}

gpulab::Backend& PrecisionPage::backend() {
  if (m_backend->currentData().toString() == QStringLiteral("cuda") && m_ctx.cuda()) return *m_ctx.cuda();
  return m_ctx.cpu();
}

void PrecisionPage::refreshSupport() {
  gpulab::Backend& be = backend();
  for (Row& r : m_rows) {
    gpulab::Support why;
    const std::string v = variantFor(be, r.precision, &why);
    r.supported = !v.empty();
    r.variant = QString::fromStdString(v);
    r.reason = r.supported ? QString() : QString::fromStdString(why.reason);
  }
  scheduleReplot();
}

void PrecisionPage::refreshDatasheet() {
  const gpulab::models::GpuSpec* card = gpulab::models::find_gpu(datasheetCard().toStdString());
  for (Row& r : m_rows) r.datasheetFlops = card ? card->peak_flops_for(r.precision).value_or(0) : 0;
  // Short: a fourth badge beside the title; what the dashed bars are says the tooltip.
  m_sheetBadge->set(SourceBadge::Kind::Datasheet, datasheetCard());
  m_sheetBadge->setToolTip(tr("Dashed bars: the %1's datasheet throughput in each format (dense, no sparsity).")
                               .arg(datasheetCard()));
  fitBadges();
  scheduleReplot();
}

void PrecisionPage::setDatasheetCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
  refreshDatasheet();
  replot();
}

QString PrecisionPage::datasheetCard() const { return m_card->currentData().toString(); }

QString PrecisionPage::speedText() const { return m_speedLabel->text(); }

QStringList PrecisionPage::throughputLabels() const { return m_throughputLabels; }

const PrecisionPage::Row& PrecisionPage::row(Precision p) const { return m_rows[indexOf(p)]; }

void PrecisionPage::setSize(int n) {
  int e = 8;
  while ((1 << (e + 1)) <= n && e < 14) ++e;
  m_size->setValue(e);
}

int PrecisionPage::gemmSize() const { return 1 << m_size->value(); }

void PrecisionPage::setLossScale(double scale) {
  int i = m_scale->findData(scale);
  if (i < 0) {
    m_scale->addItem(tr("× %1").arg(scale), scale);
    i = m_scale->count() - 1;
  }
  m_scale->setCurrentIndex(i);
}

void PrecisionPage::setGradientRange(int minExp10, int maxExp10) {
  m_gmin->setValue(minExp10);
  m_gmax->setValue(maxExp10);
}

void PrecisionPage::run() {
  gpulab::Backend& be = backend();
  refreshSupport();
  const long long n = gemmSize();
  m_ranOnGpu = be.kind() == "cuda";
  for (Row& r : m_rows) {
    r.flopsPerS = 0;
    r.checkMaxAbs = -1;
  }
  struct Job {
    Precision p;
    std::string variant;
  };
  std::vector<Job> jobs;
  for (const Row& r : m_rows)
    if (r.supported) jobs.push_back({r.precision, r.variant.toStdString()});
  gpulab::MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = 0.5;
  gpulab::Backend* bePtr = &be;
  startJob(tr("Precision: %1 formats at n = %2").arg(jobs.size()).arg(n), [bePtr, jobs, n](const gpulab::RunContext& ctx) {
    // Timing first (70 % of the bar), then the emulated errors of all seven formats (fast, CPU only).
    const double timingShare = 0.7;
    for (std::size_t i = 0; i < jobs.size() && !ctx.cancelled(); ++i) {
      gpulab::RunContext sub = ctx;
      sub.progress_base = timingShare * double(i) / double(jobs.size());
      sub.progress_span = timingShare / double(jobs.size());
      gpulab::GemmSpec s;
      s.m = s.n = s.k = n;
      s.precision = jobs[i].p;
      s.variant = jobs[i].variant;
      gpulab::run_gemm(*bePtr, s, sub);
    }
    int i = 0;
    for (Precision p : gpulab::all_precisions) {
      if (ctx.cancelled()) break;
      ctx.report(timingShare + (1 - timingShare) * i++ / 7.0,
                 std::string("error of ") + std::string(gpulab::display_name(p)) + " against FP64");
      gpulab::PrecisionErrorSpec es;
      es.m = 64;
      es.n = 64;
      es.k = 4096;
      es.precision = p;
      const gpulab::Result r = gpulab::emulated_error_result(es);
      if (ctx.on_result) ctx.on_result(r);
    }
  }, policy);
}

void PrecisionPage::onResult(const gpulab::Result& r) {
  Row& row = m_rows[indexOf(r.precision)];
  if (r.experiment == "precision_error") {
    row.relFro = r.param("rel_frobenius", -1);
    row.emuMaxAbs = r.check.max_abs_err;
  } else if (r.experiment == "gemm") {
    if (r.ok()) {
      row.flopsPerS = r.gflops * 1e9;
      row.checkMaxAbs = r.check.max_abs_err;
    } else {
      runBar()->showError(tr("%1: %2").arg(precName(r.precision), QString::fromStdString(r.error)));
    }
  }
  scheduleReplot();
}

void PrecisionPage::onRunFinished(bool cancelled) {
  replot();
  if (cancelled) return;
  // The TF32 guard: an "FP32" GEMM faster than the FP32 peak did not run in FP32.
  const Row& fp32 = row(Precision::fp32);
  double fp32Peak = 0;
  if (m_ranOnGpu && m_ctx.gpuInfo()) {
    if (const auto* spec = gpulab::models::find_gpu(m_ctx.gpuInfo()->name))
      fp32Peak = spec->peak_flops_for(Precision::fp32).value_or(0);
  } else {
    fp32Peak = m_ctx.cpuInfo().peak_gflops_fp32 * 1e9;
  }
  if (fp32.flopsPerS > 0 && fp32Peak > 0 && fp32.flopsPerS > 1.05 * fp32Peak)
    m_tf32Label->setText(tr("<b style='color:%1'>FP32 ran at %2, above the FP32 peak of %3</b>: something (TF32?) "
                            "was not plain FP32.")
                             .arg(m_ctx.theme().bad.name(), fmtSi(fp32.flopsPerS, "FLOP/s"), fmtSi(fp32Peak, "FLOP/s")));
  else if (fp32.flopsPerS > 0 && fp32Peak > 0)
    m_tf32Label->setText(tr("<b>FP32 means FP32</b>: %1 = %2 % of the FP32 peak (%3); TF32 is its own row.")
                             .arg(fmtSi(fp32.flopsPerS, "FLOP/s"), fmtFixed(100 * fp32.flopsPerS / fp32Peak, 0),
                                  fmtSi(fp32Peak, "FLOP/s")));
  runBar()->showStatus(tr("Done: throughput of every format this device runs, error of all seven."));
}

void PrecisionPage::recordingsChanged() {
  for (Row& r : m_rows) {
    r.recordedFlops = 0;
    r.recordedLabel.clear();
  }
  QStringList labels;
  for (const auto& s : m_ctx.results().all()) {
    if (s.source < 0 || !s.result.ok() || s.result.experiment != "gemm") continue;
    Row& r = m_rows[indexOf(s.result.precision)];
    // Only the device the recording is about (its GPU when it had one), at the size that reached the roof.
    if (s.result.gflops * 1e9 > r.recordedFlops) {
      r.recordedFlops = s.result.gflops * 1e9;
      r.recordedLabel = m_ctx.results().sourceLabel(s.source);
    }
    labels << m_ctx.results().sourceLabel(s.source);
  }
  labels.removeDuplicates();
  m_recBadge->setVisible(!labels.isEmpty());
  if (!labels.isEmpty()) m_recBadge->set(SourceBadge::Kind::Recorded, tr("hollow bars: %1").arg(labels.join(", ")));
  fitBadges();
  scheduleReplot();
}

void PrecisionPage::scheduleReplot() { m_replot->start(); }

void PrecisionPage::resizeEvent(QResizeEvent* e) {
  Page::resizeEvent(e);
  scheduleReplot();  // the value labels go inside or past their bars by the panel's width
}

void PrecisionPage::recomputeUnderflow() {
  gpulab::UnderflowSpec spec;
  spec.min_grad = std::pow(10.0, m_gmin->value());
  spec.max_grad = std::pow(10.0, m_gmax->value());
  spec.loss_scale = m_scale->currentData().toDouble();
  spec.count = 100000;
  spec.steps = 200;
  spec.bins = 30;
  m_gminLabel->setText(QStringLiteral("1e%1").arg(m_gmin->value()));
  m_gmaxLabel->setText(QStringLiteral("1e%1").arg(m_gmax->value()));
  m_underflow = gpulab::run_underflow_demo(spec);
  replotUnderflow();
}

QString PrecisionPage::underflowSummary() const {
  const auto* plain = m_underflow.find(gpulab::UnderflowMethod::fp16_plain);
  const auto* scaled = m_underflow.find(gpulab::UnderflowMethod::fp16_static_scale);
  const auto* dyn = m_underflow.find(gpulab::UnderflowMethod::fp16_dynamic_scale);
  const auto* bf16 = m_underflow.find(gpulab::UnderflowMethod::bf16_plain);
  if (!plain || !scaled || !dyn || !bf16) return {};
  const double n = double(m_underflow.spec.count);
  auto pct = [n](long long lost) { return fmtFixed(100.0 * double(lost) / n, 1); };
  return tr("Of %1 gradients: <b>FP16 without loss scaling lost %2 (%3 %)</b> — every one below 3.0e-8 rounds "
            "to zero. FP16 × %4: %5 lost. Dynamic scaling: %6 lost, %7 skipped steps, scale ended at %8. "
            "<b>BF16: %9 lost</b> (FP32's exponent range).")
      .arg(fmtCount(m_underflow.spec.count), fmtCount(plain->total_lost), pct(plain->total_lost),
           fmtCount(static_cast<long long>(m_underflow.spec.loss_scale)), fmtCount(scaled->total_lost),
           fmtCount(dyn->total_lost), fmtCount(dyn->skipped_steps), QStringLiteral("2^%1").arg(std::log2(dyn->final_scale), 0, 'f', 0),
           fmtCount(bf16->total_lost));
}

void PrecisionPage::replotUnderflow() {
  const Theme& theme = m_ctx.theme();
  QCustomPlot* p = m_uplot;
  p->clearGraphs();
  p->clearItems();
  stylePlot(p, theme);
  useLogAxis(p, true);  // SI prefixes: 100 n = 0.0000001
  p->xAxis->setLabel(tr("Gradient magnitude (µ millionth, n billionth)"));
  p->yAxis->setLabel(tr("Updates lost (%)"));
  p->legend->setVisible(true);
  p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

  struct Style {
    gpulab::UnderflowMethod m;
    QColor color;
    QCPScatterStyle::ScatterShape shape;
    Qt::PenStyle pen;
  };
  const Style styles[] = {
      {gpulab::UnderflowMethod::fp16_plain, theme.precision(Precision::fp16), QCPScatterStyle::ssDisc, Qt::SolidLine},
      {gpulab::UnderflowMethod::fp16_static_scale, theme.precision(Precision::fp16).darker(140), QCPScatterStyle::ssSquare, Qt::SolidLine},
      {gpulab::UnderflowMethod::fp16_dynamic_scale, theme.precision(Precision::fp16).darker(190), QCPScatterStyle::ssTriangle, Qt::SolidLine},
      {gpulab::UnderflowMethod::bf16_plain, theme.precision(Precision::bf16), QCPScatterStyle::ssDiamond, Qt::SolidLine},
      {gpulab::UnderflowMethod::fp32_reference, theme.precision(Precision::fp32), QCPScatterStyle::ssCross, Qt::DashLine},
  };
  const auto& u = m_underflow;
  for (const Style& st : styles) {
    const auto* m = u.find(st.m);
    if (!m) continue;
    QVector<double> xs, ys;
    for (std::size_t b = 0; b < u.bin_center.size(); ++b) {
      if (u.per_bin[b] == 0) continue;
      xs << u.bin_center[b];
      ys << 100.0 * double(m->lost[b]) / double(u.per_bin[b]);
    }
    QCPGraph* g = p->addGraph();
    QString name = QString::fromStdString(m->name);
    if (st.m == gpulab::UnderflowMethod::fp16_static_scale)
      name = tr("FP16 × %1 loss scale").arg(fmtCount(static_cast<long long>(u.spec.loss_scale)));
    g->setName(tr("%1: %2 % lost").arg(name, fmtFixed(100.0 * double(m->total_lost) / double(u.spec.count), 1)));
    g->setData(xs, ys, true);
    QPen pen(st.color, theme.lineWidth, st.pen);
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(st.shape, st.color, st.color, theme.markerSize));
  }
  // FP16's subnormals keep a gradient but round it coarsely: show where more than 10 % of it is wrong.
  if (const auto* plain = u.find(gpulab::UnderflowMethod::fp16_plain)) {
    QVector<double> xs, ys;
    for (std::size_t b = 0; b < u.bin_center.size(); ++b) {
      if (u.per_bin[b] == 0) continue;
      xs << u.bin_center[b];
      ys << 100.0 * double(plain->damaged[b]) / double(u.per_bin[b]);
    }
    QCPGraph* g = p->addGraph();
    g->setName(tr("FP16, no loss scaling: arrived but > 10 % off (%1 %)")
                   .arg(fmtFixed(100.0 * double(plain->total_damaged) / double(u.spec.count), 1)));
    g->setData(xs, ys, true);
    // Thinner than the five methods, but never under 3 px on a projector.
    g->setPen(QPen(theme.precision(Precision::fp16), std::max(theme.isProjector() ? 3.0 : 1.0, theme.lineWidth * 0.6),
                   Qt::DashLine));
  }
  const double lo = u.spec.min_grad / 2, hi = u.spec.max_grad * 2;
  p->xAxis->setRange(lo, hi);
  p->yAxis->setRange(-5, 105);

  // FP16's two limits: below half the smallest subnormal everything is zero; below the smallest normal,
  // precision drains away bit by bit.
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPointSize(std::max(8, theme.plotFontPt - 1));
  auto vline = [&](double x, const QString& text, Qt::Alignment align) {
    if (x < lo || x > hi) return;
    auto* l = new QCPItemStraightLine(p);
    l->point1->setCoords(x, 0);
    l->point2->setCoords(x, 1);
    l->setPen(QPen(theme.model, 1, Qt::DashLine));
    auto* t = new QCPItemText(p);
    t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(x, 0.5);
    t->setPositionAlignment(align | Qt::AlignVCenter);
    t->setPadding(QMargins(4, 2, 4, 2));
    t->setText(text);
    t->setFont(f);
    t->setColor(theme.mutedText);
    t->setRotation(-90);
  };
  vline(gpulab::smallest_subnormal(gpulab::fp16_format) / 2, tr("FP16 rounds to 0 below %1").arg(siTickLabel(gpulab::smallest_subnormal(gpulab::fp16_format) / 2)), Qt::AlignHCenter);
  vline(gpulab::smallest_normal(gpulab::fp16_format), tr("FP16 subnormal below %1").arg(siTickLabel(gpulab::smallest_normal(gpulab::fp16_format))), Qt::AlignHCenter);
  p->replot();
  m_ulabel->setText(underflowSummary());
}

void PrecisionPage::replot() {
  const Theme& theme = m_ctx.theme();
  QCustomPlot* p = m_plot;
  p->clearPlottables();
  p->clearItems();
  // Three panels in one row share the format rows: throughput, bytes per parameter, error.
  if (p->plotLayout()->columnCount() < 3) {
    p->plotLayout()->addElement(0, 1, new QCPAxisRect(p));
    p->plotLayout()->addElement(0, 2, new QCPAxisRect(p));
    p->plotLayout()->setColumnStretchFactors({1.6, 0.8, 1.0});
  }
  auto* rThr = qobject_cast<QCPAxisRect*>(p->plotLayout()->element(0, 0));
  auto* rBytes = qobject_cast<QCPAxisRect*>(p->plotLayout()->element(0, 1));
  auto* rErr = qobject_cast<QCPAxisRect*>(p->plotLayout()->element(0, 2));
  stylePlot(p, theme);
  p->legend->setVisible(false);

  const int n = m_rows.size();
  QSharedPointer<QCPAxisTickerText> rowsTicker(new QCPAxisTickerText);
  for (int i = 0; i < n; ++i) rowsTicker->addTick(i, precName(m_rows[i].precision));
  QSharedPointer<QCPAxisTickerText> blank(new QCPAxisTickerText);
  for (int i = 0; i < n; ++i) blank->addTick(i, QString());
  for (QCPAxisRect* r : {rThr, rBytes, rErr}) {
    QCPAxis* y = r->axis(QCPAxis::atLeft);
    y->setTicker(r == rThr ? rowsTicker : blank);
    y->setRange(-0.6, n - 0.4);
    y->setRangeReversed(true);  // FP64 on top, the smallest formats at the bottom
    y->grid()->setVisible(false);
    y->setSubTicks(false);
  }
  QFont valueFont(QStringLiteral("DejaVu Sans"));
  valueFont.setPointSize(std::max(8, theme.plotFontPt - 1));
  auto label = [&](QCPAxisRect* r, double x, double y, const QString& text, const QColor& color, Qt::Alignment a) {
    auto* t = new QCPItemText(p);
    t->setClipAxisRect(r);
    t->setClipToAxisRect(true);
    t->position->setAxes(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
    t->position->setCoords(x, y);
    t->setPositionAlignment(a | Qt::AlignVCenter);
    t->setPadding(QMargins(4, 0, 4, 0));
    t->setText(text);
    t->setFont(valueFont);
    t->setColor(color);
  };
  const bool anyRecorded = std::any_of(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.recordedFlops > 0; });
  const QColor hw = m_ranOnGpu ? theme.gpu : theme.cpu;

  int thrWidth = 0;
  // 1. Throughput (log), one slot per source in each format's row: the chosen card's datasheet (dashed) on top,
  // measured here (solid) below it, recorded (hollow) last when a recording is open.
  m_throughputLabels.clear();
  {
    QCPAxis* x = rThr->axis(QCPAxis::atBottom);
    QCPAxis* y = rThr->axis(QCPAxis::atLeft);
    useLogAxis(x);  // a narrow panel: "100 G", "1 P" with the unit in the title
    x->ticker().dynamicCast<QCPAxisTickerLog>()->setSubTickCount(0);
    x->setLabel(tr("FLOP/s (INT8: OP/s)"));
    double lo = 1e300, hi = 0;
    for (const Row& r : m_rows)
      for (double v : {r.flopsPerS, r.recordedFlops, r.datasheetFlops})
        if (v > 0) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    if (hi <= 0) {
      lo = 1e9;
      hi = m_ctx.cpuInfo().peak_gflops_fp32 > 0 ? m_ctx.cpuInfo().peak_gflops_fp32 * 1e9 : 1e11;
    }
    const double xlo = lo / 10, xhi = hi * 4;
    x->setRange(xlo, xhi);
    const double slot = anyRecorded ? 0.29 : 0.2;  // distance between slots' centres
    const double w = anyRecorded ? 0.26 : 0.36;
    const double ySheet = -slot, yHere = anyRecorded ? 0.0 : slot, yRec = slot;
    auto* sheet = new QCPBars(y, x);
    auto* here = new QCPBars(y, x);
    auto* rec = new QCPBars(y, x);
    for (QCPBars* b : {sheet, here, rec}) {
      b->setBaseValue(xlo);
      b->setWidth(w);
    }
    QColor sheetFill = theme.gpu;
    sheetFill.setAlpha(45);
    sheet->setPen(QPen(theme.gpu, 2, Qt::DashLine));
    sheet->setBrush(sheetFill);
    here->setPen(QPen(hw.darker(120), 1));
    here->setBrush(hw);
    rec->setPen(QPen(theme.gpu, 2));
    rec->setBrush(Qt::NoBrush);
    sheet->setName(tr("datasheet: %1").arg(datasheetCard()));
    here->setName(tr("measured here"));
    rec->setName(tr("recorded"));
    const QFontMetrics fm(valueFont);
    // The panel's width as last laid out (replot() lays out again, and redraws once more if it changed).
    thrWidth = rThr->width();
    const int room = std::max(60, thrWidth - 12);
    // A value's label sits past the end of its bar, or inside it where the text would be cut at the panel's edge.
    auto valueLabel = [&](double v, double yy, const QString& text, const QColor& outside, const QColor& fill) {
      const double reach = std::log(v / xlo) / std::log(xhi / xlo);
      const bool inside = fm.horizontalAdvance(text) + 10 > (1 - reach) * thrWidth;
      const QColor in = fill.alpha() < 128 || fill.lightness() > 150 ? theme.text : QColor(Qt::white);
      label(rThr, v, yy, text, inside ? in : outside, inside ? Qt::AlignRight : Qt::AlignLeft);
      m_throughputLabels << text;
    };
    for (int i = 0; i < n; ++i) {
      const Row& r = m_rows[i];
      const char* unit = r.precision == Precision::int8 ? "OP/s" : "FLOP/s";
      if (r.datasheetFlops > 0) {
        sheet->addData(i + ySheet, r.datasheetFlops);
        // The value only: the dashed outline and the badge above say "datasheet" (the text would not fit).
        valueLabel(r.datasheetFlops, i + ySheet, fmtSi(r.datasheetFlops, unit), theme.text, sheetFill);
      } else {
        const QString none = fm.elidedText(tr("datasheet: no %1 path on the %2").arg(precName(r.precision), datasheetCard()),
                                           Qt::ElideRight, room);
        label(rThr, xlo, i + ySheet, none, theme.mutedText, Qt::AlignLeft);
        m_throughputLabels << none;
      }
      if (r.flopsPerS > 0) {
        here->addData(i + yHere, r.flopsPerS);
        valueLabel(r.flopsPerS, i + yHere, fmtSi(r.flopsPerS, unit), theme.text, hw);
      } else {
        // The backend's reason, cut to what fits: the table below (and the tooltip) has it whole.
        const QString text = fm.elidedText(r.supported ? tr("runs here: press Run") : tr("not here: %1").arg(r.reason),
                                           Qt::ElideRight, room);
        label(rThr, xlo, i + yHere, text, theme.mutedText, Qt::AlignLeft);
        m_throughputLabels << text;
      }
      if (r.recordedFlops > 0) {
        rec->addData(i + yRec, r.recordedFlops);
        valueLabel(r.recordedFlops, i + yRec, fmtSi(r.recordedFlops, unit), theme.gpu.darker(130), QColor(0, 0, 0, 0));
      }
    }
  }
  // 2. Bytes per parameter, with what a 7B model's weights then take (the lesson's table).
  {
    QCPAxis* x = rBytes->axis(QCPAxis::atBottom);
    QCPAxis* y = rBytes->axis(QCPAxis::atLeft);
    x->setScaleType(QCPAxis::stLinear);
    useSiAxis(x);
    x->setLabel(tr("Bytes each · 7B model"));
    x->setRange(0, 28);
    x->ticker()->setTickCount(4);
    for (int i = 0; i < n; ++i) {
      const Row& r = m_rows[i];
      const double b = gpulab::bytes_per_element(r.precision);
      auto* bar = new QCPBars(y, x);
      bar->setWidth(0.6);
      const QColor c = theme.precision(r.precision);
      bar->setPen(QPen(c.darker(120), 1));
      bar->setBrush(r.supported ? c : QColor(c.red(), c.green(), c.blue(), 90));
      bar->addData(i, b);
      label(rBytes, b, i,
            tr("%1 B · %2").arg(fmtFixed(b, 0), fmtBytes(gpulab::models::weight_bytes(7e9, gpulab::models::format_of(r.precision)))),
            theme.text, Qt::AlignLeft);
    }
  }
  // 3. Error against FP64 (log): longer is worse.
  {
    QCPAxis* x = rErr->axis(QCPAxis::atBottom);
    QCPAxis* y = rErr->axis(QCPAxis::atLeft);
    useDigitsLogAxis(x);  // 1e-7 relative error: about 7 correct digits
    x->setLabel(tr("Correct digits vs FP64"));
    const double xlo = 1e-18, xhi = 1e4;  // room right of the worst bar for its label
    x->setRange(xlo, xhi);
    for (int i = 0; i < n; ++i) {
      const Row& r = m_rows[i];
      if (!(r.relFro >= 0)) {
        if (i == 0) label(rErr, xlo, i, tr("press Run"), theme.mutedText, Qt::AlignLeft);
        continue;
      }
      const double v = std::max(r.relFro, 2e-18);
      auto* bar = new QCPBars(y, x);
      bar->setBaseValue(xlo);
      bar->setWidth(0.6);
      const QColor c = theme.precision(r.precision);
      bar->setPen(QPen(c.darker(120), 1));
      bar->setBrush(r.supported ? c : QColor(c.red(), c.green(), c.blue(), 110));
      bar->addData(i, v);
      label(rErr, v, i, sci(r.relFro), theme.text, Qt::AlignLeft);
    }
  }
  p->replot();
  if (rThr->width() != thrWidth) scheduleReplot();  // labels were placed for another width
  fillTable();

  // Strip: the fastest format against FP32, and the error spread.
  const Row& f32 = row(Precision::fp32);
  const Row* best = nullptr;
  for (const Row& r : m_rows)
    if (r.flopsPerS > 0 && (!best || r.flopsPerS > best->flopsPerS)) best = &r;
  const Row& f64 = row(Precision::fp64);
  if (best && f32.flopsPerS > 0 && best->precision != Precision::fp32)
    m_speedLabel->setText(tr("<b>Fastest here: %1</b> at %2, %3× FP32.")
                              .arg(precName(best->precision), fmtSi(best->flopsPerS, "FLOP/s"),
                                   fmtFixed(best->flopsPerS / f32.flopsPerS, 1)));
  else if (best && f64.flopsPerS > 0)
    m_speedLabel->setText(tr("<b>Fastest here: FP32</b> at %1; FP64 runs at %2 of it (twice the bytes, half the "
                             "SIMD lanes).")
                              .arg(fmtSi(f32.flopsPerS, "FLOP/s"), fmtFixed(f64.flopsPerS / f32.flopsPerS, 2)));
  else if (best)
    m_speedLabel->setText(tr("<b>Fastest here: %1</b> at %2.").arg(precName(best->precision), fmtSi(best->flopsPerS, "FLOP/s")));
  else
    m_speedLabel->setText(tr("Press <b>Run all formats</b> (Space) to time each format here."));
  // The tensor-core point, from the chosen card's datasheet whatever ran here.
  const Row& s16 = row(Precision::fp16);
  const Row& s32 = row(Precision::fp32);
  if (const auto* card = gpulab::models::find_gpu(datasheetCard().toStdString());
      card && s16.datasheetFlops > 0 && s32.datasheetFlops > 0) {
    const Row& s8 = row(Precision::fp8);
    const QString cores = card->vendor == "AMD" ? tr("matrix cores") : tr("tensor cores");
    // Folded into the same paragraph, short (a line of its own squeezed the chart at 1366×768 on a projector);
    // the figures behind the ratio are in the tooltip.
    m_speedLabel->setText(m_speedLabel->text() + QStringLiteral(" ") +
                          tr("<b>%1:</b> FP16 = <b>%2× its FP32</b> (%3).")
                              .arg(datasheetCard(), fmtFixed(s16.datasheetFlops / s32.datasheetFlops, 0), cores));
    m_speedLabel->setToolTip(
        tr("Datasheet, %1: FP16 %2 = %3× its FP32 (%4): the %5%6.")
            .arg(datasheetCard(), fmtSi(s16.datasheetFlops, "FLOP/s"), fmtFixed(s16.datasheetFlops / s32.datasheetFlops, 0),
                 fmtSi(s32.datasheetFlops, "FLOP/s"), cores,
                 s8.datasheetFlops > 0 ? tr("; FP8 %1").arg(fmtSi(s8.datasheetFlops, "FLOP/s")) : QString()));
  } else {
    m_speedLabel->setToolTip(QString());
  }
  const Row& e16 = row(Precision::fp16);
  const Row& ebf = row(Precision::bf16);
  if (e16.relFro > 0 && ebf.relFro > 0 && f32.relFro > 0)
    m_errorLabel->setText(tr("Error vs FP64: FP32 %1, FP16 %2, BF16 %3 — BF16 trades 3 mantissa bits for FP32's range.")
                              .arg(sci(f32.relFro), sci(e16.relFro), sci(ebf.relFro)));
  else
    m_errorLabel->setText(tr("Errors appear after a run (emulated for all seven formats)."));
}

void PrecisionPage::fillTable() {
  const Theme& theme = m_ctx.theme();
  m_table->setRowCount(m_rows.size());
  for (int i = 0; i < m_rows.size(); ++i) {
    const Row& r = m_rows[i];
    const QString unit = r.precision == Precision::int8 ? QStringLiteral("OP/s") : QStringLiteral("FLOP/s");
    QString status;
    if (!r.supported) status = tr("not here (why: at the right)");
    else if (r.flopsPerS > 0) status = tr("ran (%1), checked against FP64").arg(r.variant);
    else status = tr("runs here through %1").arg(r.variant);
    if (r.precision == Precision::fp32 && r.supported) status += tr("; TF32 off");
    const QStringList cells{precName(r.precision),
                            r.flopsPerS > 0 ? fmtSi(r.flopsPerS, unit.toUtf8().constData()) : QStringLiteral("—"),
                            r.datasheetFlops > 0 ? fmtSi(r.datasheetFlops, unit.toUtf8().constData()) : tr("none"),
                            r.checkMaxAbs >= 0 ? sci(r.checkMaxAbs) : (r.emuMaxAbs >= 0 ? sci(r.emuMaxAbs) + tr(" (em.)") : QStringLiteral("—")),
                            r.relFro >= 0 ? sci(r.relFro) : QStringLiteral("—"), status};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setForeground(r.supported ? theme.text : theme.mutedText);
      if (c == 0) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
        item->setForeground(r.supported ? theme.precision(r.precision) : theme.mutedText);
      }
      if (c >= 1 && c <= 4) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      item->setToolTip(c == 2 ? tr("%1 datasheet, dense").arg(datasheetCard()) : r.supported ? status : r.reason);
      m_table->setItem(i, c, item);
    }
  }
  m_table->resizeRowsToContents();
  m_table->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
  if (auto* h = m_table->horizontalHeaderItem(2)) h->setToolTip(tr("%1 datasheet, dense").arg(datasheetCard()));
  // Exactly as tall as its rows: the space below goes to the reasons.
  int h = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() + 2;
  for (int i = 0; i < m_table->rowCount(); ++i) h += m_table->rowHeight(i);
  m_table->setFixedHeight(h);
  QStringList why;
  for (const Row& r : m_rows)
    if (!r.supported)
      why << tr("<b style='color:%1'>%2</b> — %3")
                 .arg(theme.mutedText.name(), precName(r.precision), r.reason.toHtmlEscaped());
  m_reasons->setText(why.isEmpty() ? tr("Every format runs on this device.")
                                    : tr("<b>Greyed on this device:</b><br>") + why.join(QStringLiteral("<br>")));
}

void PrecisionPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  for (QLabel* l : {m_speedLabel, m_errorLabel, m_tf32Label, m_ulabel, m_reasons})
    l->setStyleSheet(QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt));
  replot();
  replotUnderflow();
}

QString PrecisionPage::csvSummary() const {
  QString out = QStringLiteral(
      "precision,supported,variant,flop_per_s,bytes_per_param,check_max_abs_err,emulated_rel_frobenius,"
      "emulated_max_abs_err,recorded_flop_per_s,datasheet_flop_per_s,datasheet_card,reason\n");
  for (const Row& r : m_rows) {
    QString reason = r.reason;
    reason.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,\"%11\",\"%12\"\n")
               .arg(precName(r.precision), r.supported ? QStringLiteral("yes") : QStringLiteral("no"), r.variant)
               .arg(r.flopsPerS, 0, 'g', 6)
               .arg(gpulab::bytes_per_element(r.precision))
               .arg(r.checkMaxAbs, 0, 'g', 4)
               .arg(r.relFro, 0, 'g', 4)
               .arg(r.emuMaxAbs, 0, 'g', 4)
               .arg(r.recordedFlops, 0, 'g', 6)
               .arg(r.datasheetFlops, 0, 'g', 6)
               .arg(datasheetCard(), reason);
  }
  return out;
}

QString PrecisionPage::csvUnderflow() const {
  QString out = QStringLiteral("bin_lo,bin_hi,gradients");
  for (const auto& m : m_underflow.methods) out += QStringLiteral(",\"lost: %1\"").arg(QString::fromStdString(m.name));
  out += QLatin1Char('\n');
  for (std::size_t b = 0; b < m_underflow.bin_center.size(); ++b) {
    out += QStringLiteral("%1,%2,%3").arg(m_underflow.bin_lo[b], 0, 'g', 4).arg(m_underflow.bin_hi[b], 0, 'g', 4)
               .arg(m_underflow.per_bin[b]);
    for (const auto& m : m_underflow.methods) out += QStringLiteral(",%1").arg(m.lost[b]);
    out += QLatin1Char('\n');
  }
  return out;
}

QList<PlotExport> PrecisionPage::plots() {
  PlotExport a;
  a.id = QStringLiteral("precision");
  a.title = tr("Number formats: throughput, bytes per parameter, error vs FP64");
  a.plot = m_plot;
  a.csv = [this] { return csvSummary(); };
  PlotExport b;
  b.id = QStringLiteral("underflow");
  b.title = tr("FP16 underflow: updates lost per method");
  b.plot = m_uplot;
  b.csv = [this] { return csvUnderflow(); };
  return {a, b};
}

QString PrecisionPage::tensorCoreText(const gpulab::models::GpuSpec* card) {
  // Which formats have tensor cores differs by generation (V100: FP16 only; T4: FP16 and INT8; A100: no FP8):
  // said per card, from the catalogue's dense columns.
  if (!card)
    return tr("Which formats a GPU's tensor cores run depends on its generation: a V100 only FP16, a T4 FP16 "
              "and INT8, an A100 TF32, FP16, BF16, INT8 and FP64, an H100 FP8 as well.");
  const std::vector<Precision> formats = card->tensor_core_formats();
  const QString unit = card->vendor == "AMD" ? tr("matrix cores") : tr("tensor cores");
  if (formats.empty())
    return tr("The %1 has no %2 in the catalogue: everything runs on its ordinary cores.")
        .arg(QString::fromStdString(card->name), unit);
  QStringList names;
  for (Precision f : formats) names << precName(f);
  return tr("The %1's %2 run %3 (datasheet catalogue).")
      .arg(QString::fromStdString(card->name), unit, names.join(QStringLiteral(", ")));
}

QString PrecisionPage::headlineAnswer() {
  // The H100 SXM sheet's 1,979 is FP16/BF16 with 2:4 sparsity, which is also its dense FP8 figure; the app's
  // catalogue (and every ceiling it draws) holds dense figures only.
  const gpulab::models::GpuSpec* h = gpulab::models::find_gpu("H100 SXM");
  auto tf = [](std::optional<double> v) { return v ? fmtCount(std::llround(*v)) : QStringLiteral("?"); };
  if (!h) return {};
  return tr("Neither headline: compare like with like. On the H100 SXM sheet %1 is FP16/BF16 with 2:4 sparsity — "
            "the same number as its dense FP8 figure; dense FP16/BF16 is %2, and this app always uses dense "
            "figures. FP32 work without tensor cores sees the %3; switched to TF32 or BF16 it can use the "
            "tensor-core figure for that format (%4 or %2 dense).")
      .arg(tf(h->fp8_tflops), tf(h->fp16_tflops), tf(h->fp32_tflops), tf(h->tf32_tflops));
}

LessonContent PrecisionPage::lesson() const {
  LessonContent c;
  c.runningExample = running_example::line(pageId());
  c.intro = tr(
      "A number format is a trade. FP32 spends 4 bytes on every value; FP16 and BF16 spend 2, INT8 and FP8 one. "
      "Halving the bytes halves the memory a model needs and the traffic each layer moves, and tensor cores run "
      "the narrow formats many times faster. The price is accuracy and range: FP16 keeps 10 mantissa bits but "
      "stops at 65,504 and cannot hold anything below about 6e-8; BF16 keeps FP32's range with only 7 mantissa "
      "bits. Mixed-precision training does the big products in the narrow format and keeps an FP32 master copy "
      "of the weights. On the GPU, FP16 and BF16 products are summed in FP32 to the end (cuBLAS is told never to add "
      "partial sums in 16 bits), so their error here is one final rounding, not a pile-up.");
  c.questions << LessonQuestion{
      tr("Training in plain FP16, the loss stops improving although nothing crashes. What may have happened?"),
      tr("Small gradients underflowed: anything below ~3e-8 rounds to zero in FP16, so those weights receive no "
         "update at all. Scaling the loss (by 1024, or dynamically) shifts the gradients into FP16's range; BF16 "
         "avoids the problem because it has FP32's exponent range. The underflow tab counts the lost updates.")};
  c.questions << LessonQuestion{
      tr("The H100 SXM's spec sheet says 1,979 TFLOP/s; its FP32 figure is 67. Which one applies to your FP32 "
         "training?"),
      headlineAnswer()};
  c.questions << LessonQuestion{
      tr("Why is an \"FP32\" matmul that runs faster than the FP32 peak a warning sign?"),
      tr("It cannot be FP32: the library has silently used TF32 tensor cores, which round the inputs to a 10-bit "
         "mantissa. Fine for many networks, but the result is not what was asked for. Here TF32 is always its own "
         "row.")};
  c.exercises << LessonExercise{
      tr("How many GB do the weights of a 7B model take in BF16?"), tr("GB"),
      [] { return gpulab::models::weight_bytes(7e9, gpulab::models::NumberFormat::bf16) / 1e9; },
      tr("7e9 parameters × 2 bytes = 14 GB, half of FP32's 28 GB."), 0.02};
  c.exercises << LessonExercise{
      tr("What is the smallest positive number FP16 can store (its smallest subnormal)? Answer in scientific "
         "notation, e.g. 1e-5."),
      tr(""),
      [] { return gpulab::smallest_subnormal(gpulab::fp16_format); },
      tr("2^-24 ≈ 5.96e-8. Anything below half of it (2.98e-8) rounds to zero — the FP16 underflow."), 0.05};
  const PrecisionPage* self = this;
  c.exercises << LessonExercise{
      tr("Predict: with gradients spread evenly over 1e-8 … 1e-4 (per decade), what percentage does FP16 lose "
         "without loss scaling? Then look at the underflow tab."),
      tr("%"),
      [self] {
        const auto* m = self->underflow().find(gpulab::UnderflowMethod::fp16_plain);
        return m ? 100.0 * double(m->total_lost) / double(self->underflow().spec.count) : 0.0;
      },
      tr("About 12 %: the part of the range below 2.98e-8 is log10(2.98) ≈ 0.47 of 4 decades. With the default "
         "sliders the app counts it exactly."),
      0.15};
  return c;
}

GPULAB_REGISTER_PAGE(40, PrecisionPage);

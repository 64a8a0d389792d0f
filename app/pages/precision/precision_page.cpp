// The precision page: layout, controls and running its plan (gpulab::precision_plan). What it shows comes from
// its model (models/precision_model.h); drawing is in precision_page_views.cpp, the lesson in precision_lesson.cpp.
#include "pages/precision/precision_page.h"
#include "pages/precision/precision_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/experiments.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/vram_model.hpp"
#include "plans/precision.hpp"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/frame_coalescer.h"
#include "widgets/plot_object_pool.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QTabWidget>
#include <QTableWidget>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>
#include <cmath>

using gpulab::Precision;

using precision_detail::precName;
using precision_detail::qs;

PrecisionPage::PrecisionPage(AppContext& ctx) : Page(ctx) {
  m_rows = precision_model::initialRows();

  m_plot = new QCustomPlot(this);
  m_plot->setObjectName(QStringLiteral("precisionPlot"));
  m_plot->setMinimumHeight(150);
  m_plot->installEventFilter(this);  // resized (a tab, the compact layout): its value labels are fitted again
  m_table = new QTableWidget(0, 6, this);
  m_table->setObjectName(QStringLiteral("precisionTable"));
  m_table->setHorizontalHeaderLabels({tr("Format"), tr("Throughput"), tr("Datasheet"), tr("Max error"),
                                      tr("Rel. error"), tr("Status here")});
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
  // No frame and no sideways scroll bar: a 1024 px window's Numbers tab was a pixel short of the columns' contents,
  // and the bar it showed for it hid the last row. The last column elides ("…") rather than scroll.
  m_table->setFrameShape(QFrame::NoFrame);
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  m_uplot = new QCustomPlot(this);
  m_uplot->setObjectName(QStringLiteral("underflowPlot"));
  m_uplot->setMinimumHeight(150);
  m_pool = std::make_unique<PlotObjectPool>(m_plot);
  m_upool = std::make_unique<PlotObjectPool>(m_uplot);
  m_ulabel = new QLabel(this);
  m_ulabel->setWordWrap(true);
  m_ulabel->setTextFormat(Qt::RichText);
  buildViews();
  setVisual(m_views);

  m_badge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("speed"));
  m_emuBadge = new SourceBadge(SourceBadge::Kind::Model, tr("error: emulated"));
  m_sheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, QString());
  addBadge(m_badge);
  addBadge(m_sheetBadge);
  addBadge(m_emuBadge);
  for (SourceBadge* b : m_recordedBadges.badges()) addBadge(b);  // one per recording drawn, hidden until then

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

  m_frame = new FrameCoalescer([this] { replot(); }, this);
  m_fitTimer = makeRedrawTimer([this] { updateCompact(); }, 0);
  m_underflowTimer = makeRedrawTimer([this] { recomputeUnderflowInBackground(); }, 120);  // the demo takes tens of ms: recompute once a slider rests

  refreshDatasheet();
  refreshSupport();
  recomputeUnderflow();
  recordingsChanged();
}

PrecisionPage::~PrecisionPage() = default;

void PrecisionPage::buildControls() {
  auto* form = new QFormLayout;
  m_backend = new QComboBox(this);
  setControlId(m_backend, QStringLiteral("precision.device"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_backend->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_backend->setMinimumContentsLength(10);
  // The item's data is the plan's use_gpu control.
  m_backend->addItem(tr("CPU · OpenBLAS"), false);
  if (m_ctx.hasGpu()) {
    m_backend->addItem(tr("GPU · %1").arg(QString::fromStdString(m_ctx.gpuInfo()->name)), true);
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
  setControlId(m_card, QStringLiteral("precision.card"));
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
  setControlId(m_size, QStringLiteral("precision.size"), powerOfTwoPositions(m_size));  // 256 … 16384
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
  setControlId(m_scale, QStringLiteral("precision.loss_scale"));
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
  setControlId(m_gmin, QStringLiteral("precision.smallest_gradient_exponent"));
  expSlider(tr("Largest gradient"), -5, 0, -4, &m_gmax, &m_gmaxLabel,
            tr("The largest gradient magnitude. Large ones times a big loss scale overflow FP16."));
  setControlId(m_gmax, QStringLiteral("precision.largest_gradient_exponent"));
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

gpulab::PrecisionControls PrecisionPage::runControls() const {
  gpulab::PrecisionControls c;
  c.use_gpu = m_backend->currentData().toBool();
  c.n = gemmSize();
  return c;
}

gpulab::Backend& PrecisionPage::backend() {
  return runControls().use_gpu && m_ctx.gpu() ? *m_ctx.gpu() : m_ctx.cpu();
}

void PrecisionPage::refreshSupport() {
  precision_model::applySupport(m_rows, backend());
  scheduleReplot();
}

void PrecisionPage::refreshDatasheet() {
  precision_model::applyDatasheet(m_rows, gpulab::models::find_gpu(datasheetCard().toStdString()));
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

const PrecisionPage::Row& PrecisionPage::row(Precision p) const { return precision_model::rowOf(m_rows, p); }

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

gpulab::Plan PrecisionPage::plan() {
  return gpulab::precision_plan(planBackends(), runControls());
}

void PrecisionPage::run() {
  refreshSupport();
  m_ranOnGpu = &backend() != &m_ctx.cpu();
  precision_model::clearMeasured(m_rows);
  gpulab::MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = 0.5;
  const int formats = int(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.supported; }));
  startPlan(tr("Precision: %1 formats at n = %2").arg(formats).arg(gemmSize()), plan(), policy);
}

void PrecisionPage::onResult(const gpulab::Result& r) {
  if (const auto error = precision_model::applyMeasured(m_rows, r))
    runBar()->showError(tr("%1: %2").arg(precName(r.precision), qs(*error)));
  scheduleReplot();
}

void PrecisionPage::onRunFinished(bool cancelled) {
  m_frame->request();
  m_frame->flush();  // the last results, now
  if (cancelled) return;
  // The TF32 guard: an "FP32" GEMM faster than the FP32 peak did not run in FP32.
  double fp32Peak = 0;
  if (m_ranOnGpu && m_ctx.gpuInfo()) {
    if (const auto* spec = gpulab::models::find_gpu(m_ctx.gpuInfo()->name))
      fp32Peak = spec->peak_flops_for(Precision::fp32).value_or(0);
  } else {
    fp32Peak = m_ctx.cpuInfo().peak_gflops_fp32 * 1e9;
  }
  const precision_model::Fp32Guard guard = precision_model::fp32Guard(m_rows, fp32Peak);
  if (guard.kind == precision_model::Fp32Guard::Kind::abovePeak)
    m_tf32Label->setText(tr("<b style='color:%1'>FP32 ran at %2, above the FP32 peak of %3</b>: something (TF32?) "
                            "was not plain FP32.")
                             .arg(m_ctx.theme().bad.name(), fmtSi(guard.flops, "FLOP/s"), fmtSi(guard.peak, "FLOP/s")));
  else if (guard.kind == precision_model::Fp32Guard::Kind::withinPeak)
    m_tf32Label->setText(tr("<b>FP32 means FP32</b>: %1 = %2 % of the FP32 peak (%3); TF32 is its own row.")
                             .arg(fmtSi(guard.flops, "FLOP/s"), fmtFixed(100 * guard.flops / guard.peak, 0),
                                  fmtSi(guard.peak, "FLOP/s")));
  runBar()->showStatus(tr("Done: throughput of every format this device runs, error of all seven."));
}

void PrecisionPage::recordingsChanged() {
  std::vector<precision_model::RecordedResult> recorded;
  for (const StoredResult& s : m_ctx.results().all())
    if (s.source >= 0) recorded.push_back({&s.result, s.source});
  // Two recordings are two sources: each has its own bars (its own look) and its own badge, never one for both.
  m_recordedSources = precision_model::applyRecorded(m_rows, recorded);
  m_recordedBadges.show({m_recordedSources.begin(), m_recordedSources.end()}, tr("Hollow bars"));
  fitBadges();
  if (m_fitTimer) m_fitTimer->start();  // a recording's slot in every row: do the panels and the table still fit?
  scheduleReplot();
}

void PrecisionPage::scheduleReplot() {
  // "measured here" only once a format was timed on this machine since the app started (issue 13's badge rule).
  if (m_badge) {
    const bool measured = std::any_of(m_rows.begin(), m_rows.end(), [](const auto& r) { return r.flopsPerS > 0; });
    if (m_badge->isHidden() == measured) {
      m_badge->setVisible(measured);
      fitBadges();
    }
  }
  if (m_frame) m_frame->request();  // null while the constructor builds the views
}

void PrecisionPage::resizeEvent(QResizeEvent* e) {
  Page::resizeEvent(e);
  m_fitTimer->start();  // do the three panels and the table still fit together?
  scheduleReplot();     // the value labels go inside or past their bars by the panel's width
}

bool PrecisionPage::eventFilter(QObject* watched, QEvent* e) {
  if (watched == m_plot && e->type() == QEvent::Resize) scheduleReplot();
  return Page::eventFilter(watched, e);
}

void PrecisionPage::recomputeUnderflow() {
  m_underflow = gpulab::run_underflow_demo(underflowSpec());
  ++m_underflowGeneration;  // an answer still on its way from a pool thread is older than this one
  replotUnderflow();
}

void PrecisionPage::recomputeUnderflowInBackground() {
  // 100,000 gradients through 200 steps in four formats: 40–130 ms, too long for the GUI thread while a teacher
  // drags the range. The task holds a copy of the spec; its answer comes back through the GUI thread's queue and
  // is dropped when the page has gone or a newer range was asked for meanwhile.
  const gpulab::UnderflowSpec spec = underflowSpec();
  const int generation = ++m_underflowGeneration;
  QPointer<PrecisionPage> self(this);
  QThreadPool::globalInstance()->start([self, spec, generation] {
    auto result = std::make_shared<gpulab::UnderflowResult>(gpulab::run_underflow_demo(spec));
    QMetaObject::invokeMethod(qApp, [self, result, generation] {
      if (!self || generation != self->m_underflowGeneration) return;
      self->m_underflow = std::move(*result);
      self->replotUnderflow();
    }, Qt::QueuedConnection);
  });
}

gpulab::UnderflowSpec PrecisionPage::underflowSpec() {
  gpulab::UnderflowSpec spec;
  spec.min_grad = std::pow(10.0, m_gmin->value());
  spec.max_grad = std::pow(10.0, m_gmax->value());
  spec.loss_scale = m_scale->currentData().toDouble();
  spec.count = 100000;
  spec.steps = 200;
  spec.bins = 30;
  m_gminLabel->setText(QStringLiteral("1e%1").arg(m_gmin->value()));
  m_gmaxLabel->setText(QStringLiteral("1e%1").arg(m_gmax->value()));
  return spec;
}

void PrecisionPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  for (QLabel* l : {m_speedLabel, m_errorLabel, m_tf32Label, m_ulabel, m_reasons})
    l->setStyleSheet(QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt));
  updateCompact();  // the fonts decide what fits
  replot();
  replotUnderflow();
}

QList<PlotExport> PrecisionPage::plots() {
  PlotExport a;
  a.id = QStringLiteral("precision");
  a.title = tr("Number formats: throughput, bytes per parameter, error vs FP64");
  a.plot = m_plot;
  a.csv = [this] { return csvSummary(); };
  // A slide always has all three panels, whichever tab the screen shows.
  a.layoutFor = [this](const QSize& size) {
    m_exportSize = size;
    replot();
  };
  PlotExport b;
  b.id = QStringLiteral("underflow");
  b.title = tr("FP16 underflow: updates lost per method");
  b.plot = m_uplot;
  b.csv = [this] { return csvUnderflow(); };
  return {a, b};
}

GPULAB_REGISTER_PAGE(40, PrecisionPage);

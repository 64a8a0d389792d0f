#include "pages/stadium/stadium_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/rounds_model.hpp"
#include "plans/stadium.hpp"
#include "pages/stadium/model/stadium_model.h"
#include "pages/chosen_device.h"
#include "pages/page_registry.h"
#include "widgets/choice_box.h"
#include "widgets/run_bar.h"
#include "widgets/projector_side_tab.h"
#include "widgets/source_badge.h"
#include "widgets/frame_coalescer.h"
#include "widgets/stadium_view.h"

#include <QApplication>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace gpulab;

namespace {

using stadium_model::kReferenceStudents;
constexpr double kFastLaneScreenS = 5.0;      // the faster lane takes about this long on screen
constexpr double kMaxWorkers = 10000;
constexpr std::int64_t kMarks[] = {8, 4096};  // the lesson's two machines

// Not "%1³": QString::arg reads the superscript as a digit of the placeholder number.
QString cube(double n) { return QString::number(qint64(n)) + QStringLiteral("³"); }

QString shortSeconds(double s) {
  // On-screen durations: seconds up to a few minutes, then minutes, then hours. The number and its unit never
  // part at a line's end ("5.0" on one line, "s" on the next).
  const QString nbsp(QChar(0x00A0));
  if (s < 120) return fmtSeconds(s, 2).replace(QLatin1Char(' '), nbsp);
  if (s < 2 * 3600) return fmtFixed(s / 60, 0) + nbsp + QObject::tr("min");
  return fmtFixed(s / 3600, 1) + nbsp + QObject::tr("h");
}

// What raced as the stadium, in the class's words: a CPU-type Vulkan device is never called a GPU.
QString crowdWords(const stadium_model::Pace& p) {
  using stadium_model::Api;
  const stadium_model::Run& c = p.crowd;
  if (p.stadium == stadium_model::Pace::Stadium::cpuBlas) return QObject::tr("BLAS all cores");
  const QString variant = QString::fromStdString(c.variant);
  if (c.cpuDevice) return QObject::tr("Vulkan on the CPU (not a GPU), %1 shader").arg(variant);
  switch (c.api) {
    case Api::cuda: return c.library ? QObject::tr("GPU cuBLAS") : QObject::tr("GPU %1 kernel").arg(variant);
    case Api::vulkan: return QObject::tr("Vulkan GPU, %1 shader").arg(variant);
    default: return QObject::tr("%1 %2").arg(QString::fromStdString(c.backend), variant);
  }
}

}  // namespace

StadiumPage::~StadiumPage() = default;

StadiumPage::StadiumPage(AppContext& ctx) : Page(ctx) {
  m_view = new StadiumView;
  setVisual(m_view);
  m_counters = new FrameCoalescer([this] { updateCounters(); }, this);

  m_badge = new SourceBadge(SourceBadge::Kind::Model, tr("pace"));
  m_modelBadge = new SourceBadge(SourceBadge::Kind::Model, tr("rounds"));
  m_modelBadge->setToolTip(tr("Rounds come from the model: ⌈cells ÷ workers⌉, one cell per worker per round"));
  for (SourceBadge* b : {m_badge, m_modelBadge}) {
    b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    b->setWordWrap(false);  // short and one line, beside the title
    addBadge(b);
  }

  m_rounds = new QLabel(this);
  m_idle = new QLabel(this);
  m_scale = new QLabel(this);
  m_rounds->setToolTip(tr("Rounds needed when every worker fills one cell per round: cells ÷ workers, rounded up"));
  m_idle->setToolTip(tr("Share of the students' time spent waiting for worksheets: 1 − clerk rate ÷ what the "
                        "students could fill"));
  m_scale->setToolTip(tr("How simulated time maps to time on screen, and how long each side needs for real. In the "
                         "lesson's model every worker needs one cell-time per cell; press Run to measure this "
                         "machine's real pace instead."));
  for (QLabel* l : {m_rounds, m_idle, m_scale}) {
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
  }
  resultsStrip()->addWidget(m_rounds, 3);
  resultsStrip()->addWidget(m_idle, 2);
  resultsStrip()->addWidget(m_scale, 4);

  buildControls();
  runBar()->setRunText(tr("Measure the pace"));
  updateRunTip();
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] { updateRunTip(); });
  rebuildSources();
}

void StadiumPage::updateRunTip() {
  runBar()->runButton()->setToolTip(
      m_ctx.hasGpu() ? tr("Time the naive loop (the professor) and BLAS on all cores at 512³ on the CPU, and the "
                          "best GEMM of %1 (the stadium), then race at those rates (Space)")
                           .arg(chosen_device::name(m_ctx))
                     : tr("Time the naive loop (the professor) and BLAS on all cores (the stadium) at 512³ on this "
                          "CPU, a few seconds, then race at those rates (Space)"));
}

void StadiumPage::buildControls() {
  auto* workersBox = new QGroupBox(tr("Students in the stadium"));
  auto* wl = new QGridLayout(workersBox);
  m_workersSlider = new QSlider(Qt::Horizontal);
  m_workersSlider->setRange(0, kWorkerSteps);
  setControlId(m_workersSlider, QStringLiteral("stadium.workers"));
  m_workersSlider->setValue(positionForWorkers(m_workers));
  m_workersSlider->setToolTip(tr("How many students fill cells at the same time, 1 to 10,000 (logarithmic). "
                                 "Each fills one cell per round."));
  m_workersValue = new QLabel;
  m_workersValue->setMinimumWidth(70);
  m_workersValue->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  // The value beside the slider in the first row only, so the buttons below can use the column's whole width.
  auto* workersRow = new QHBoxLayout;
  workersRow->addWidget(m_workersSlider, 1);
  workersRow->addWidget(m_workersValue);
  wl->addLayout(workersRow, 0, 0, 1, 3);
  auto* w8 = new QPushButton(tr("8 · CPU"));
  w8->setToolTip(tr("Eight fast cores, like a desktop CPU: the lesson's 16,384 rounds"));
  auto* w4096 = new QPushButton(tr("4,096 · GPU"));
  w4096->setToolTip(tr("4,096 simple cores, like a GPU: the lesson's 32 rounds"));
  auto* w10k = new QPushButton(tr("10,000"));
  w10k->setToolTip(tr("The lesson's stadium of 10,000 students"));
  wl->addWidget(w8, 1, 0);
  wl->addWidget(w4096, 1, 1);
  wl->addWidget(w10k, 1, 2);
  controls()->addWidget(workersBox);
  connect(m_workersSlider, &QSlider::valueChanged, this, [this](int pos) {
    m_workers = workersFromPosition(pos);
    pushParams();
  });
  connect(w8, &QPushButton::clicked, this, [this] { setWorkers(8); });
  connect(w4096, &QPushButton::clicked, this, [this] { setWorkers(4096); });
  connect(w10k, &QPushButton::clicked, this, [this] { setWorkers(10000); });

  auto* cellsBox = new QGroupBox(tr("Output cells: batch × d_out"));
  auto* cl = new QGridLayout(cellsBox);
  m_batchSlider = new QSlider(Qt::Horizontal);
  m_batchSlider->setRange(1, 64);
  m_batchSlider->setValue(m_batch);
  setControlId(m_batchSlider, QStringLiteral("stadium.batch"));
  m_batchSlider->setToolTip(tr("Rows of Y = X·W: examples (or tokens) in the batch, 1 to 64. Each row has "
                               "d_out = 4,096 cells, each a 4,096-long dot product."));
  m_batchValue = new QLabel;
  m_batchValue->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  m_batchValue->setWordWrap(true);  // "32 × 4,096 = 131,072 cells" wraps in a projector's narrow column
  cl->addWidget(m_batchSlider, 0, 0, 1, 3);
  cl->addWidget(m_batchValue, 1, 0, 1, 3);
  auto* b1 = new QPushButton(tr("1×4096"));
  b1->setToolTip(tr("Batch 1 (one token): 4,096 cells — the practice's \"now change it\""));
  auto* b32 = new QPushButton(tr("32×4096"));
  b32->setToolTip(tr("The lesson's layer: batch 32, 131,072 cells"));
  auto* b64 = new QPushButton(tr("64×4096"));
  b64->setToolTip(tr("Batch 64: 262,144 cells"));
  cl->addWidget(b1, 2, 0);
  cl->addWidget(b32, 2, 1);
  cl->addWidget(b64, 2, 2);
  controls()->addWidget(cellsBox);
  connect(m_batchSlider, &QSlider::valueChanged, this, [this](int b) {
    m_batch = b;
    pushParams();
  });
  connect(b1, &QPushButton::clicked, this, [this] { setBatch(1); });
  connect(b32, &QPushButton::clicked, this, [this] { setBatch(32); });
  connect(b64, &QPushButton::clicked, this, [this] { setBatch(64); });

  auto* clerkBox = new QGroupBox(tr("The clerk (memory bandwidth)"));
  auto* kl = new QGridLayout(clerkBox);
  m_clerkSlider = new QSlider(Qt::Horizontal);
  m_clerkSlider->setRange(0, kClerkSteps);
  m_clerkSlider->setValue(kClerkSteps);
  setControlId(m_clerkSlider, QStringLiteral("stadium.clerk"));
  m_clerkSlider->setToolTip(tr("How many worksheets the clerk hands out per second (logarithmic; far right: no "
                               "limit). A worksheet is what one cell needs: a row of X and a column of W. When the "
                               "clerk is slower than the students, they sit idle (grey)."));
  m_clerkValue = new QLabel;
  m_clerkValue->setWordWrap(true);
  kl->addWidget(m_clerkSlider, 0, 0, 1, 2);
  kl->addWidget(m_clerkValue, 1, 0, 1, 2);
  auto* half = new QPushButton(tr("Half of demand"));
  half->setToolTip(tr("A clerk who brings half the sheets the students could use: they are idle half the time"));
  auto* unlimited = new QPushButton(tr("No limit"));
  unlimited->setToolTip(tr("Sheets arrive as fast as anyone can use them (the lesson's round counts)"));
  kl->addWidget(half, 2, 0);
  kl->addWidget(unlimited, 2, 1);
  controls()->addWidget(clerkBox);
  connect(m_clerkSlider, &QSlider::valueChanged, this, [this](int pos) {
    m_clerk = clerkFromPosition(pos);
    pushParams();
  });
  connect(half, &QPushButton::clicked, this, [this] { setClerkRate(0.5 * studentsDemandRate()); });
  connect(unlimited, &QPushButton::clicked, this, [this] { setClerkRate(0); });

  auto* viewBox = new QGroupBox(tr("Pace and view"));
  auto* vl = new QGridLayout(viewBox);
  m_source = new QComboBox;
  // Long source names must not widen the controls column: the combo shows what fits, the list shows all.
  m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_source->setMinimumContentsLength(12);
  setControlId(m_source, QStringLiteral("stadium.pace_from"));
  m_source->setToolTip(tr("Where the professor's and the students' speeds come from: the lesson's model (every "
                          "worker one cell per round), timings measured here, or a recording"));
  vl->addWidget(new QLabel(tr("Pace from")), 0, 0);
  vl->addWidget(m_source, 0, 1, 1, 2);
  m_zoomSlider = new QSlider(Qt::Horizontal);
  m_zoomSlider->setRange(0, 100);
  setControlId(m_zoomSlider, QStringLiteral("stadium.zoom"));
  m_zoomSlider->setToolTip(tr("Zoom from the whole grid (tiles: one row of Y each) down to single cells; the mouse "
                              "wheel on the picture does the same, and dragging moves around"));
  vl->addWidget(new QLabel(tr("Zoom")), 1, 0);
  vl->addWidget(m_zoomSlider, 1, 1, 1, 2);
  m_pause = new QPushButton(tr("Pause"));
  m_pause->setCheckable(true);
  setControlId(m_pause, QStringLiteral("stadium.pause"));
  m_pause->setToolTip(tr("Freeze the race (the clock stops too)"));
  auto* restart = new QPushButton(tr("Restart"));
  restart->setToolTip(tr("Start the race again from an empty grid"));
  vl->addWidget(m_pause, 2, 1);
  vl->addWidget(restart, 2, 2);
  controls()->addWidget(viewBox);
  m_viewTab = std::make_unique<ProjectorSideTab>(
      sideTabs(), controls(), QList<QWidget*>{clerkBox, viewBox}, nullptr, tr("Clerk"),
      tr("The clerk, where the pace comes from, the zoom and Pause: their own tab on a projector, so the controls "
         "need no scrolling"));
  connect(m_source, &QComboBox::currentIndexChanged, this, [this] { applySource(); });
  connect(m_zoomSlider, &QSlider::valueChanged, this, [this](int v) { m_view->setZoom(v / 100.0); });
  connect(m_view, &StadiumView::zoomChanged, this, [this](double z) {
    const QSignalBlocker block(m_zoomSlider);
    m_zoomSlider->setValue(int(std::lround(z * 100)));
  });
  connect(m_pause, &QPushButton::toggled, this, [this](bool on) {
    m_view->setPaused(on);
    m_pause->setText(on ? tr("Resume") : tr("Pause"));
  });
  connect(restart, &QPushButton::clicked, this, [this] { m_view->restart(); });
}

// ---- workers slider: log scale with the lesson's counts exact ----

std::int64_t StadiumPage::workersFromPosition(int pos) {
  pos = std::clamp(pos, 0, kWorkerSteps);
  for (std::int64_t mark : kMarks)
    if (std::abs(pos - positionForWorkers(mark)) <= 1) return mark;
  const double v = std::pow(kMaxWorkers, double(pos) / kWorkerSteps);
  return std::clamp<std::int64_t>(std::llround(v), 1, std::int64_t(kMaxWorkers));
}

int StadiumPage::positionForWorkers(std::int64_t workers) {
  const double w = std::clamp(double(workers), 1.0, kMaxWorkers);
  return int(std::lround(std::log(w) / std::log(kMaxWorkers) * kWorkerSteps));
}

void StadiumPage::setWorkers(std::int64_t workers) {
  m_workers = std::clamp<std::int64_t>(workers, 1, std::int64_t(kMaxWorkers));
  const QSignalBlocker block(m_workersSlider);
  m_workersSlider->setValue(positionForWorkers(m_workers));
  pushParams();
}

void StadiumPage::setBatch(int batch) {
  batch = std::clamp(batch, 1, 64);
  if (m_batchSlider->value() != batch) m_batchSlider->setValue(batch);  // valueChanged -> pushParams
  else pushParams();
}

// ---- clerk slider: log scale relative to the current pace, last step = no limit ----

double StadiumPage::clerkFromPosition(int pos) const {
  if (pos >= kClerkSteps) return 0;
  // From a tenth of one worker's demand to ten times what 10,000 students could use.
  const double lo = std::log10(0.1 / m_rates.studentCellS), hi = std::log10(10 * kMaxWorkers / m_rates.studentCellS);
  return std::pow(10.0, lo + (hi - lo) * double(pos) / (kClerkSteps - 1));
}

int StadiumPage::positionForClerk(double cellsPerS) const {
  if (cellsPerS <= 0) return kClerkSteps;
  const double lo = std::log10(0.1 / m_rates.studentCellS), hi = std::log10(10 * kMaxWorkers / m_rates.studentCellS);
  return std::clamp(int(std::lround((std::log10(cellsPerS) - lo) / (hi - lo) * (kClerkSteps - 1))), 0, kClerkSteps - 1);
}

void StadiumPage::setClerkRate(double cellsPerS) {
  m_clerk = cellsPerS > 0 ? cellsPerS : 0;
  const QSignalBlocker block(m_clerkSlider);
  m_clerkSlider->setValue(positionForClerk(m_clerk));
  pushParams();
}

// ---- numbers ----

std::int64_t StadiumPage::cells() const { return std::int64_t(m_batch) * m_dOut; }
std::int64_t StadiumPage::stadiumRounds() const { return models::rounds(cells(), m_workers); }
std::int64_t StadiumPage::professorRounds() const { return models::rounds(cells(), 1); }
double StadiumPage::studentsDemandRate() const { return double(m_workers) / m_rates.studentCellS; }
double StadiumPage::idleShare() const {
  return models::clerk_model(double(m_workers), 1.0 / m_rates.studentCellS, m_clerk).idle_share;
}
QString StadiumPage::roundsText() const {
  m_counters->flush();  // the texts of the values set so far, not of the last frame
  return m_rounds->text();
}
QString StadiumPage::idleText() const {
  m_counters->flush();
  return m_idle->text();
}
QString StadiumPage::scaleText() const {
  m_counters->flush();
  return m_scale->text();
}

void StadiumPage::pushParams() {
  StadiumView::Params p;
  p.batch = m_batch;
  p.dOut = m_dOut;
  p.workers = m_workers;
  p.professorCellS = m_rates.professorCellS;
  p.studentCellS = m_rates.studentCellS;
  p.clerkCellsPerS = m_clerk;
  // The scale comes from the race without a clerk, so slowing the clerk visibly slows the students.
  const auto prof = StadiumView::laneAt(cells(), 1, p.professorCellS, 0, 0);
  const auto stad = StadiumView::laneAt(cells(), m_workers, p.studentCellS, 0, 0);
  p.simPerScreenS = std::max(1e-30, std::min(prof.finishS, stad.finishS) / kFastLaneScreenS);
  m_view->setParams(p);
  m_counters->request();
}

void StadiumPage::updateCounters() {
  const auto& p = m_view->params();
  m_workersValue->setText(fmtCount(m_workers));
  m_batchValue->setText(tr("%1 × %2 = <b>%3 cells</b>").arg(m_batch).arg(fmtCount(m_dOut), fmtCount(cells())));
  m_batchValue->setTextFormat(Qt::RichText);

  const std::int64_t r = stadiumRounds();
  const double util = models::round_utilisation(cells(), m_workers);
  QString rounds = tr("<b>Rounds</b>: professor <b>%1</b> · stadium <b>%2</b><br>%3 cells ÷ %4 students, rounded up")
                       .arg(fmtCount(professorRounds()), fmtCount(r), fmtCount(cells()), fmtCount(m_workers));
  if (util < 0.999)
    rounds += tr("<br>last round: only %1 of the students have a cell").arg(fmtSi(util * 100, "%", 2));
  if (m_workers > cells())
    rounds = tr("<b>Rounds</b>: professor <b>%1</b> · stadium <b>%2</b><br>%3 cells for %4 students: %5 of them "
                "have nothing to do")
                 .arg(fmtCount(professorRounds()), fmtCount(r), fmtCount(cells()), fmtCount(m_workers),
                      fmtCount(m_workers - cells()));
  m_rounds->setText(rounds);

  const auto clerk = models::clerk_model(double(m_workers), 1.0 / p.studentCellS, m_clerk);
  const QString unit = m_rates.model ? tr("sheets per cell-time") : QStringLiteral("cells/s");
  auto rate = [&](double v) {
    return m_rates.model ? tr("%1 %2").arg(fmtCount(std::llround(v)), unit) : fmtSi(v, "cells/s");
  };
  if (m_clerk <= 0) {
    m_clerkValue->setText(tr("<b>no limit</b> · students could use %1").arg(rate(clerk.demand_rate)));
  } else {
    m_clerkValue->setText(tr("<b>%1</b> · students could use %2").arg(rate(m_clerk), rate(clerk.demand_rate)));
  }
  m_clerkValue->setTextFormat(Qt::RichText);
  const QString idleColour = clerk.idle_share > 0.005 ? m_ctx.theme().bad.name() : m_ctx.theme().good.name();
  m_idle->setText(tr("<b>Students idle</b>: <span style='color:%1; font-weight:bold'>%2</span><br>%3")
                      .arg(idleColour, fmtFixed(clerk.idle_share * 100, 0) + QStringLiteral(" %"),
                           clerk.clerk_limited ? tr("the clerk sets the pace, not the students")
                                               : tr("worksheets arrive fast enough")));

  const auto prof = StadiumView::laneAt(cells(), 1, p.professorCellS, m_clerk, 0);
  const auto stad = StadiumView::laneAt(cells(), m_workers, p.studentCellS, m_clerk, 0);
  const double k = p.simPerScreenS;
  if (m_rates.model) {
    // In the model the unit of time is a cell-time: what any worker needs for one cell (one round without a clerk).
    // Short: at 1280×720 on a projector a longer line took the stadium's last rows; the model's rule is the tooltip.
    m_scale->setText(tr("<b>1 s on screen = %1 cell-times</b> (the lesson's model)<br>professor %2 cell-times "
                        "(%3 on screen) · stadium %4 (%5)")
                         .arg(fmtFixed(k, k < 10 ? 2 : 0), fmtCount(std::int64_t(prof.finishS)),
                              shortSeconds(prof.finishS / k), fmtCount(std::int64_t(stad.finishS)),
                              shortSeconds(stad.finishS / k)));
  } else {
    m_scale->setText(tr("<b>1 s on screen = %1 of real time</b> (%2)<br>professor %3 (%4 on screen) · stadium %5 (%6)")
                         .arg(fmtSeconds(k), m_rates.label, fmtSeconds(prof.finishS), shortSeconds(prof.finishS / k),
                              fmtSeconds(stad.finishS), shortSeconds(stad.finishS / k)));
  }
}

// ---- where the pace comes from ----

void StadiumPage::rebuildSources() {
  QVector<Rates> list;
  Rates model;
  model.label = tr("the lesson's model (1 cell per worker per round)");
  model.choice = tr("the lesson's model");
  model.badgeKind = int(SourceBadge::Kind::Model);
  model.badgeDetail = tr("pace");
  list.push_back(model);

  // For each source (measured here = -1, then each recording): the professor is the CPU's naive loop, the stadium
  // the best parallel run — BLAS on all CPU cores, and the chosen GPU's best GEMM where one was measured.
  const SourcedResults in = sourcedResults();
  for (const stadium_model::Pace& p : stadium_model::paces(in, int(m_ctx.results().recordings().size()))) {
    const QString where = p.source < 0 ? tr("measured here") : m_ctx.results().sourceLabel(p.source);
    Rates r;
    r.source = p.source;
    r.badgeKind = int(p.source < 0 ? SourceBadge::Kind::MeasuredHere : SourceBadge::Kind::Recorded);
    r.badgeDetail = p.source < 0 ? tr("pace") : where;
    r.model = false;
    r.professorGflops = p.professor.gflops;
    r.stadiumGflops = p.crowd.gflops;
    r.professorCellS = p.professorCellS();
    r.studentCellS = p.studentCellS();
    r.label = tr("%1: CPU naive %2 vs %3 %4").arg(where, cube(double(p.professor.n)), crowdWords(p), cube(double(p.crowd.n)));
    // The box is narrow: a recording by its device alone ("NVIDIA H200"), the whole label in the item's tooltip.
    r.choice = p.source < 0 ? where : m_ctx.results().recordings()[p.source].device;
    list.push_back(r);
  }

  // Keep the user's choice of a measured or recorded pace; the model gives way as soon as there is evidence.
  QString want = !m_preferSource.isEmpty() ? m_preferSource
                 : m_source->currentIndex() > 0 && m_source->currentIndex() < m_sources.size() ? m_sources[m_source->currentIndex()].label
                                                                                               : QString();
  m_preferSource.clear();
  m_sources = list;
  int pick = -1;
  for (int i = 0; i < list.size(); ++i)
    if (list[i].label == want) pick = i;
  if (pick < 0) pick = int(list.size()) - 1;  // the newest evidence: a recording or a measurement beats the model
  {
    const QSignalBlocker block(m_source);
    m_source->clear();
    for (const Rates& r : list) addChoice(m_source, r.choice, r.label);
    m_source->setCurrentIndex(pick);
  }
  applySource();
}

void StadiumPage::applySource() {
  const int i = m_source->currentIndex();
  if (i < 0 || i >= m_sources.size()) return;
  const int clerkPos = m_clerkSlider->value();  // keep the clerk where it was relative to the students
  m_rates = m_sources[i];
  m_badge->set(SourceBadge::Kind(m_rates.badgeKind), m_rates.badgeDetail);
  if (m_rates.model)
    m_badge->setToolTip(tr("The pace is the lesson's model until something is measured: professor and students alike "
                           "fill one cell per round"));
  else
    m_badge->setToolTip(tr("Professor: naive loop %1; stadium: %2 shared by %3 students (so each student is %4× "
                           "slower than the professor)")
                            .arg(fmtSi(m_rates.professorGflops * 1e9, "FLOP/s"), fmtSi(m_rates.stadiumGflops * 1e9, "FLOP/s"),
                                 fmtCount(std::int64_t(kReferenceStudents)),
                                 fmtFixed(m_rates.studentCellS / m_rates.professorCellS, 0)));
  m_clerk = clerkFromPosition(clerkPos);
  pushParams();
}

void StadiumPage::recordingsChanged() { rebuildSources(); }

gpulab::Plan StadiumPage::plan() { return gpulab::stadium_plan(planBackends(), {}); }

void StadiumPage::run() {
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = 0.6;  // a quick look: the race needs a pace, not a benchmark
  startPlan(tr("Timing the professor and the stadium"), plan(), policy);
}

void StadiumPage::onResult(const Result& r) {
  if (!r.error.empty()) runBar()->showError(QString::fromStdString(r.variant + ": " + r.error));
  else if (!r.check.passed) runBar()->showError(tr("%1 gave a wrong answer: %2").arg(QString::fromStdString(r.variant),
                                                                                     QString::fromStdString(r.check.message)));
}

void StadiumPage::onRunFinished(bool cancelled) {
  if (cancelled) return;
  // The newest measured-here pace: the GPU's stadium when one ran, else the CPU's.
  rebuildSources();
  for (const Rates& r : m_sources)
    if (!r.model && r.source < 0) m_preferSource = r.label;
  rebuildSources();
  if (!m_rates.model)
    runBar()->showStatus(tr("Measured: professor %1, stadium %2")
                             .arg(fmtSi(m_rates.professorGflops * 1e9, "FLOP/s"), fmtSi(m_rates.stadiumGflops * 1e9, "FLOP/s")));
}

void StadiumPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_viewTab->place(theme.isProjector());  // a projector's fonts cannot hold every group in the column
  m_view->setTheme(theme);
  updateCounters();
}

QString StadiumPage::csv() const {
  const bool model = m_rates.model;
  QString out = model ? QStringLiteral("workers,cells,stadium_rounds,professor_rounds,last_round_utilisation,"
                                       "stadium_time_rounds,professor_time_rounds\n")
                      : QStringLiteral("workers,cells,stadium_rounds,professor_rounds,last_round_utilisation,"
                                       "stadium_time_s,professor_time_s\n");
  QVector<std::int64_t> counts{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 10000};
  if (!counts.contains(m_workers)) counts.push_back(m_workers);
  std::sort(counts.begin(), counts.end());
  for (std::int64_t w : counts) {
    const auto s = StadiumView::laneAt(cells(), w, m_rates.studentCellS, m_clerk, 0);
    const auto p = StadiumView::laneAt(cells(), 1, m_rates.professorCellS, m_clerk, 0);
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
               .arg(w)
               .arg(cells())
               .arg(models::rounds(cells(), w))
               .arg(models::rounds(cells(), 1))
               .arg(models::round_utilisation(cells(), w), 0, 'g', 6)
               .arg(s.finishS, 0, 'g', 6)
               .arg(p.finishS, 0, 'g', 6);
  }
  return out;
}

QList<PlotExport> StadiumPage::plots() {
  PlotExport e;
  e.id = QStringLiteral("stadium");
  e.title = tr("The professor and the stadium: %1 cells, %2 students").arg(fmtCount(cells()), fmtCount(m_workers));
  e.widget = m_view;
  e.csv = [this] { return csv(); };
  return {e};
}

void StadiumPage::showEvent(QShowEvent* e) {
  Page::showEvent(e);
  // Keyboard focus left on a button outside the page (the device panel's) would turn Space into a click there;
  // the page's own visual takes it, so Space runs this page's experiment.
  QWidget* focus = QApplication::focusWidget();
  if (!focus || !isAncestorOf(focus)) m_view->setFocus(Qt::OtherFocusReason);
}

GPULAB_REGISTER_PAGE(10, StadiumPage);

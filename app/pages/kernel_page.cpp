#include "pages/kernel_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/kernel_views.h"
#include "widgets/plot_style.h"
#include "widgets/roofline_plot.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gpulab;
using namespace gpulab::kernelview;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// What each step changes, in a line (the kernel files' headers say it at length).
QString stepChange(const QString& step) {
  if (step.startsWith(QLatin1String("01")))
    return QObject::tr("One thread per cell of C, but a warp's 32 threads take 32 different rows: every load of A "
                       "and every store of C needs its own 32-byte sector.");
  if (step.startsWith(QLatin1String("02")))
    return QObject::tr("Same arithmetic; a warp now takes 32 neighbouring columns: B and C move as 128 contiguous "
                       "bytes (4 sectors) and A is one broadcast.");
  if (step.startsWith(QLatin1String("03")))
    return QObject::tr("The block copies 32×32 tiles of A and B into shared memory once, then all its threads read "
                       "them there: each fetched element serves 32 products.");
  if (step.startsWith(QLatin1String("04")))
    return QObject::tr("Each thread keeps 8 results in registers and reuses one value of B for all 8: fewer shared "
                       "loads per multiply-add, a 64×64 tile per block.");
  if (step.startsWith(QLatin1String("05")))
    return QObject::tr("An 8×8 patch of results per thread (64 registers): 16 shared loads feed 64 multiply-adds; "
                       "128×128 per block.");
  if (step.startsWith(QLatin1String("06")))
    return QObject::tr("16-byte (float4) loads, a quarter of the instructions for the same bytes; A's tile stored "
                       "transposed so a thread's values sit side by side.");
  if (step.startsWith(QLatin1String("07")))
    return QObject::tr("Warp tiles arranged so no two lanes fight over a shared-memory bank, two shared buffers so "
                       "loading the next slice overlaps the maths, one barrier per slice.");
  return {};
}

// The published ladder (siboehm/SGEMM_CUDA, RTX A6000, 4092²): share of cuBLAS per step, from
// data/reference-results.md. Step 7 here is that ladder's warptiling kernel.
double publishedShareOfCublas(const QString& step) {
  static const double shares[] = {1.3, 8.5, 12.8, 36.5, 68.7, 78.4, 93.7};
  const int i = step.left(2).toInt() - 1;
  return i >= 0 && i < 7 ? shares[i] : 0;
}

QColor stepColour(int index) {
  using namespace okabe_ito;
  static const QColor colours[7] = {vermillion, orange, reddish_purple, sky_blue, blue, bluish_green, QColor(90, 90, 90)};
  return colours[std::clamp(index, 0, 6)];
}

QStringList stepNames() {
  QStringList out;
  for (const std::string& s : emu::traced_ladder_steps()) out << qs(s);
  return out;
}

const int k_minDim = 32, k_maxDim = 256;

// A title row above the plot, made once and restyled after.
void setPlotTitle(QCustomPlot* p, const QString& text, const Theme& theme) {
  QCPTextElement* title = nullptr;
  if (p->plotLayout()->rowCount() > 1) title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
  if (!title) {
    p->plotLayout()->insertRow(0);
    title = new QCPTextElement(p, text);
    p->plotLayout()->addElement(0, 0, title);
  }
  // Every figure says where its numbers come from; a half-width plot has room for the short form (the full line is
  // in the CSV behind it, the badge's tooltip and the pictures).
  title->setText(text + QLatin1Char('\n') + QObject::tr("traced on the CPU emulator"));
  QFont f = title->font();
  f.setPointSize(legendFontPt(theme));
  f.setBold(true);
  title->setFont(f);
  title->setTextColor(theme.text);
}

}  // namespace

KernelPage::KernelPage(AppContext& ctx) : Page(ctx) {
  m_mailbox = std::make_shared<Mailbox>();
  // Neither measured here nor a model: counted on the emulator. The badge says so in words (a Recorded badge shows
  // its text alone, without a "measured"/"model" prefix).
  m_traceBadge = new SourceBadge(SourceBadge::Kind::Recorded, tr("traced on the CPU emulator"));
  auto* card = new SourceBadge(SourceBadge::Kind::Datasheet, tr("roofline card"));
  for (SourceBadge* b : {m_traceBadge, card}) {
    b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    b->setWordWrap(false);
    addBadge(b);
  }
  m_redraw = makeRedrawTimer([this] { refreshAll(); });
  buildViews();
  buildControls();

  m_check = addResultLabel(2, Qt::RichText);
  m_check->setToolTip(tr("Every traced kernel's output is compared with FP64 dot products of the same inputs"));
  m_summary = addResultLabel(3, Qt::RichText);
  m_summary->setToolTip(tr("The chosen step's totals over all its threads, from the trace"));

  runBar()->setRunText(tr("Trace"));
  runBar()->runButton()->setToolTip(tr("Run the chosen step (and, if ticked, all seven) on the CPU emulator with every "
                                       "memory access counted, then check the result (Space)"));
  connect(&m_ctx.runner(), &ExperimentRunner::progress, this, [this](const QString& owner, double, const QString&) {
    if (owner == pageId()) drainMailbox();
  });
  refreshAll();
}

QString KernelPage::unavailableReason() const {
  return tr("This build has no traced kernels: clang++ was not found when it was configured, and the tracer needs "
            "clang's load/store callbacks. Install clang (Debian: clang-14) and configure again.");
}

void KernelPage::buildViews() {
  m_tabs = new QTabWidget;
  m_tabs->setObjectName(QStringLiteral("kernelViews"));
  m_tabs->setDocumentMode(true);
  // On a projector's large font the six names may not fit: they shorten rather than hide behind scroll arrows.
  m_tabs->setElideMode(Qt::ElideRight);
  m_tabs->setUsesScrollButtons(false);

  m_ownerView = new OwnerView;
  m_tabs->addTab(m_ownerView, tr("Who computes"));
  m_tabs->setTabToolTip(0, tr("The output matrix coloured by block and warp; hover a cell"));

  // One warp's load: the instruction and warp choosers above the picture.
  auto* warpTab = new QWidget;
  auto* wl = new QVBoxLayout(warpTab);
  wl->setContentsMargins(0, 4, 0, 0);
  auto* row = new QHBoxLayout;
  m_instruction = new QComboBox;
  m_instruction->setToolTip(tr("The load or store instruction of the kernel to look at (copies of one access made by "
                               "unrolling are counted together, as the GPU runs them)"));
  m_warp = new QSpinBox;
  m_warp->setToolTip(tr("Which warp of block 0: its 32 lanes' first execution of the instruction is drawn"));
  auto* instrLabel = new QLabel(tr("Instruction"));
  auto* warpLabel = new QLabel(tr("warp"));
  row->addWidget(instrLabel);
  row->addWidget(m_instruction, 2);
  row->addWidget(warpLabel);
  row->addWidget(m_warp);
  row->addStretch(1);
  wl->addLayout(row);
  m_warpView = new WarpLoadView;
  wl->addWidget(m_warpView, 1);
  m_tabs->addTab(warpTab, tr("One warp's load"));
  m_tabs->setTabToolTip(1, tr("The 32 elements one warp's request touched, and the sectors or banks it cost"));
  connect(m_instruction, &QComboBox::currentIndexChanged, this, [this] {
    if (!m_instruction->signalsBlocked()) refreshWarp();
  });
  connect(m_warp, &QSpinBox::valueChanged, this, [this] {
    if (!m_warp->signalsBlocked()) refreshWarp();
  });

  // Shared memory.
  auto* sharedTab = new QWidget;
  auto* sl = new QGridLayout(sharedTab);
  sl->setContentsMargins(0, 4, 0, 0);
  m_reusePlot = new QCustomPlot;
  m_reusePlot->setToolTip(tr("How many times each element staged in shared memory is read back, per step (steps 1 "
                             "and 2 stage nothing)"));
  m_conflictPlot = new QCustomPlot;
  m_conflictPlot->setToolTip(tr("The chosen step's shared-memory instructions: bank wavefronts per warp request, "
                                "against the conflict-free count; the difference is bank conflicts"));
  m_sharedText = new QLabel;
  m_sharedText->setWordWrap(true);
  m_sharedText->setTextFormat(Qt::RichText);
  m_sharedText->setToolTip(tr("Bytes written into and read out of shared memory by the chosen step, over all blocks"));
  sl->addWidget(m_reusePlot, 0, 0);
  sl->addWidget(m_conflictPlot, 0, 1);
  sl->addWidget(m_sharedText, 1, 0, 1, 2);
  sl->setRowStretch(0, 1);
  m_tabs->addTab(sharedTab, tr("Shared memory"));
  m_tabs->setTabToolTip(2, tr("Bytes staged, reuse per staged element, bank conflicts per request"));

  // What it adds up to: bytes per FLOP, and each step on a card's roofline.
  auto* totalsTab = new QWidget;
  auto* tl = new QGridLayout(totalsTab);
  tl->setContentsMargins(0, 4, 0, 0);
  m_bytesPlot = new QCustomPlot;
  m_bytesPlot->setToolTip(tr("Bytes the memory system is asked for (32-byte sectors, loads and stores) per floating-"
                             "point operation, per step; lower is better"));
  auto* cardRow = new QHBoxLayout;
  auto* cardLabel = new QLabel(tr("Card"));
  m_card = new QComboBox;
  m_card->setToolTip(tr("The catalogue card whose datasheet FP32 peak and memory bandwidth draw the roofline; each "
                        "step's traced intensity then predicts its ceiling on that card"));
  for (const models::GpuSpec& g : models::catalogue())
    if (g.fp32_tflops && g.bandwidth_gbs > 0) m_card->addItem(qs(g.name));
  // The published ladder ran on an RTX A6000 (GA102); the RTX 3090 is the catalogue's card with that chip.
  const models::GpuSpec* here = m_ctx.gpuInfo() ? models::find_gpu(m_ctx.gpuInfo()->name) : nullptr;
  const int def = m_card->findText(here ? qs(here->name) : QStringLiteral("RTX 3090"));
  if (def >= 0) m_card->setCurrentIndex(def);
  cardRow->addWidget(cardLabel);
  cardRow->addWidget(m_card, 1);
  m_roofline = new RooflinePlot;
  // No legend: the points take the bars' colours beside it, and a legend would cover the sloped roof they sit on.
  m_roofline->setCompact(true);
  m_roofline->setToolTip(tr("Each step's intensity (FLOP per byte, from the trace) placed on the chosen card's "
                            "roofline (datasheet): the roof above it is the fastest that step could run there"));
  m_rooflineNote = new QLabel;
  m_rooflineNote->setWordWrap(true);
  m_rooflineNote->setTextFormat(Qt::RichText);
  tl->addWidget(m_bytesPlot, 0, 0, 2, 1);
  tl->addLayout(cardRow, 0, 1);
  tl->addWidget(m_roofline, 1, 1);
  tl->addWidget(m_rooflineNote, 2, 0, 1, 2);
  tl->setRowStretch(1, 1);
  tl->setColumnStretch(0, 1);
  tl->setColumnStretch(1, 1);
  m_tabs->addTab(totalsTab, tr("Adds up to"));
  m_tabs->setTabToolTip(3, tr("Bytes per FLOP of every step side by side, and the ceiling each predicts on a card"));
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { refreshTotals(); });

  // The per-step table.
  m_table = new QTableWidget;
  m_table->setObjectName(QStringLiteral("kernelStepTable"));
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->verticalHeader()->setVisible(false);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setToolTip(tr("The trace of every step at the traced size; the last column is what others measured on a "
                         "real GPU (published), for the trend"));
  auto* tableTab = new QWidget;
  auto* tbl = new QVBoxLayout(tableTab);
  tbl->setContentsMargins(0, 4, 0, 0);
  tbl->addWidget(m_table, 1);
  m_tableNote = new QLabel;
  m_tableNote->setWordWrap(true);
  m_tableNote->setTextFormat(Qt::RichText);
  m_tableNote->setToolTip(tr("The trend of the whole ladder, from the trace, beside what others measured on a GPU"));
  tbl->addWidget(m_tableNote);
  m_tabs->addTab(tableTab, tr("Table"));
  m_tabs->setTabToolTip(4, tr("Sectors per request, bytes used, bytes per FLOP, reuse and conflicts, step by step"));

  // Step through time.
  auto* timeTab = new QWidget;
  auto* ml = new QVBoxLayout(timeTab);
  ml->setContentsMargins(0, 4, 0, 0);
  m_timeline = new TimelineView;
  ml->addWidget(m_timeline, 1);
  auto* playRow = new QHBoxLayout;
  m_play = new QPushButton(tr("Pause"));
  m_play->setToolTip(tr("Pause or play the animation of block 0's k-loop"));
  m_scrub = new QSlider(Qt::Horizontal);
  m_scrub->setToolTip(tr("Jump to a moment of block 0's run (frames: barrier phases, each split into a few steps)"));
  m_speed = new QSlider(Qt::Horizontal);
  m_speed->setRange(1, 30);
  m_speed->setValue(4);
  m_speed->setMaximumWidth(160);
  m_speed->setToolTip(tr("Animation speed in frames per second"));
  auto* speedLabel = new QLabel(tr("speed"));
  playRow->addWidget(m_play);
  playRow->addWidget(m_scrub, 1);
  playRow->addWidget(speedLabel);
  playRow->addWidget(m_speed);
  ml->addLayout(playRow);
  m_tabs->addTab(timeTab, tr("Over time"));
  m_tabs->setTabToolTip(5, tr("Block 0's k-loop animated: tiles into shared memory, barriers, C accumulating"));
  connect(m_play, &QPushButton::clicked, this, [this] {
    m_timeline->setPaused(!m_timeline->isPaused());
    m_play->setText(m_timeline->isPaused() ? tr("Play") : tr("Pause"));
  });
  connect(m_speed, &QSlider::valueChanged, this, [this](int v) { m_timeline->setFramesPerSecond(v); });
  connect(m_scrub, &QSlider::sliderMoved, this, [this](int v) { m_timeline->seek(v); });
  connect(m_timeline, &TimelineView::frameChanged, this, [this](int f) {
    if (!m_scrub->isSliderDown()) {
      const QSignalBlocker block(m_scrub);
      m_scrub->setValue(f);
    }
  });
  m_timeline->setFramesPerSecond(m_speed->value());

  for (QCustomPlot* p : {m_reusePlot, m_conflictPlot, m_bytesPlot}) p->setMinimumSize(200, 160);
  setVisual(m_tabs);
}

void KernelPage::buildControls() {
  auto* stepBox = new QGroupBox(tr("Ladder step"));
  auto* stl = new QVBoxLayout(stepBox);
  m_step = new QComboBox;
  for (const QString& s : stepNames()) m_step->addItem(qs(step_label(s.toStdString())), s);
  m_step->setToolTip(tr("Which kernel of the ladder (gpu/cuda/kernels/01…07) the step-by-step views show; each "
                        "adds one idea to the one before"));
  m_stepInfo = new QLabel;
  m_stepInfo->setWordWrap(true);
  m_stepInfo->setToolTip(tr("What this step changes against the one before, from the kernel file's header"));
  stl->addWidget(m_step);
  stl->addWidget(m_stepInfo);
  controls()->addWidget(stepBox);
  connect(m_step, &QComboBox::currentIndexChanged, this, [this] {
    m_stepInfo->setText(stepChange(currentStep()));
    refreshAll();
  });
  m_stepInfo->setText(stepChange(currentStep()));

  auto* sizeBox = new QGroupBox(tr("Problem size: C (m×n) = A·B"));
  auto* sz = new QGridLayout(sizeBox);
  auto spin = [&](const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(k_minDim, k_maxDim);
    s->setSingleStep(16);
    s->setValue(128);
    s->setToolTip(tip);
    return s;
  };
  m_spinM = spin(tr("m: rows of A and of C (32 to 256)"));
  m_spinN = spin(tr("n: columns of B and of C (32 to 256)"));
  m_spinK = spin(tr("k: the length of every dot product, columns of A and rows of B (32 to 256)"));
  sz->addWidget(new QLabel(tr("m")), 0, 0);
  sz->addWidget(m_spinM, 0, 1);
  sz->addWidget(new QLabel(tr("n")), 0, 2);
  sz->addWidget(m_spinN, 0, 3);
  sz->addWidget(new QLabel(tr("k")), 0, 4);
  sz->addWidget(m_spinK, 0, 5);
  struct Preset {
    QString text, tip;
    int m, n, k;
  };
  const Preset presets[] = {
      {tr("32³"), tr("The smallest problem: one tile, traced in a blink"), 32, 32, 32},
      {tr("64³"), tr("64×64 matrices"), 64, 64, 64},
      {tr("128³"), tr("128×128 matrices (the default): a second or two per step"), 128, 128, 128},
      {tr("256³"), tr("256×256 matrices: several blocks even for the big tiles; about 8× longer to trace"), 256, 256, 256},
  };
  auto* presetRow = new QGridLayout;
  int i = 0;
  for (const Preset& p : presets) {
    auto* b = new QPushButton(p.text);
    b->setToolTip(p.tip);
    const int m = p.m, n = p.n, k = p.k;
    connect(b, &QPushButton::clicked, this, [this, m, n, k] { setShape(m, n, k); });
    presetRow->addWidget(b, i / 2, i % 2);  // 2×2: four in a row do not fit a projector's font
    ++i;
  }
  sz->addLayout(presetRow, 1, 0, 1, 6);
  controls()->addWidget(sizeBox);

  m_all = new QCheckBox(tr("Trace all seven steps"));
  m_all->setChecked(true);
  m_all->setToolTip(tr("Trace every step of the ladder, the chosen one first, so the table, the bytes-per-FLOP bars "
                       "and the roofline compare them; unticked, only the chosen step is traced"));
  controls()->addWidget(m_all);
  auto* note = new QLabel(tr("Each step runs the real kernel file on the CPU emulator, one thread at a time, so a "
                             "trace takes a second or two at 128³. A warp's threads are assumed to run each memory "
                             "instruction together (they do in these kernels)."));
  note->setWordWrap(true);
  note->setToolTip(kernelTraceProvenance());
  controls()->addWidget(note);
  if (!emu::kernel_tracing_available()) {
    auto* why = new QLabel(unavailableReason());
    why->setWordWrap(true);
    why->setStyleSheet(QStringLiteral("color:%1;").arg(m_ctx.theme().bad.name()));
    controls()->addWidget(why);
  }
}

QString KernelPage::currentStep() const { return m_step ? m_step->currentData().toString() : QString(); }

void KernelPage::setStep(const QString& step) {
  const int i = m_step->findData(step);
  if (i >= 0) m_step->setCurrentIndex(i);
}

void KernelPage::setShape(int m, int n, int k) {
  m_spinM->setValue(m);
  m_spinN->setValue(n);
  m_spinK->setValue(k);
}

void KernelPage::setTraceAll(bool all) { m_all->setChecked(all); }

void KernelPage::setCard(const QString& name) {
  const int i = m_card->findText(name);
  if (i >= 0) m_card->setCurrentIndex(i);
}

void KernelPage::setInstruction(int instruction) {
  const int i = m_instruction->findData(instruction);
  if (i >= 0) m_instruction->setCurrentIndex(i);
}

void KernelPage::setWarp(int warp) { m_warp->setValue(warp); }

void KernelPage::run() {
  if (!emu::kernel_tracing_available()) {
    runBar()->showError(unavailableReason());
    return;
  }
  if (isRunning()) return;
  const emu::TraceShape shape{m_spinM->value(), m_spinN->value(), m_spinK->value()};
  QStringList steps{currentStep()};
  if (m_all->isChecked())
    for (const QString& s : stepNames())
      if (s != steps.front()) steps << s;
  if (shape.m != m_tracedShape.m || shape.n != m_tracedShape.n || shape.k != m_tracedShape.k) m_traces.clear();
  m_tracedShape = shape;
  m_mailbox = std::make_shared<Mailbox>();
  std::vector<std::string> list;
  for (const QString& s : steps) list.push_back(s.toStdString());
  auto box = m_mailbox;
  const bool started = startJob(tr("Tracing the ladder on the CPU emulator"), [box, list, shape](const RunContext& ctx) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (ctx.cancelled()) return;
      ctx.report(double(i) / double(list.size()), "tracing " + step_label(list[i]) + " …");
      std::shared_ptr<const emu::StepTrace> t;
      try {
        t = std::make_shared<const emu::StepTrace>(
            emu::trace_ladder_step(list[i], shape, [&ctx] { return ctx.cancelled(); }));
      } catch (const emu::LaunchStopped&) {
        return;  // cancelled inside a launch: the steps traced before it are kept
      }
      {
        const std::lock_guard<std::mutex> lock(box->mutex);
        box->done.push_back(std::move(t));
      }
      ctx.report(double(i + 1) / double(list.size()), "traced " + step_label(list[i]));
    }
  });
  if (started) refreshAll();
}

void KernelPage::drainMailbox() {
  std::vector<std::shared_ptr<const emu::StepTrace>> got;
  {
    const std::lock_guard<std::mutex> lock(m_mailbox->mutex);
    got.swap(m_mailbox->done);
  }
  if (got.empty()) return;
  for (auto& t : got) m_traces.insert(qs(t->step), t);
  m_redraw->start();
}

void KernelPage::onRunFinished(bool cancelled) {
  drainMailbox();
  m_redraw->stop();
  refreshAll();
  if (cancelled) runBar()->showStatus(tr("Cancelled: the steps traced so far are kept."));
}

std::shared_ptr<const emu::StepTrace> KernelPage::selectedTrace() const { return m_traces.value(currentStep()); }

std::vector<StepRow> KernelPage::stepRows() const {
  std::vector<StepRow> rows;
  for (const QString& s : stepNames())
    if (auto t = m_traces.value(s)) rows.push_back(summarize(*t));
  return rows;
}

void KernelPage::refreshAll() {
  refreshStep();
  refreshShared();
  refreshTotals();
  refreshStrip();
}

void KernelPage::refreshStep() {
  auto t = selectedTrace();
  const QString key = t ? QStringLiteral("%1@%2x%3x%4").arg(qs(t->step)).arg(t->shape.m).arg(t->shape.n).arg(t->shape.k)
                        : QString();
  if (key == m_shownStep && !key.isEmpty()) return;
  m_shownStep = key;
  QString message;
  if (!emu::kernel_tracing_available()) message = unavailableReason();
  else if (isRunning()) message = tr("Tracing… this step's pictures appear when its trace is done.");
  else message = tr("Press Trace (or Space) to run step %1 on the CPU emulator.").arg(m_step->currentText());
  m_ownerView->setMessage(message);
  m_timeline->setMessage(message);
  m_ownerView->setTrace(t);
  m_timeline->setTrace(t);
  m_scrub->setRange(0, std::max(0, m_timeline->frameCount() - 1));
  refreshInstructionChoices();
  refreshWarp();
}

void KernelPage::refreshInstructionChoices() {
  auto t = selectedTrace();
  const QSignalBlocker block(m_instruction);
  const int previous = m_instruction->currentData().toInt();
  const QString previousName = m_instruction->currentText();
  m_instruction->clear();
  if (!t) return;
  for (std::size_t i = 0; i < t->instructions.size(); ++i) {
    const auto& ins = t->instructions[i];
    if (sample_warps(*t, int(i)).empty()) continue;
    m_instruction->addItem(tr("%1 (%2, %3 B per lane)")
                               .arg(qs(ins.name), ins.shared ? tr("shared") : tr("global"))
                               .arg(ins.access_bytes),
                           int(i));
  }
  int pick = m_instruction->findText(previousName);
  if (pick < 0) pick = m_instruction->findData(previous);
  if (pick < 0) pick = 0;
  m_instruction->setCurrentIndex(pick);
}

void KernelPage::refreshWarp() {
  auto t = selectedTrace();
  if (!t || m_instruction->count() == 0) {
    m_warpView->setMessage(!emu::kernel_tracing_available() ? unavailableReason()
                                                            : tr("Trace a step to see what one warp's request fetched."));
    return;
  }
  const int instruction = m_instruction->currentData().toInt();
  const std::vector<int> warps = sample_warps(*t, instruction);
  {
    const QSignalBlocker block(m_warp);
    m_warp->setRange(warps.empty() ? 0 : warps.front(), warps.empty() ? 0 : warps.back());
  }
  const WarpSample* s = find_sample(*t, instruction, m_warp->value());
  if (!s && !warps.empty()) s = find_sample(*t, instruction, warps.front());
  if (!s) {
    m_warpView->setMessage(tr("No warp of block 0 ran this instruction."));
    return;
  }
  const InstructionTrace& ins = t->instructions[std::size_t(instruction)];
  const RequestView v = request_view(*t, *s);
  QStringList lines;
  if (!ins.shared) {
    lines << tr("This request: %1 lanes, %2 sector(s) of 32 B = %3 fetched for %4 asked for: %5 % used.")
                 .arg(v.lanes.size())
                 .arg(v.sector_count)
                 .arg(fmtBytes(32.0 * v.sector_count))
                 .arg(fmtBytes(double(v.bytes_used)))
                 .arg(fmtFixed(100 * v.used_share, 1));
    // The step's totals over all global loads are in the results strip below.
    lines << tr("“%1” over the whole step: %2 sectors per request, %3 % of fetched bytes used.")
                 .arg(qs(ins.name))
                 .arg(fmtFixed(ins.sectors_per_request(), 2))
                 .arg(fmtFixed(100 * ins.sector_efficiency(), 1));
  } else {
    lines << tr("This request: %1 lanes, %2 bank wavefront(s) where a conflict-free access needs %3.")
                 .arg(v.lanes.size())
                 .arg(v.wavefronts)
                 .arg(v.ideal_wavefronts);
    lines << tr("“%1” over the whole step: %2 extra wavefronts per request (bank conflicts).")
                 .arg(qs(ins.name))
                 .arg(fmtFixed(ins.conflicts_per_request(), 2));
  }
  m_warpView->setRequest(v, tr("One warp's load: warp %1 of block 0, “%2”, step %3")
                                .arg(s->warp)
                                .arg(qs(ins.name))
                                .arg(qs(step_label(t->step))),
                         lines);
}

void KernelPage::refreshShared() {
  const Theme& theme = m_ctx.theme();
  const std::vector<StepRow> rows = stepRows();
  // Reuse per step.
  QCustomPlot* p = m_reusePlot;
  p->clearPlottables();
  p->clearItems();
  stylePlot(p, theme);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  QVector<double> keys, values;
  double top = 1;
  for (const StepRow& r : rows) {
    const double key = QString::fromStdString(r.step).left(2).toInt();
    keys << key;
    values << r.shared_reuse;
    ticker->addTick(key, QString::fromStdString(r.step).left(2));
    top = std::max(top, r.shared_reuse);
    if (r.shared_reuse == 0) {
      auto* none = new QCPItemText(p);
      none->position->setCoords(key, 0);
      none->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
      none->setText(tr("none"));
      none->setColor(theme.mutedText);
    }
  }
  auto* bars = new QCPBars(p->xAxis, p->yAxis);
  bars->setData(keys, values);
  bars->setWidth(0.6);
  bars->setBrush(theme.gpu);
  bars->setPen(QPen(theme.gpu.darker(130)));
  bars->setName(tr("reads per staged element"));
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(0.4, 7.6);
  p->xAxis->setLabel(tr("ladder step"));
  p->yAxis->setLabel(tr("reads per staged element"));
  p->yAxis->setRange(0, top * 1.15);
  p->legend->setVisible(false);
  setPlotTitle(p, tr("Reuse of shared memory"), theme);
  p->replot();

  // The chosen step's shared instructions: wavefronts per request against the conflict-free count.
  QCustomPlot* c = m_conflictPlot;
  c->clearPlottables();
  c->clearItems();
  stylePlot(c, theme);
  auto t = selectedTrace();
  QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
  QVector<double> k2, actual, ideal;
  double ctop = 1;
  if (t) {
    int i = 0;
    for (const InstructionTrace& ins : t->instructions) {
      if (!ins.shared || ins.requests == 0) continue;
      ++i;
      k2 << i;
      actual << double(ins.wavefronts) / double(ins.requests);
      ideal << double(ins.ideal_wavefronts) / double(ins.requests);
      names->addTick(i, QString::fromStdString(ins.name).replace(QLatin1String("load "), QLatin1String("ld "))
                            .replace(QLatin1String("store "), QLatin1String("st ")));
      ctop = std::max(ctop, actual.back());
    }
  }
  auto* actualBars = new QCPBars(c->xAxis, c->yAxis);
  actualBars->setData(k2, actual);
  actualBars->setWidth(0.35);
  actualBars->setBrush(theme.bad);
  actualBars->setPen(QPen(theme.bad.darker(130)));
  actualBars->setName(tr("traced"));
  auto* idealBars = new QCPBars(c->xAxis, c->yAxis);
  QVector<double> k2i;
  for (double k : k2) k2i << k + 0.37;
  idealBars->setData(k2i, ideal);
  idealBars->setWidth(0.35);
  idealBars->setBrush(theme.model);
  idealBars->setPen(QPen(theme.model.darker(130)));
  idealBars->setName(tr("conflict-free"));
  c->xAxis->setTicker(names);
  c->xAxis->setTickLabelRotation(k2.size() > 3 ? 30 : 0);
  c->xAxis->setRange(0.4, std::max(1.0, double(k2.size())) + 0.8);
  c->xAxis->setLabel(t ? tr("instruction (step %1)").arg(qs(t->step).left(2)) : tr("instruction"));
  setPlotTitle(c, tr("Bank conflicts"), theme);
  c->yAxis->setLabel(tr("wavefronts per request"));
  c->yAxis->setRange(0, ctop * 1.25);
  c->legend->setVisible(!k2.isEmpty());
  if (k2.isEmpty() && t) {
    auto* none = new QCPItemText(c);
    none->position->setType(QCPItemPosition::ptAxisRectRatio);
    none->position->setCoords(0.5, 0.5);
    none->setText(tr("step %1 uses no shared memory").arg(qs(step_label(t->step))));
    none->setColor(theme.mutedText);
  }
  c->replot();

  if (t) {
    const StepRow r = summarize(*t);
    m_sharedText->setText(
        r.shared_stored
            ? tr("Step %1 staged <b>%2</b> into shared memory and read <b>%3</b> back out: each staged element was "
                 "read <b>%4×</b>. Bank conflicts: <b>%5</b> extra wavefronts per shared request. <i>%6.</i>")
                  .arg(qs(step_label(r.step)), fmtBytes(double(r.shared_stored)), fmtBytes(double(r.shared_loaded)),
                       fmtFixed(r.shared_reuse, 1), fmtFixed(r.conflicts_per_request, 2), kernelTraceProvenance())
            : tr("Step %1 reads every operand straight from global memory: nothing is staged in shared memory. "
                 "<i>%2.</i>")
                  .arg(qs(step_label(r.step)), kernelTraceProvenance()));
  } else {
    m_sharedText->setText(tr("<i>%1.</i> Trace a step to see its shared-memory traffic.").arg(kernelTraceProvenance()));
  }
}

void KernelPage::refreshTotals() {
  const Theme& theme = m_ctx.theme();
  const std::vector<StepRow> rows = stepRows();

  // Bytes per FLOP, log scale: the ladder spans two decades.
  QCustomPlot* p = m_bytesPlot;
  p->clearPlottables();
  p->clearItems();
  stylePlot(p, theme);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const StepRow& r : rows)
    if (r.bytes_per_flop > 0) lo = std::min(lo, r.bytes_per_flop), hi = std::max(hi, r.bytes_per_flop);
  if (!(hi > 0)) lo = 0.01, hi = 10;
  const double base = std::pow(10.0, std::floor(std::log10(lo)) - 0.0) / 2;
  for (const StepRow& r : rows) {
    const int i = QString::fromStdString(r.step).left(2).toInt();
    auto* b = new QCPBars(p->xAxis, p->yAxis);
    b->setBaseValue(base);
    b->setWidth(0.65);
    b->setData({double(i)}, {std::max(base, r.bytes_per_flop)});
    b->setBrush(stepColour(i - 1));
    b->setPen(QPen(stepColour(i - 1).darker(130)));
    b->removeFromLegend();
    auto* label = new QCPItemText(p);
    label->position->setCoords(i, r.bytes_per_flop);
    label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    label->setText(fmtFixed(r.bytes_per_flop, r.bytes_per_flop < 0.1 ? 3 : 2));
    label->setColor(theme.text);
    label->setClipToAxisRect(false);
  }
  for (const QString& s : stepNames()) ticker->addTick(s.left(2).toInt(), s.left(2));
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(0.4, 7.6);
  p->xAxis->setLabel(tr("ladder step"));
  setPlotTitle(p, tr("Bytes per FLOP"), theme);
  useLogAxis(p, false);
  p->yAxis->setRange(base, hi * 3);
  p->yAxis->setLabel(tr("bytes / FLOP"));
  p->legend->setVisible(false);
  p->replot();

  // The roofline of the chosen card, each step placed at its traced intensity.
  const models::GpuSpec* card = nullptr;
  for (const models::GpuSpec& g : models::catalogue())
    if (qs(g.name) == m_card->currentText()) card = &g;
  m_roofline->applyTheme(theme);
  QVector<RooflinePlot::Roof> roofs;
  QVector<RooflinePlot::Point> points;
  QStringList note;
  if (card && card->fp32_tflops) {
    const double peak = *card->peak_flops_for(Precision::fp32), bw = card->bandwidth_bytes_s();
    roofs.push_back({tr("%1 FP32 · datasheet").arg(qs(card->name)), peak, bw, theme.model, SeriesKind::Datasheet, true});
    for (const StepRow& r : rows) {
      const RooflinePlacement pl = place_on_roofline(r.intensity, peak, bw);
      if (pl.attainable <= 0) continue;
      RooflinePlot::Point pt;
      pt.intensity = pl.intensity;
      pt.flops = pl.attainable;
      const int i = QString::fromStdString(r.step).left(2).toInt();
      pt.color = stepColour(i - 1);
      pt.group = qs(step_label(r.step));
      pt.tooltip = tr("%1: %2 FLOP/B (traced on the CPU emulator) → at most %3 on the %4 (datasheet roofline), %5 % "
                      "of its FP32 peak; %6")
                       .arg(qs(step_label(r.step)), fmtFixed(r.intensity, 2), fmtSi(pl.attainable, "FLOP/s"),
                            qs(card->name), fmtFixed(100 * pl.share_of_peak, 1),
                            pl.memory_bound ? tr("memory-bound") : tr("compute-bound"));
      points.push_back(pt);
    }
    if (!rows.empty()) {
      const StepRow& first = rows.front();
      const StepRow& last = rows.back();
      const RooflinePlacement a = place_on_roofline(first.intensity, peak, bw);
      const RooflinePlacement b = place_on_roofline(last.intensity, peak, bw);
      // The traced bytes are what the warps ask the memory system for; L1 and L2 serve repeats, so this is the
      // ceiling if every fetched sector came from DRAM, not a bound on what the caches allow.
      note << tr("On the %1 (datasheet: %2 FP32, %3/s), if every fetched sector came from memory, step %4 would be "
                 "held to %5 (%6 % of peak) and step %7 to %8 (%9 %); caches lift the early steps above that.")
                  .arg(qs(card->name), fmtSi(peak, "FLOP/s"), fmtBytes(bw), qs(step_label(first.step)),
                       fmtSi(a.attainable, "FLOP/s"), fmtFixed(100 * a.share_of_peak, 1), qs(step_label(last.step)),
                       fmtSi(b.attainable, "FLOP/s"), fmtFixed(100 * b.share_of_peak, 1));
    }
  }
  note << tr("<i>Published</i> (siboehm/SGEMM_CUDA, RTX A6000, 4092²): the ladder went from <b>1.3 %</b> of cuBLAS "
             "(naive) to <b>93.7 %</b> (warp tiles).");
  m_rooflineNote->setToolTip(tr("The traced bytes are requests to the memory system; L1 and L2 serve repeated reads, "
                                "so a step can run above this roof when its data stays in cache, and below it "
                                "because of latency and instruction limits"));
  m_roofline->setTitle(tr("Datasheet roofline\n(traced intensity)"));
  m_roofline->setRoofs(roofs);
  m_roofline->setPoints(points);
  m_roofline->rebuildNow();
  // The shared chart's own axis title is too long for half a page.
  m_roofline->plot()->xAxis->setLabel(tr("FLOP / byte"));
  m_roofline->plot()->yAxis->setLabel(tr("ceiling"));
  m_roofline->plot()->replot();
  m_rooflineNote->setText(note.join(QLatin1Char(' ')));

  // The table.
  // Global bytes and bytes staged are in the CSV; on screen the columns a class compares.
  const QStringList headers = {tr("step"),           tr("check"),
                               tr("sectors per\nload request"), tr("fetched\nbytes used"),
                               tr("bytes per\nFLOP"),   tr("FLOP per\nbyte"),
                               tr("reuse per\nstaged elem."), tr("conflicts per\nshared req."),
                               tr("published: %\nof cuBLAS")};
  m_table->setColumnCount(int(headers.size()));
  m_table->setHorizontalHeaderLabels(headers);
  if (QTableWidgetItem* h = m_table->horizontalHeaderItem(int(headers.size()) - 1))
    h->setToolTip(tr("Published, not measured here: siboehm/SGEMM_CUDA's ladder on an RTX A6000 at 4092², each "
                     "step's speed as a share of cuBLAS"));
  m_table->setRowCount(int(rows.size()));
  for (int r = 0; r < int(rows.size()); ++r) {
    const StepRow& s = rows[std::size_t(r)];
    const QStringList cells = {qs(step_label(s.step)),
                               s.check_passed ? tr("passed") : tr("FAILED"),
                               fmtFixed(s.sectors_per_request, 2),
                               fmtFixed(100 * s.used_share, 1) + QStringLiteral(" %"),
                               fmtFixed(s.bytes_per_flop, 4),
                               fmtFixed(s.intensity, 2),
                               s.shared_stored ? fmtFixed(s.shared_reuse, 1) : tr("—"),
                               s.shared_requests ? fmtFixed(s.conflicts_per_request, 2) : tr("—"),
                               fmtFixed(publishedShareOfCublas(qs(s.step)), 1) + QStringLiteral(" %")};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setTextAlignment(c == 0 ? (Qt::AlignLeft | Qt::AlignVCenter) : (Qt::AlignRight | Qt::AlignVCenter));
      if (c == 1) item->setForeground(s.check_passed ? theme.good : theme.bad);
      if (c == 1) item->setToolTip(qs(s.check_message));
      if (c == 8) item->setToolTip(tr("Published: siboehm/SGEMM_CUDA on an RTX A6000 at 4092² (not measured here)"));
      m_table->setItem(r, c, item);
    }
  }
  m_table->resizeColumnsToContents();
  m_table->resizeRowsToContents();
  if (rows.size() >= 2) {
    const StepRow& a = rows.front();
    const StepRow& b = rows.back();
    m_tableNote->setText(
        tr("From %1 to %2 the bytes asked of memory per FLOP fell from %3 to %4 — %5× fewer — at %6×%7×%8. "
           "<i>Published</i> on an RTX A6000 (4092², siboehm/SGEMM_CUDA), the same ladder ran at 1.3 % of cuBLAS "
           "(naive) and 93.7 % (warp tiles): the trend of the last column follows the bytes. <i>%9.</i>")
            .arg(qs(step_label(a.step)), qs(step_label(b.step)), fmtFixed(a.bytes_per_flop, 3), fmtFixed(b.bytes_per_flop, 3),
                 fmtFixed(b.bytes_per_flop > 0 ? a.bytes_per_flop / b.bytes_per_flop : 0, 0))
            .arg(a.m)
            .arg(a.n)
            .arg(a.k)
            .arg(kernelTraceProvenance()));
  } else {
    m_tableNote->setText(tr("Trace all seven steps to compare them. <i>%1.</i>").arg(kernelTraceProvenance()));
  }
}

void KernelPage::refreshStrip() {
  const std::vector<StepRow> rows = stepRows();
  m_check->setText(checkText());
  m_check->setToolTip(tr("Every traced kernel's C is compared with FP64 dot products of the same inputs"));
  auto t = selectedTrace();
  if (!t) {
    m_summary->setText(emu::kernel_tracing_available()
                           ? tr("Nothing traced yet at %1×%2×%3. <i>%4.</i>")
                                 .arg(m_spinM->value())
                                 .arg(m_spinN->value())
                                 .arg(m_spinK->value())
                                 .arg(kernelTraceProvenance())
                           : unavailableReason());
    return;
  }
  const StepRow r = summarize(*t);
  m_summary->setText(tr("<b>%1</b> at %2×%3×%4: %5 sectors per load request · %6 % of fetched bytes used · "
                        "<b>%7 B/FLOP</b> · shared reuse %8 · conflicts/request %9")
                         .arg(qs(step_label(r.step)))
                         .arg(r.m)
                         .arg(r.n)
                         .arg(r.k)
                         .arg(fmtFixed(r.sectors_per_request, 2), fmtFixed(100 * r.used_share, 1),
                              fmtFixed(r.bytes_per_flop, 4), r.shared_stored ? fmtFixed(r.shared_reuse, 1) : tr("—"),
                              r.shared_requests ? fmtFixed(r.conflicts_per_request, 2) : tr("—")));
  m_summary->setToolTip(tr("Kernel %1; %2").arg(qs(r.kernel), kernelTraceProvenance()));
}

QString KernelPage::checkText() const {
  const std::vector<StepRow> rows = stepRows();
  if (rows.empty()) return tr("Check: each traced kernel's C is compared with FP64 dot products.");
  int passed = 0;
  QStringList failed;
  for (const StepRow& r : rows) {
    if (r.check_passed) ++passed;
    else failed << qs(step_label(r.step)) + QStringLiteral(": ") + qs(r.check_message).toHtmlEscaped();
  }
  if (failed.isEmpty())
    return tr("<span style='color:%1'>✔ Check passed</span>: %2 of %2 traced step(s), every cell of C equal to FP64 "
              "dot products.")
        .arg(m_ctx.theme().good.name())
        .arg(passed);
  return tr("<span style='color:%1'>✘ Check failed</span>: %2").arg(m_ctx.theme().bad.name(), failed.join(QStringLiteral("; ")));
}

void KernelPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_ownerView->setTheme(theme);
  m_warpView->setTheme(theme);
  m_timeline->setTheme(theme);
  m_roofline->applyTheme(theme);
  refreshShared();
  refreshTotals();
  refreshStrip();
}

// ---- Export --------------------------------------------------------------------------------------------------------

QString KernelPage::tableCsv() const { return QString::fromStdString(steps_csv(stepRows())); }

QString KernelPage::sharedCsv() const {
  QString out = QStringLiteral("step,instruction,shared,store,access_bytes,requests,wavefronts,ideal_wavefronts,"
                               "wavefronts_per_request,shared_bytes_stored,shared_bytes_loaded,shared_reuse,source\n");
  for (const QString& s : stepNames()) {
    auto t = m_traces.value(s);
    if (!t) continue;
    for (const InstructionTrace& ins : t->instructions) {
      if (!ins.shared) continue;
      out += QStringLiteral("%1,%2,1,%3,%4,%5,%6,%7,%8,%9,%10,%11,traced on the CPU emulator\n")
                 .arg(s, qs(ins.name))
                 .arg(ins.store ? 1 : 0)
                 .arg(ins.access_bytes)
                 .arg(ins.requests)
                 .arg(ins.wavefronts)
                 .arg(ins.ideal_wavefronts)
                 .arg(ins.requests ? double(ins.wavefronts) / double(ins.requests) : 0.0, 0, 'f', 3)
                 .arg(t->shared_bytes_stored())
                 .arg(t->shared_bytes_loaded())
                 .arg(t->shared_reuse(), 0, 'f', 2);
    }
  }
  return out;
}

QString KernelPage::ownerCsv() const {
  QString out = QStringLiteral("step,row,col,block,block_x,block_y,warp,lane,source\n");
  auto t = selectedTrace();
  if (!t) return out;
  for (int r = 0; r < t->shape.m; ++r)
    for (int c = 0; c < t->shape.n; ++c) {
      const Owner o = owner_at(*t, r, c);
      out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,traced on the CPU emulator\n")
                 .arg(qs(t->step))
                 .arg(r)
                 .arg(c)
                 .arg(o.block)
                 .arg(o.block_x)
                 .arg(o.block_y)
                 .arg(o.warp)
                 .arg(o.lane);
    }
  return out;
}

QString KernelPage::warpCsv() const {
  QString out = QStringLiteral("step,instruction,array,warp,lane,element,row,col,floats,sector,source\n");
  auto t = selectedTrace();
  if (!t || m_instruction->count() == 0) return out;
  const int instruction = m_instruction->currentData().toInt();
  const WarpSample* s = find_sample(*t, instruction, m_warp->value());
  if (!s) return out;
  const RequestView v = request_view(*t, *s);
  const InstructionTrace& ins = t->instructions[std::size_t(instruction)];
  for (const LaneCell& l : v.lanes)
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,traced on the CPU emulator\n")
               .arg(qs(t->step), qs(ins.name), qs(ins.array))
               .arg(s->warp)
               .arg(l.lane)
               .arg(l.element)
               .arg(l.row)
               .arg(l.col)
               .arg(l.words)
               .arg(ins.shared ? QString() : QString::number(l.element / 8));
  return out;
}

QString KernelPage::timelineCsv() const {
  QString out = QStringLiteral("step,frame,phase,sub_step,barrier_after,touches,k_done_fraction,source\n");
  auto t = selectedTrace();
  if (!t) return out;
  const BlockTimeline& tl = m_timeline->timeline();
  for (std::size_t f = 0; f < tl.frames.size(); ++f) {
    const TimelineFrame& fr = tl.frames[f];
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,traced on the CPU emulator\n")
               .arg(qs(t->step))
               .arg(f)
               .arg(fr.phase)
               .arg(fr.sub)
               .arg(fr.ends_with_barrier ? 1 : 0)
               .arg(fr.end - fr.begin)
               .arg(double(tl.k_done[f]), 0, 'f', 4);
  }
  return out;
}

QList<PlotExport> KernelPage::plots() {
  QList<PlotExport> out;
  out.append({QStringLiteral("owners"), tr("Who computes what (traced on the CPU emulator)"), nullptr, m_ownerView,
              [this] { return ownerCsv(); }});
  out.append({QStringLiteral("warp_load"), tr("One warp's load (traced on the CPU emulator)"), nullptr, m_warpView,
              [this] { return warpCsv(); }});
  out.append({QStringLiteral("shared_reuse"), tr("Shared-memory reuse per step (traced on the CPU emulator)"),
              m_reusePlot, nullptr, [this] { return sharedCsv(); }});
  out.append({QStringLiteral("bank_conflicts"), tr("Bank wavefronts per shared request (traced on the CPU emulator)"),
              m_conflictPlot, nullptr, [this] { return sharedCsv(); }});
  out.append({QStringLiteral("bytes_per_flop"), tr("Global bytes per FLOP per ladder step (traced on the CPU emulator)"),
              m_bytesPlot, nullptr, [this] { return tableCsv(); }});
  out.append({QStringLiteral("roofline"), tr("Ladder steps on a datasheet roofline (intensity traced on the CPU emulator)"),
              m_roofline->plot(), nullptr, [this] { return m_roofline->csv(); }});
  out.append({QStringLiteral("steps"), tr("Per-step table (traced on the CPU emulator)"), nullptr, m_table,
              [this] { return tableCsv(); }});
  out.append({QStringLiteral("timeline"), tr("Block 0's k-loop (traced on the CPU emulator)"), nullptr, m_timeline,
              [this] { return timelineCsv(); }});
  return out;
}

// ---- The lesson ------------------------------------------------------------------------------------------------------

LessonContent KernelPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "The matrix-multiply page timed a ladder of seven GPU kernels. Here the same kernel files run on a CPU emulator "
      "of CUDA, with every load and store counted, so you can see what each step changed without a GPU. "
      "Step 1 gives each thread one cell of C, but numbers the threads so that a warp's 32 neighbours take 32 "
      "different rows: each of their loads lands in a different 32-byte sector. Step 2 only renumbers the threads "
      "so a warp walks along a row: the same loads now share 4 sectors. Step 3 copies 32×32 tiles into shared "
      "memory, so each element fetched from memory serves 32 threads. Steps 4 and 5 give each thread 8, then 64 "
      "results kept in registers, so one value read from shared memory feeds many multiply-adds. Step 6 moves 16 "
      "bytes per instruction and stores A's tile transposed; step 7 arranges the warps so no two lanes fight over a "
      "shared-memory bank and loads the next slice while computing on this one. "
      "Over the ladder the bytes asked of memory per FLOP fall about a hundredfold (not at every step: step 5 "
      "writes its results a lane per sector, which step 6 fixes with wide stores) — and on a real GPU that is what "
      "made it faster: "
      "published on an RTX A6000, the ladder went from 1.3 % of cuBLAS (naive) to 93.7 % (warp tiles). The counts "
      "here are exact for the emulated run; its times are not a GPU's, so none are shown.");
  c.questions.append(
      {tr("Steps 1 and 2 do exactly the same arithmetic and load exactly the same elements. Why is step 2 several "
          "times faster on a GPU?"),
       tr("Because of how a warp's loads are grouped. In step 1 the 32 lanes read 32 different rows of A, so the "
          "memory system fetches 32 sectors of 32 bytes to deliver 128 useful bytes. In step 2 the lanes read 32 "
          "neighbouring floats of B — 4 sectors, all of it used — and A is one broadcast. Same FLOPs, far fewer bytes.")});
  c.questions.append(
      {tr("Step 3 reads every operand from shared memory instead of global memory. Why does that cut the global "
          "bytes per FLOP by about 32×?"),
       tr("Each element of a 32×32 tile is fetched from global memory once and then read by the 32 threads of the "
          "block that need it. The 'reuse per staged element' on the Shared memory tab shows this number.")});
  c.questions.append(
      {tr("On the roofline, the early steps sit on the sloped part and the late ones near the flat roof. What does "
          "that mean for which resource limits each?"),
       tr("Left of the ridge a kernel is memory-bound: its ceiling is bandwidth × intensity, so fewer bytes per FLOP "
          "raise it directly. Past the ridge the arithmetic units are the limit, and further savings in bytes no "
          "longer help — the last steps instead cut instructions, bank conflicts and waiting at barriers.")});
  LessonExercise sectors;
  sectors.prompt = tr("Step 1 at the traced size: how many 32-byte sectors does one warp's load of A need on average?");
  sectors.unit = tr("sectors");
  sectors.tolerance = 0.02;
  sectors.compute = [this] {
    auto t = m_traces.value(QStringLiteral("01_naive"));
    if (!t) return std::numeric_limits<double>::quiet_NaN();
    for (const InstructionTrace& ins : t->instructions)
      if (ins.name == "load A") return ins.sectors_per_request();
    return std::numeric_limits<double>::quiet_NaN();
  };
  sectors.explanation = tr("32 lanes read 32 different rows of A, each a row apart in memory: one sector each, of "
                           "which 4 bytes are used.");
  sectors.unavailable = tr("Trace step 01 naive first (Trace, with all seven steps ticked).");
  c.exercises.append(sectors);
  LessonExercise ratio;
  ratio.prompt = tr("How many times fewer global bytes per FLOP does step 3 (shared tiles) need than step 2 (coalesced)?");
  ratio.unit = tr("×");
  ratio.tolerance = 0.15;
  ratio.compute = [this] {
    auto a = m_traces.value(QStringLiteral("02_coalesced")), b = m_traces.value(QStringLiteral("03_shared_tiles"));
    if (!a || !b || b->bytes_per_flop() <= 0) return std::numeric_limits<double>::quiet_NaN();
    return a->bytes_per_flop() / b->bytes_per_flop();
  };
  ratio.explanation = tr("Each element of a tile fetched once now serves a whole row or column of the 32×32 block; "
                         "what is left over comes from C's stores and the edges of small problems.");
  ratio.unavailable = tr("Trace all seven steps first.");
  c.exercises.append(ratio);
  return c;
}

GPULAB_REGISTER_PAGE(25, KernelPage);

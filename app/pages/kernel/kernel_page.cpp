#include "pages/kernel/kernel_page.h"
#include "pages/kernel/kernel_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/frame_coalescer.h"
#include "widgets/kernel_views.h"
#include "widgets/plot_object_pool.h"
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
using namespace kernelpage_detail;

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
  m_redraw = new FrameCoalescer([this] { refreshAll(); }, this);
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
  // Shown while another page's experiment ran: trace once the runner is free (after that page has had its result).
  connect(&m_ctx.runner(), &ExperimentRunner::finished, this, [this](const QString& owner, bool) {
    if (owner != pageId()) QTimer::singleShot(0, this, [this] { traceWhatIsMissing(); });
  });
  refreshAll();
}

KernelPage::~KernelPage() = default;

QString KernelPage::unavailableReason() const {
  return tr("This build has no traced kernels: clang++ was not found when it was configured, and the tracer needs "
            "clang's load/store callbacks. Install clang (Debian: clang-14) and configure again.");
}

void KernelPage::buildViews() {
  m_tabs = new QTabWidget;
  m_tabs->setObjectName(QStringLiteral("kernelViews"));
  m_tabs->setDocumentMode(true);
  // Six views share a pane 450 to 520 px wide in a 1366×768 window: the tab names are a word or two each so that all
  // six show whole there (each view's own header and the tab's tooltip say it in full). Should they still not fit
  // (a larger font), they shorten rather than hide behind scroll arrows.
  m_tabs->setElideMode(Qt::ElideRight);
  m_tabs->setUsesScrollButtons(false);

  m_ownerView = new OwnerView;
  m_tabs->addTab(m_ownerView, tr("Threads"));
  m_tabs->setTabToolTip(0, tr("Who computes what: the output matrix coloured by the block and warp whose threads "
                              "compute each cell; hover a cell"));

  // One warp's load: the instruction and warp choosers above the picture.
  auto* warpTab = new QWidget;
  auto* wl = new QVBoxLayout(warpTab);
  wl->setContentsMargins(0, 4, 0, 0);
  auto* row = new QHBoxLayout;
  m_instruction = new QComboBox;
  setControlId(m_instruction, QStringLiteral("kernel.instruction"));
  m_instruction->setToolTip(tr("The load or store instruction of the kernel to look at (copies of one access made by "
                               "unrolling are counted together, as the GPU runs them)"));
  m_warp = new QSpinBox;
  setControlId(m_warp, QStringLiteral("kernel.warp"));
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
  m_tabs->addTab(warpTab, tr("One warp"));
  m_tabs->setTabToolTip(1, tr("One warp's load: the 32 elements one warp's request touched, and the sectors or banks "
                              "it cost"));
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
  m_conflictPlot->setToolTip(tr("The chosen step's shared-memory instructions: bank wavefronts per warp request "
                                "(the height of each bar), against the conflict-free count; the difference is bank "
                                "conflicts"));
  m_sharedText = new QLabel;
  m_sharedText->setWordWrap(true);
  m_sharedText->setTextFormat(Qt::RichText);
  m_sharedText->setToolTip(tr("Bytes written into and read out of shared memory by the chosen step, over all blocks"));
  sl->addWidget(m_reusePlot, 0, 0);
  sl->addWidget(m_conflictPlot, 0, 1);
  sl->addWidget(m_sharedText, 1, 0, 1, 2);
  sl->setRowStretch(0, 1);
  m_tabs->addTab(sharedTab, tr("Shared"));
  m_tabs->setTabToolTip(2, tr("Shared memory: bytes staged, reuse per staged element, bank conflicts per request"));

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
  setControlId(m_card, QStringLiteral("kernel.card"));
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
  m_roofline->setTitle(tr("Datasheet roofline\n(traced intensity)"));
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
  // The roofline's log axes and their labels take more of its width than the bars' axis does: a little more of
  // the tab's width for it, so a 1024 px window leaves both data areas readable (each over 120 px).
  tl->setColumnStretch(0, 5);
  tl->setColumnStretch(1, 6);
  m_tabs->addTab(totalsTab, tr("Totals"));
  m_tabs->setTabToolTip(3, tr("What it adds up to: bytes per FLOP of every step side by side, and the ceiling each "
                              "predicts on a card"));
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { refreshTotals(); });

  // The per-step table (kernel_page_table.cpp).
  m_tabs->addTab(buildTableTab(), tr("Table"));
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
  setControlId(m_scrub, QStringLiteral("kernel.moment"));
  m_scrub->setToolTip(tr("Jump to a moment of block 0's run (frames: barrier phases, each split into a few steps)"));
  m_speed = new QSlider(Qt::Horizontal);
  setControlId(m_speed, QStringLiteral("kernel.speed"));
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
  m_tabs->addTab(timeTab, tr("Replay"));
  m_tabs->setTabToolTip(5, tr("Block 0's k-loop over time, animated: tiles into shared memory, barriers, C "
                              "accumulating"));
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
  m_reusePool = std::make_unique<PlotObjectPool>(m_reusePlot);
  m_conflictPool = std::make_unique<PlotObjectPool>(m_conflictPlot);
  m_bytesPool = std::make_unique<PlotObjectPool>(m_bytesPlot);
  setVisual(m_tabs);
}

void KernelPage::buildControls() {
  auto* stepBox = new QGroupBox(tr("Ladder step"));
  auto* stl = new QVBoxLayout(stepBox);
  m_step = new QComboBox;
  setControlId(m_step, QStringLiteral("kernel.step"));
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
  setControlId(m_spinM, QStringLiteral("kernel.m"));
  setControlId(m_spinN, QStringLiteral("kernel.n"));
  setControlId(m_spinK, QStringLiteral("kernel.k"));
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
  setControlId(m_all, QStringLiteral("kernel.trace_all"));
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
  if (isRunning()) {
    // The page's own trace gives way to the one asked for (onRunFinished starts it).
    if (m_tracingByItself) {
      m_traceWhenFree = true;
      cancel();
    }
    return;
  }
  const emu::TraceShape shape{m_spinM->value(), m_spinN->value(), m_spinK->value()};
  QStringList steps{currentStep()};
  if (m_all->isChecked())
    for (const QString& s : stepNames())
      if (s != steps.front()) steps << s;
  startTrace(steps, shape, /*byItself=*/false);
}

void KernelPage::traceWhatIsMissing() {
  if (!emu::kernel_tracing_available() || !isVisible() || m_ctx.runner().isBusy()) return;
  // Nothing traced yet: the chosen shape; otherwise the steps a trace left undone (cancelled when the page was
  // left) at the shape it traced, so the views never mix two shapes.
  const bool none = m_traces.isEmpty();
  const emu::TraceShape shape = none ? emu::TraceShape{m_spinM->value(), m_spinN->value(), m_spinK->value()}
                                     : m_tracedShape;
  QStringList steps;
  for (const QString& s : stepNames())
    if (!m_traces.contains(s) && (m_all->isChecked() || s == currentStep())) steps << s;
  if (steps.removeOne(currentStep())) steps.prepend(currentStep());  // what the views show first
  if (!steps.isEmpty()) startTrace(steps, shape, /*byItself=*/true);
}

void KernelPage::shownAtItsSize() { traceWhatIsMissing(); }

void KernelPage::hideEvent(QHideEvent* e) {
  Page::hideEvent(e);
  // Left while tracing by itself: the runner is freed for the page the viewer went to.
  if (isTracingByItself()) cancel();
}

bool KernelPage::startTrace(const QStringList& steps, emu::TraceShape shape, bool byItself) {
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
  m_tracingByItself = started && byItself;
  if (started) refreshAll();
  return started;
}

void KernelPage::drainMailbox() {
  std::vector<std::shared_ptr<const emu::StepTrace>> got;
  {
    const std::lock_guard<std::mutex> lock(m_mailbox->mutex);
    got.swap(m_mailbox->done);
  }
  if (got.empty()) return;
  for (auto& t : got) m_traces.insert(qs(t->step), t);
  m_redraw->request();
}

void KernelPage::onRunFinished(bool cancelled) {
  drainMailbox();
  m_redraw->flush();  // the traces that came in the last frame, drawn below with the run's end
  const bool byItself = m_tracingByItself;
  m_tracingByItself = false;
  // A trace the page started and then stopped itself (left, or Trace pressed) is not the viewer's cancel.
  if (cancelled && !byItself) runBar()->showStatus(tr("Cancelled: the steps traced so far are kept."));
  if (cancelled && byItself) runBar()->showStatus(QString());
  if (m_traceWhenFree) {
    m_traceWhenFree = false;
    run();
  }
  refreshAll();
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
  else if (m_ctx.runner().isBusy()) message = tr("Step %1 is traced as soon as the experiment running now ends.").arg(m_step->currentText());
  else message = tr("Press Trace (or Space) to run step %1 on the CPU emulator.").arg(m_step->currentText());
  m_ownerView->setMessage(message);
  m_timeline->setMessage(message);
  m_ownerView->setTrace(t);
  m_timeline->setTrace(t);
  m_scrub->setRange(0, std::max(0, m_timeline->frameCount() - 1));
  refreshInstructionChoices();
  refreshWarp();
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

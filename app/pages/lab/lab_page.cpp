#include "pages/lab/lab_page.h"

#include "app_context.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/lab/lab_editor.h"
#include "pages/lab/lab_recent_files.h"
#include "pages/lab/lab_roofline_view.h"
#include "pages/page_registry.h"
#include "widgets/kernel_views.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <gpulab_lab/templates.hpp>

#include <QComboBox>
#include <QMenu>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

using gpulab::lab::LabReport;
using gpulab::lab::Outcome;
using lab_model::Task;

namespace {

QString taskName(Task t) {
  switch (t) {
    case Task::free: return LabPage::tr("Your own kernel");
    case Task::coalesce: return LabPage::tr("Make step 2 from step 1");
    case Task::add_tiles: return LabPage::tr("Add shared-memory tiles");
    case Task::fix_barrier: return LabPage::tr("Find the bug: a missing barrier");
    case Task::fix_edge: return LabPage::tr("Find the bug: an unguarded edge");
    case Task::beat_step3: return LabPage::tr("Beat step 3's bytes per FLOP");
  }
  return {};
}

QString taskText(Task t) {
  switch (t) {
    case Task::free:
      return LabPage::tr("Write any SGEMM: C = A·B, row-major, any m, n, k. Check runs it on random inputs at awkward "
                         "sizes and traces it beside the ladder.");
    case Task::coalesce:
      return LabPage::tr("This is step 1. Neighbouring threads of a warp take neighbouring rows of C, so their loads "
                         "are k floats apart. Swap one index so they take neighbouring columns: the task is done "
                         "when the trace looks like step 2.");
    case Task::add_tiles:
      return LabPage::tr("This is step 2. Stage tiles of A and B in __shared__ arrays, __syncthreads() before and "
                         "after their use, so each element read from memory serves a whole tile row.");
    case Task::fix_barrier:
      return LabPage::tr("Step 3 with one line missing: it reads its tiles before the whole block has written "
                         "them. Check says where; put the barrier back.");
    case Task::fix_edge:
      return LabPage::tr("Step 2 with its edge check gone: at sizes that are not a multiple of 32 some threads read "
                         "and write outside the matrices. Check says which line; guard it.");
    case Task::beat_step3:
      return LabPage::tr("This is step 3. Change it so that it asks memory for fewer bytes per FLOP than step 3 "
                         "does (more work per loaded element: several outputs per thread, bigger tiles).");
  }
  return {};
}

}  // namespace

LabPage::LabPage(AppContext& ctx) : Page(ctx) {
  m_mailbox = std::make_shared<Mailbox>();
  auto* badge = new SourceBadge(SourceBadge::Kind::Recorded, tr("checked and traced on the CPU emulator"));
  badge->setWordWrap(false);
  addBadge(badge);
  auto* model = new SourceBadge(SourceBadge::Kind::Model, tr("speed: roofline model"));
  model->setWordWrap(false);
  addBadge(model);
  // Shown only beside a timing measured on the GPU (Time on GPU).
  m_gpuBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, QString());
  m_gpuBadge->setWordWrap(false);
  addBadge(m_gpuBadge);
  m_gpuBadge->hide();

  m_editor = new CodeEditor;
  m_editor->setObjectName(QStringLiteral("labEditor"));
  m_editor->setToolTip(tr("Your kernel file: standard CUDA C++ that defines sgemm_student(m, n, k, A, B, C, stream) "
                          "and launches with <<<grid, block, shared, stream>>>. The same file compiles with nvcc. Ctrl+S saves it."));
  m_tabs = new QTabWidget;
  m_tabs->setDocumentMode(true);
  m_check = new QTextBrowser;
  m_check->setOpenLinks(false);
  m_tabs->addTab(m_check, tr("Check"));
  m_tabs->setTabToolTip(0, tr("Right or wrong, and why: the first wrong cells with the thread that wrote them, or the "
                              "line the emulator stopped the kernel at"));
  auto* why = new QWidget;
  auto* wl = new QVBoxLayout(why);
  wl->setContentsMargins(0, 4, 0, 0);
  m_table = new QTableWidget;
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionMode(QAbstractItemView::NoSelection);
  m_table->verticalHeader()->setVisible(false);
  // Eight rows (the ladder and yours) must show whole in a 1024x768 window's tab: compact rows, no scrolling.
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
  m_table->setToolTip(tr("The seven ladder steps and your kernel, traced at the same size: global sectors per load "
                         "request, the share of fetched bytes used, bytes asked of memory per FLOP, how often each "
                         "element staged in shared memory is read, and bank conflicts per shared request"));
  wl->addWidget(m_table, 1);
  m_whyText = new QLabel;
  m_whyText->setWordWrap(true);
  m_whyText->setTextFormat(Qt::RichText);
  wl->addWidget(m_whyText, 0);
  m_tabs->addTab(why, tr("Why"));
  m_tabs->setTabToolTip(1, tr("Your kernel's trace beside the ladder's, the step it is most like and what would move "
                              "it up"));
  m_roofline = new LabRooflineView;
  m_tabs->addTab(m_roofline, tr("Roofline"));
  m_tabs->setTabToolTip(2, tr("A model: the ladder and your kernel under the chosen card's datasheet roofline, placed "
                              "by their traced FLOPs per byte (the emulator measures no speed)"));
  buildDrawings();
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(m_editor);
  split->addWidget(m_tabs);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setVisual(split);

  m_verdict = addResultLabel(3, Qt::RichText);
  m_verdict->setToolTip(tr("The last check of the kernel in the editor"));
  m_closest = addResultLabel(2, Qt::RichText);
  m_closest->setToolTip(tr("The ladder step whose trace is nearest your kernel's"));

  buildControls();
  runBar()->setRunText(tr("Check"));
  runBar()->runButton()->setToolTip(tr("Compile the kernel with clang for the CPU emulator and run it in a separate "
                                       "process: checked at eight awkward sizes, then traced"));
  setTask(Task::free);
}

LabPage::~LabPage() = default;

QString LabPage::takeaway() const {
  return tr("Write your own step of the ladder: the emulator checks it and shows why it is fast or slow.");
}

void LabPage::buildControls() {
  auto* form = new QFormLayout;
  m_task = new QComboBox;
  setControlId(m_task, QStringLiteral("lab.task"));
  for (Task t : lab_model::tasks()) m_task->addItem(taskName(t), static_cast<int>(t));
  m_task->setToolTip(tr("A guided task: opens its starting kernel in the editor; Check says when it is done"));
  form->addRow(tr("Task"), m_task);
  controls()->addLayout(form);
  m_taskText = new QLabel;
  m_taskText->setWordWrap(true);
  controls()->addWidget(m_taskText);
  connect(m_task, &QComboBox::activated, this, [this] { setTask(static_cast<Task>(m_task->currentData().toInt())); });

  m_template = new QComboBox;
  setControlId(m_template, QStringLiteral("lab.template"));
  m_template->addItem(tr("blank launcher"), QStringLiteral("blank"));
  for (const std::string& s : gpulab::emu::traced_ladder_steps())
    m_template->addItem(QString::fromStdString(s), QString::fromStdString(s));
  m_template->setToolTip(tr("A ladder step's own kernel file (made into a lab file) or a blank launcher"));
  auto* load = new QPushButton(tr("Open template"));
  load->setToolTip(tr("Replace the editor's text with the chosen template"));
  connect(load, &QPushButton::clicked, this, [this] {
    const std::string key = m_template->currentData().toString().toStdString();
    m_editor->setPlainText(QString::fromStdString(key == "blank" ? gpulab::lab::blank_launcher()
                                                                 : gpulab::lab::ladder_template(key)));
    m_editor->setMarks({});
    m_path.clear();
  });
  // The chooser on a row of its own: beside its button it had 160 px in projector mode and cut "blank launcher".
  controls()->addWidget(m_template);
  controls()->addWidget(load);

  auto* files = new QHBoxLayout;
  auto* open = new QPushButton(tr("Open…"));
  open->setToolTip(tr("Open a kernel file (.cu) into the editor: one you saved lately, or any other"));
  auto* save = new QPushButton(tr("Save…"));
  save->setToolTip(tr("Save the editor's kernel as a .cu file (it compiles with nvcc as it is); Ctrl+S in the "
                      "editor saves it again"));
  const auto browse = [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a kernel"), m_path, tr("CUDA files (*.cu *.cuh);;All files (*)"));
    if (!path.isEmpty()) openKernel(path);
  };
  // With files saved or opened before: a menu of them, newest first, and the file chooser below them.
  connect(open, &QPushButton::clicked, this, [this, open, browse] {
    const QStringList recent = labRecentFiles();
    if (recent.isEmpty()) return browse();
    QMenu menu(this);
    for (const QString& path : recent)
      menu.addAction(QFileInfo(path).fileName(), this, [this, path] { openKernel(path); })->setToolTip(path);
    menu.setToolTipsVisible(true);
    menu.addSeparator();
    menu.addAction(tr("Other file…"), this, browse);
    menu.exec(open->mapToGlobal(QPoint(0, open->height())));
  });
  const auto saveAs = [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the kernel"), m_path.isEmpty() ? QStringLiteral("my_sgemm.cu") : m_path,
                                                      tr("CUDA files (*.cu)"));
    if (!path.isEmpty()) saveKernel(path);
  };
  connect(save, &QPushButton::clicked, this, saveAs);
  connect(m_editor, &CodeEditor::saveRequested, this, [this, saveAs] {
    if (m_path.isEmpty()) saveAs();
    else saveKernel(m_path);
  });
  files->addWidget(open);
  files->addWidget(save);
  controls()->addLayout(files);

  auto* settings = new QFormLayout;
  m_size = new QSpinBox;
  setControlId(m_size, QStringLiteral("lab.size"));
  m_size->setRange(32, 256);
  m_size->setSingleStep(32);
  m_size->setValue(64);
  m_size->setSuffix(QStringLiteral("³"));
  m_size->setToolTip(tr("The size the kernel and the ladder are traced at (the checks always use their own awkward "
                        "sizes)"));
  settings->addRow(tr("Trace at"), m_size);
  m_card = new QComboBox;
  setControlId(m_card, QStringLiteral("lab.card"));
  for (const gpulab::models::GpuSpec& g : gpulab::models::catalogue())
    if (g.fp32_tflops && g.bandwidth_gbs > 0 && !g.lesson_example)
      m_card->addItem(QString::fromStdString(g.name), QString::fromStdString(g.name));
  const int preferred = m_card->findData(QStringLiteral("RTX 4090"));
  if (preferred >= 0) m_card->setCurrentIndex(preferred);
  m_card->setToolTip(tr("The card whose datasheet roofline the kernel is placed under (a model: the emulator "
                        "measures no speed)"));
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { showWhy(); });
  settings->addRow(tr("Roofline of"), m_card);
  controls()->addLayout(settings);

  m_speedText = new QLabel;
  m_speedText->setWordWrap(true);
  m_speedText->setTextFormat(Qt::RichText);
  controls()->addWidget(m_speedText);
  m_gpuButton = new QPushButton(tr("Time on GPU"));
  m_gpuButton->setObjectName(QStringLiteral("labTimeOnGpu"));
  connect(m_gpuButton, &QPushButton::clicked, this, &LabPage::timeOnGpu);
  controls()->addWidget(m_gpuButton);
  m_gpuResult = new QLabel;
  m_gpuResult->setObjectName(QStringLiteral("labGpuResult"));
  m_gpuResult->setWordWrap(true);
  m_gpuResult->setTextFormat(Qt::RichText);
  m_gpuResult->setToolTip(tr("The last timing on the GPU: the file compiled with nvcc, checked against cuBLAS SGEMM, "
                             "then both timed warm with CUDA events until successive samples agree (medians)"));
  controls()->addWidget(m_gpuResult);
  m_gpuResult->hide();
  updateGpuAvailability();
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] { updateGpuAvailability(); });
  // A timing belongs to the text it timed: once the file is edited the result says so.
  connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
    if (!m_gpuReport) return;
    const bool stale = m_editor->toPlainText().toStdString() != m_gpuSource;
    if (stale != m_gpuStale) showGpu();
  });
  controls()->addStretch(1);
}

void LabPage::setTask(Task task) {
  m_currentTask = task;
  const int index = m_task->findData(static_cast<int>(task));
  if (index >= 0) m_task->setCurrentIndex(index);
  m_taskText->setText(taskText(task));
  m_editor->setPlainText(QString::fromStdString(lab_model::task_source(task)));
  m_editor->setMarks({});
  m_path.clear();
  m_report.reset();
  m_taskResult = {};
  takeTrace();
  showReport();
}

bool LabPage::openKernel(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    runBar()->showError(tr("Cannot open %1").arg(path));
    return false;
  }
  m_editor->setPlainText(QString::fromUtf8(f.readAll()));
  m_editor->setMarks({});
  m_path = path;
  rememberLabFile(path);
  runBar()->showStatus(tr("Opened %1").arg(QFileInfo(path).fileName()));
  return true;
}

bool LabPage::saveKernel(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(m_editor->toPlainText().toUtf8()) < 0) {
    runBar()->showError(tr("Cannot write %1").arg(path));
    return false;
  }
  m_path = path;
  rememberLabFile(path);
  runBar()->showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()));
  return true;
}

namespace {
// The first clause of a long reason ("this gpulab has no CUDA module (… paths …)"), as AppContext::gpuReasonShort.
QString firstClause(QString r) {
  for (const QString& cut : {QStringLiteral(" ("), QStringLiteral("; "), QStringLiteral(": /")}) {
    const int at = r.indexOf(cut);
    if (at > 20) r.truncate(at);
  }
  return r;
}
}  // namespace

void LabPage::updateGpuAvailability() {
  const QString nvcc = QString::fromStdString(gpulab::lab::find_nvcc());
  const QString nvccWords = nvcc.isEmpty() ? tr("nvcc was not found (%1)").arg(QString::fromStdString(gpulab::lab::nvcc_install_hint()))
                                           : tr("nvcc: %1").arg(nvcc);
  const QString model = tr("<b>Speed.</b> The CPU emulator counts every access exactly but measures no time: its "
                           "speed is a model, from the traced bytes and FLOPs under the chosen card's datasheet "
                           "roofline.");
  gpulab::Backend* cuda = m_ctx.cudaBackend();
  if (!cuda) {
    m_gpuButton->setEnabled(false);
    m_gpuButton->setToolTip(tr("Timing needs an NVIDIA GPU with CUDA, and this app has none: %1. %2.")
                                .arg(m_ctx.cudaReason().isEmpty() ? tr("no CUDA device") : m_ctx.cudaReason(), nvccWords));
    m_speedText->setText(model + QStringLiteral(" ") +
                         tr("No CUDA GPU here (%1): nothing on this page is timed.")
                             .arg((m_ctx.cudaReason().isEmpty() ? tr("no CUDA device") : firstClause(m_ctx.cudaReason())).toHtmlEscaped()));
    return;
  }
  const QString device = QString::fromStdString(cuda->device_info().name);
  if (nvcc.isEmpty()) {
    m_gpuButton->setEnabled(false);
    m_gpuButton->setToolTip(tr("The app has a CUDA GPU (%1), but %2.").arg(device, nvccWords));
    m_speedText->setText(model + QStringLiteral(" ") +
                         tr("Timing it on the %1 needs the CUDA toolkit's nvcc, which was not found.").arg(device.toHtmlEscaped()));
    return;
  }
  m_gpuButton->setEnabled(true);
  m_gpuButton->setToolTip(tr("Compile this file with nvcc (%1) and run it on the %2 in a separate process: checked "
                             "against cuBLAS SGEMM at 4096³ (smaller when one run would take over 0.5 s), then both "
                             "timed warm with CUDA events until successive samples agree. nvcc takes about half a "
                             "minute.").arg(nvcc, device));
  m_speedText->setText(model + QStringLiteral(" ") +
                       tr("<b>Time on GPU</b> compiles the same file with nvcc and measures it on the %1 beside cuBLAS.")
                           .arg(device.toHtmlEscaped()));
}

void LabPage::timeOnGpu() {
  if (!m_gpuButton->isEnabled()) return;
  gpulab::lab::GpuTimingRequest request;
  request.source = m_editor->toPlainText().toStdString();
  request.display_path = m_path.isEmpty() ? std::string("your_kernel.cu") : QFileInfo(m_path).fileName().toStdString();
  if (gpulab::Backend* cuda = m_ctx.cudaBackend()) request.compute_capability_hint = cuda->device_info().compute_capability;
  auto box = std::make_shared<Mailbox>();
  const bool started = startJob(tr("Timing your kernel on the GPU"), [box, request](const gpulab::RunContext& ctx) {
    gpulab::lab::GpuTimingReport report = gpulab::lab::time_on_gpu(
        request, [&ctx](const gpulab::lab::LabProgress& p) { ctx.report(p.fraction, p.what); },
        [&ctx] { return ctx.cancelled(); });
    const std::lock_guard lock(box->mutex);
    box->gpu = std::move(report);
    box->gpu_source = request.source;
  });
  if (started) m_mailbox = box;  // else the running job keeps its own
}

void LabPage::showGpuReport(gpulab::lab::GpuTimingReport report, const std::string& source) {
  m_gpuReport = std::move(report);
  m_gpuSource = source;
  showGpu();
}

void LabPage::run() {
  gpulab::lab::LabRequest request;
  request.source = m_editor->toPlainText().toStdString();
  request.display_path = m_path.isEmpty() ? std::string("your_kernel.cu") : QFileInfo(m_path).fileName().toStdString();
  const int n = m_size->value();
  request.trace_shape = {n, n, n};
  m_mailbox = std::make_shared<Mailbox>();
  auto box = m_mailbox;
  startJob(tr("Checking your kernel"), [box, request](const gpulab::RunContext& ctx) {
    LabReport report = gpulab::lab::run_lab(
        request, [&ctx](const gpulab::lab::LabProgress& p) { ctx.report(p.fraction, p.what); },
        [&ctx] { return ctx.cancelled(); });
    std::vector<gpulab::emu::StepTrace> ladder;
    if (report.trace) ladder = gpulab::lab::ladder_at(request.trace_shape);
    const std::lock_guard lock(box->mutex);
    box->report = std::move(report);
    box->ladder = std::move(ladder);
  });
}

void LabPage::onRunFinished(bool cancelled) {
  bool fresh = false;
  {
    const std::lock_guard lock(m_mailbox->mutex);
    if (m_mailbox->gpu) {  // Time on GPU finished: the emulator's report stays as it was
      m_gpuReport = std::move(m_mailbox->gpu);
      m_gpuSource = std::move(m_mailbox->gpu_source);
      m_mailbox->gpu.reset();
      showGpu();
      return;
    }
    if (m_mailbox->report) {
      m_report = std::move(m_mailbox->report);
      m_ladder = std::move(m_mailbox->ladder);
      m_mailbox->report.reset();
      fresh = true;
    }
  }
  if (cancelled && !m_report) return;
  if (fresh) takeTrace();
  m_taskResult = m_report ? lab_model::judge(m_currentTask, *m_report, m_ladder) : lab_model::TaskResult{};
  QMap<int, QString> marks;
  if (m_report) {
    for (const gpulab::lab::Diagnostic& d : m_report->diagnostics)
      if (d.line > 0 && d.error) marks.insert(d.line, QString::fromStdString(d.message));
    if (m_report->line > 0 && !marks.contains(m_report->line))
      marks.insert(m_report->line, QString::fromStdString(m_report->reason));
  }
  m_editor->setMarks(marks);
  showReport();
  if (m_report && m_report->outcome == Outcome::compile_error) m_tabs->setCurrentIndex(0);
}

void LabPage::showReport() {
  m_check->setHtml(checkHtml());
  showWhy();
  showTask();
  showDrawings();
}

void LabPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_dark = theme.dark;
  m_editor->setDark(theme.dark);
  m_owners->setTheme(theme);
  m_warpLoad->setTheme(theme);
  QFont mono = m_editor->font();
  mono.setPointSize(theme.baseFontPt);
  m_editor->setFont(mono);
  showReport();
}

GPULAB_REGISTER_PAGE(26, LabPage);

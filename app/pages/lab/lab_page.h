#pragma once
// Your own kernel (after "Inside the kernel"): the student writes a CUDA SGEMM in an editor — from a blank launcher,
// a ladder step's own file or a guided task — and Check compiles it with clang for the CPU emulator, runs it in a
// child process (a crash or an endless loop ends that process, never the app), checks it on random inputs at
// awkward shapes and traces it beside the seven ladder steps: the step it is most like and the change that would
// move it up. The emulator measures no speed; the kernel's place under a card's roofline is a model. Its trace is
// drawn with the "Inside the kernel" page's own views (widgets/kernel_views.h): who computes each cell of C, and
// warp 0's first load of A and of B with the sectors it cost. With an NVIDIA GPU, Time on GPU compiles the same file
// with the toolkit's nvcc and times it beside cuBLAS in another child process (gpulab_lab/gpu_timing.hpp).
#include "pages/lab/model/lab_model.h"
#include "pages/page.h"

#include <gpulab_lab/gpu_timing.hpp>
#include <gpulab_lab/lab.hpp>

#include <memory>
#include <mutex>
#include <optional>

class CodeEditor;
class LabRooflineView;
class OwnerView;
class WarpLoadView;
class QComboBox;
class QLabel;
class QPushButton;
class SourceBadge;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

class LabPage : public Page {
  Q_OBJECT
 public:
  explicit LabPage(AppContext& ctx);
  ~LabPage() override;

  QString pageId() const override { return QStringLiteral("lab"); }
  QString title() const override { return tr("Your own kernel"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  void applyTheme(const Theme& theme) override;
  bool canRun() const override { return true; }
  void run() override;

  CodeEditor* editor() const { return m_editor; }
  // The last finished check (tests read it).
  const std::optional<gpulab::lab::LabReport>& report() const { return m_report; }
  lab_model::TaskResult taskResult() const { return m_taskResult; }
  void setTask(lab_model::Task task);
  QString whyCsv() const;
  // The Threads and One warp tabs: the checked kernel's trace in the views of "Inside the kernel".
  OwnerView* ownerView() const { return m_owners; }
  WarpLoadView* warpLoadView() const { return m_warpLoad; }
  QString threadsText() const;
  void setWarpArray(const QString& array);  // "A" or "B": whose first load of warp 0 the One warp tab draws
  QTabWidget* views() const { return m_tabs; }
  // Loads or writes a kernel file; false (and a status message) when it cannot.
  bool openKernel(const QString& path);
  bool saveKernel(const QString& path);
  // Time on GPU: enabled only when the app has a CUDA GPU and nvcc was found (its tooltip says which is missing).
  QPushButton* gpuButton() const { return m_gpuButton; }
  void timeOnGpu();
  // The last GPU timing (tests read it), what the page makes of it, and its words.
  const std::optional<gpulab::lab::GpuTimingReport>& gpuReport() const { return m_gpuReport; }
  lab_model::GpuSpeed gpuSpeed() const;
  QString gpuText() const;
  // Shows a GPU timing as if it had just finished for `source` (tests: a timed report without a GPU).
  void showGpuReport(gpulab::lab::GpuTimingReport report, const std::string& source);

 protected:
  void onRunFinished(bool cancelled) override;

 private:
  struct Mailbox {
    std::mutex mutex;
    std::optional<gpulab::lab::LabReport> report;
    std::vector<gpulab::emu::StepTrace> ladder;
    std::optional<gpulab::lab::GpuTimingReport> gpu;  // Time on GPU's report
    std::string gpu_source;                           // the text it timed
  };
  void buildControls();
  void showReport();
  void showWhy();
  void showRoofline();  // the Roofline tab, for the report and the chosen card
  void showTask();
  void buildDrawings();  // the Threads and One warp tabs (lab_page_drawings.cpp)
  void takeTrace();      // gives the views the report's trace (or none): when a report arrives or is cleared
  void showDrawings();   // their words and warp 0's load, for the trace they hold
  void showWarpLoad();
  void updateGpuAvailability();  // the button's state and tooltip, the Speed paragraph
  void showGpu();                // the GPU timing's words and badge (lab_page_views.cpp)
  QString checkHtml() const;
  QString whyText() const;

  CodeEditor* m_editor = nullptr;
  QTabWidget* m_tabs = nullptr;
  QTextBrowser* m_check = nullptr;
  QTableWidget* m_table = nullptr;
  QLabel* m_whyText = nullptr;
  LabRooflineView* m_roofline = nullptr;  // the Roofline tab: the kernels under the chosen card's roofline (a model)
  OwnerView* m_owners = nullptr;          // Threads: C coloured by the block and warp that computed each cell
  QLabel* m_threadsText = nullptr;        // what warp 0 of block 0 covers, in words
  WarpLoadView* m_warpLoad = nullptr;     // One warp: warp 0's first load of A or B, its lanes and sectors
  QComboBox* m_warpArray = nullptr;
  // The report's trace as the views hold it (named "your kernel"); null until a check has traced the kernel.
  std::shared_ptr<const gpulab::emu::StepTrace> m_drawn;
  QComboBox* m_task = nullptr;
  QLabel* m_taskText = nullptr;
  QComboBox* m_template = nullptr;
  QSpinBox* m_size = nullptr;
  QComboBox* m_card = nullptr;
  QLabel* m_verdict = nullptr;
  QLabel* m_closest = nullptr;
  QLabel* m_speedText = nullptr;     // Speed: what is a model here and what can be measured
  QPushButton* m_gpuButton = nullptr;
  QLabel* m_gpuResult = nullptr;     // the GPU timing, measured, or why there is none
  SourceBadge* m_gpuBadge = nullptr; // "measured here: <device>", shown only beside a measured timing
  std::optional<gpulab::lab::GpuTimingReport> m_gpuReport;
  std::string m_gpuSource;  // the text m_gpuReport timed
  bool m_gpuStale = false;  // the editor no longer holds it
  QString m_path;  // the kernel's file, empty until saved or opened
  std::shared_ptr<Mailbox> m_mailbox;
  std::optional<gpulab::lab::LabReport> m_report;
  std::vector<gpulab::emu::StepTrace> m_ladder;
  lab_model::Task m_currentTask = lab_model::Task::free;
  lab_model::TaskResult m_taskResult;
  bool m_dark = false;
};

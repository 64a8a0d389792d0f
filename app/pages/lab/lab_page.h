#pragma once
// Your own kernel (after "Inside the kernel"): the student writes a CUDA SGEMM in an editor — from a blank launcher,
// a ladder step's own file or a guided task — and Check compiles it with clang for the CPU emulator, runs it in a
// child process (a crash or an endless loop ends that process, never the app), checks it on random inputs at
// awkward shapes and traces it beside the seven ladder steps: the step it is most like and the change that would
// move it up. The emulator measures no speed; the kernel's place under a card's roofline is a model.
#include "pages/lab/model/lab_model.h"
#include "pages/page.h"

#include <gpulab_lab/lab.hpp>

#include <memory>
#include <mutex>
#include <optional>

class CodeEditor;
class LabRooflineView;
class QComboBox;
class QLabel;
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
  // Loads or writes a kernel file; false (and a status message) when it cannot.
  bool openKernel(const QString& path);
  bool saveKernel(const QString& path);

 protected:
  void onRunFinished(bool cancelled) override;

 private:
  struct Mailbox {
    std::mutex mutex;
    std::optional<gpulab::lab::LabReport> report;
    std::vector<gpulab::emu::StepTrace> ladder;
  };
  void buildControls();
  void showReport();
  void showWhy();
  void showRoofline();  // the Roofline tab, for the report and the chosen card
  void showTask();
  QString checkHtml() const;
  QString whyText() const;

  CodeEditor* m_editor = nullptr;
  QTabWidget* m_tabs = nullptr;
  QTextBrowser* m_check = nullptr;
  QTableWidget* m_table = nullptr;
  QLabel* m_whyText = nullptr;
  LabRooflineView* m_roofline = nullptr;  // the Roofline tab: the kernels under the chosen card's roofline (a model)
  QComboBox* m_task = nullptr;
  QLabel* m_taskText = nullptr;
  QComboBox* m_template = nullptr;
  QSpinBox* m_size = nullptr;
  QComboBox* m_card = nullptr;
  QLabel* m_verdict = nullptr;
  QLabel* m_closest = nullptr;
  QString m_path;  // the kernel's file, empty until saved or opened
  std::shared_ptr<Mailbox> m_mailbox;
  std::optional<gpulab::lab::LabReport> m_report;
  std::vector<gpulab::emu::StepTrace> m_ladder;
  lab_model::Task m_currentTask = lab_model::Task::free;
  lab_model::TaskResult m_taskResult;
  bool m_dark = false;
};

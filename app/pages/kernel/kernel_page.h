#pragma once
// "Inside the kernel", after "Matrix multiply": the module's own SGEMM ladder kernels (gpu/cuda/kernels/0*.cu) run
// on the CPU emulator with every memory access traced (gpu/cuda_emu, kernel_trace.hpp), on the worker thread, each
// checked against FP64 dot products. Views: who computes what (C by block and warp), one warp's load (its lanes'
// elements and the 32-byte sectors or banks they needed), shared memory (reuse, bank conflicts), what it adds up to
// (bytes per FLOP per step, each step's intensity on a catalogue card's datasheet roofline), the per-step table, and
// block 0's k-loop animated. Counts are exact for the emulated run; no time is shown (the emulator's are not a GPU's).
#include "pages/kernel/model/kernel_view_model.h"
#include "pages/page.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <mutex>
#include <vector>

class FrameCoalescer;
class OwnerView;
class PlotObjectPool;
class FittingColumns;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTimer;
class RooflinePlot;
class SourceBadge;
class TimelineView;
class WarpLoadView;

class KernelPage : public Page {
  Q_OBJECT
 public:
  explicit KernelPage(AppContext& ctx);
  ~KernelPage() override;

  QString pageId() const override { return QStringLiteral("kernel"); }
  QString title() const override { return tr("Inside the kernel"); }
  QString takeaway() const override {
    return tr("Seven kernels, one product: from step 1 to step 7 the bytes fetched per FLOP fall a hundredfold — "
              "that is why the later kernels are faster.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return gpulab::emu::kernel_tracing_available(); }
  // Trace: the chosen step (and, ticked, all seven) at the chosen shape. Pressed while the page's own trace runs,
  // that one gives way and this one starts when it has stopped.
  void run() override;
  // The trace the page starts by itself, without a button: when it is shown with steps missing at the traced shape
  // (none traced yet: all seven at the chosen shape) and the runner is free. Deterministic and about a second at
  // 128³, so a class never sees empty views and an export has the pictures to write.
  bool isTracingByItself() const { return m_tracingByItself && isRunning(); }
  void applyTheme(const Theme& theme) override;

  // For tests and scripts.
  void setShape(int m, int n, int k);
  void setStep(const QString& step);  // "03_shared_tiles"
  void setTraceAll(bool all);
  QString currentStep() const;
  std::shared_ptr<const gpulab::emu::StepTrace> trace(const QString& step) const { return m_traces.value(step); }
  int tracedStepCount() const { return int(m_traces.size()); }
  QTableWidget* table() const { return m_table; }
  OwnerView* ownerView() const { return m_ownerView; }
  WarpLoadView* warpLoadView() const { return m_warpView; }
  TimelineView* timelineView() const { return m_timeline; }
  QTabWidget* views() const { return m_tabs; }
  QString checkText() const;
  std::vector<gpulab::kernelview::StepRow> stepRows() const;
  // A ladder step as a GPU recording measured it (the module's variant of the same kernel, FP32, the largest size).
  struct RecordedStep {
    double flops = 0;
    QString size;    // "4096³"
    QString source;  // "recorded on NVIDIA H200, 2026-12-02"
    QString device;
  };
  std::optional<RecordedStep> recordedSpeed(const std::string& step) const;
  void setCard(const QString& name);
  void setInstruction(int instruction);  // index into the step's StepTrace::instructions
  void setWarp(int warp);

 protected:
  void onRunFinished(bool cancelled) override;
  void shownAtItsSize() override;
  void hideEvent(QHideEvent* e) override;  // the page's own trace stops when it is left (kept: the steps done)

 private:
  struct Mailbox {
    std::mutex mutex;
    std::vector<std::shared_ptr<const gpulab::emu::StepTrace>> done;
  };
  void buildControls();
  void buildViews();
  bool startTrace(const QStringList& steps, gpulab::emu::TraceShape shape, bool byItself);
  void traceWhatIsMissing();
  void drainMailbox();
  void refreshAll();
  void refreshStep();       // the selected step's pictures
  void refreshWarp();       // one warp's load
  void refreshInstructionChoices();
  void refreshShared();
  void refreshTotals();     // bytes per FLOP, roofline, table
  QWidget* buildTableTab();  // the per-step table and its note (kernel_page_table.cpp)
  void refreshTable();
  void refreshStrip();
  QString tableCsv() const;
  QString sharedCsv() const;
  QString ownerCsv() const;
  QString warpCsv() const;
  QString timelineCsv() const;
  std::shared_ptr<const gpulab::emu::StepTrace> selectedTrace() const;
  QString unavailableReason() const;

  QTabWidget* m_tabs = nullptr;
  OwnerView* m_ownerView = nullptr;
  WarpLoadView* m_warpView = nullptr;
  QComboBox* m_instruction = nullptr;
  QSpinBox* m_warp = nullptr;
  QCustomPlot* m_reusePlot = nullptr;
  QCustomPlot* m_conflictPlot = nullptr;
  QLabel* m_sharedText = nullptr;
  QCustomPlot* m_bytesPlot = nullptr;
  RooflinePlot* m_roofline = nullptr;
  QComboBox* m_card = nullptr;
  QLabel* m_rooflineNote = nullptr;
  QLabel* m_tableNote = nullptr;
  SourceBadge* m_traceBadge = nullptr;
  QTableWidget* m_table = nullptr;
  FittingColumns* m_tableColumns = nullptr;  // leaves out the least needed columns when the table is narrow
  TimelineView* m_timeline = nullptr;
  QPushButton* m_play = nullptr;
  QSlider* m_speed = nullptr;
  QSlider* m_scrub = nullptr;

  QComboBox* m_step = nullptr;
  QSpinBox* m_spinM = nullptr;
  QSpinBox* m_spinN = nullptr;
  QSpinBox* m_spinK = nullptr;
  QCheckBox* m_all = nullptr;
  QLabel* m_stepInfo = nullptr;
  QLabel* m_check = nullptr;
  QLabel* m_summary = nullptr;
  // Traces arriving during a run are drawn once a frame, however many arrived in it.
  FrameCoalescer* m_redraw = nullptr;
  // The charts' bars and labels, kept between redraws (a new trace moves their data; widgets/plot_object_pool.h).
  std::unique_ptr<PlotObjectPool> m_reusePool, m_conflictPool, m_bytesPool;

  std::shared_ptr<Mailbox> m_mailbox;
  QHash<QString, std::shared_ptr<const gpulab::emu::StepTrace>> m_traces;  // by step, all at one shape
  gpulab::emu::TraceShape m_tracedShape{0, 0, 0};
  QString m_shownStep;  // the step the step-specific views show now
  bool m_tracingByItself = false;  // the running trace was started by the page, not by Trace or Space
  bool m_traceWhenFree = false;    // Trace was pressed while the page's own trace ran: start it when that ends
};

#pragma once
// Page 9: Amdahl's law. The model curve with its 1/s ceiling, a measured thread-scaling run with a real
// serial part laid over it, the GPU's serial part (kernel launch overhead), and the lesson's data-loading
// example (half the time loading, a GPU twice as fast: 1.33× overall) as a before/after stacked bar.
//
// The page's four parts: the plan (gpulab::amdahl_plan, page_plans.cpp), the model (models/amdahl_page_model), the
// view (this file, amdahl_page_views.cpp) and the lesson (amdahl_lesson.cpp).
#include "plans/amdahl.hpp"
#include "pages/amdahl/model/amdahl_page_model.h"
#include "models/busy_machine.h"
#include "models/guarded_conclusions.h"
#include "pages/page.h"
#include "widgets/recorded_badges.h"

#include <QList>
#include <QStringList>
#include <QVector>

#include <vector>

class QBoxLayout;
class QCPBars;
class QCPErrorBars;
class QCPGraph;
class QCPItemText;
class QCPItemTracer;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;
class SourceBadge;
class StackedOrTabbed;

class AmdahlPage : public Page {
  Q_OBJECT
 public:
  explicit AmdahlPage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("amdahl"); }
  QString title() const override { return tr("Amdahl's law"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  // The page's controls as the plan builder takes them; a fresh page's are AmdahlControls{} (bench --suite amdahl).
  gpulab::AmdahlControls runControls() const;
  gpulab::Plan plan();
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  // Controls, for presets and tests: each snaps to the nearest slider step.
  void setSerialShare(double share);
  void setWorkers(int workers);
  void setLoading(double loadingShare, double gpuFactor);
  void setMaxThreads(int threads);
  double serialShare() const;
  int workers() const;
  double loadingShare() const;
  double gpuFactor() const;
  QString readoutText() const;
  QString loadingText() const;
  QString measuredText() const;
  // The latest measured run, one entry per thread count: (threads, speed-up).
  QVector<QPointF> measuredPoints() const;
  // Marks on the big workers plot (only runs at the slider's serial share are drawn there).
  int mainPlotMarkCount() const;
  // The law above the measured run and the loading bars, or (too little height for all three) behind tabs.
  StackedOrTabbed* views() const { return m_visual; }
  QSlider* serialSlider() const { return m_serialSlider; }
  QSlider* workersSlider() const { return m_workersSlider; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void onResult(const gpulab::Result& result) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  // The page's three plots, and the strip's readouts: a slider's value sets them once a frame in replot(), not once
  // a value (each new text asks for a layout pass of the page).
  enum Part : unsigned { Law = 1, Scaling = 2, Loading = 4, Readouts = 8, All = 15 };
  void scheduleReplot(unsigned parts = All);
  void replot();
  void updateReadouts();
  void updateGpuNote();

  void fitPlotSizes(const Theme& theme);
  // The two small plots side by side while each is wide enough for its widest key, else one above the other where
  // the views have the height; each as tall as its keys (at the rows its width allows), its axes and a readable
  // data area, or as tall as there is room for.
  void fitLowerPane();
  // One graph per recording on `plot`, made afresh (the old ones removed): named and styled for its recording.
  void remakeRecordedGraphs(QCustomPlot* plot, QList<QCPGraph*>& graphs);
  QString recordedRunText() const;
  // The readouts of the values set so far, for a reader that cannot wait for the frame (a test).
  void flushPendingReplot() const;
  // The data-loading bars and their total, made once (a value moves them; it never remakes them).
  void makeLoadingBars();

  StackedOrTabbed* m_visual = nullptr;
  QWidget* m_lowerPane = nullptr;      // the two small plots, side by side or one above the other
  QBoxLayout* m_lowerLayout = nullptr;
  QCustomPlot* m_plot = nullptr;       // speed-up against workers, log-log
  QCustomPlot* m_scalePlot = nullptr;  // the measured run close up: linear threads axis
  QCustomPlot* m_barPlot = nullptr;    // data loading: before / after stacked time
  QCPGraph* m_curve = nullptr;
  QCPGraph* m_ideal = nullptr;
  QCPGraph* m_limit = nullptr;
  QCPGraph* m_measuredBig = nullptr;
  QCPGraph* m_runModel = nullptr;
  QCPGraph* m_runMeasured = nullptr;
  QCPGraph* m_runIdeal = nullptr;
  QList<QCPGraph*> m_recordedBig;  // one per recording, made on each redraw (two recordings: two sources)
  QList<QCPGraph*> m_runRecorded;
  unsigned m_recordedStale = Law | Scaling;  // plots whose recorded graphs must be made again (recordings, theme)
  QCPBars* m_loadBars = nullptr;
  QCPBars* m_gpuBars = nullptr;
  QCPItemText* m_barTotal = nullptr;
  QCPItemTracer* m_tracer = nullptr;
  QCPItemText* m_tracerText = nullptr;
  QCPItemText* m_limitText = nullptr;
  QCPItemText* m_scaleNote = nullptr;
  QString m_scaleYTitle;  // the close-up's y title, left off where the plot is too short for it

  QSlider* m_serialSlider = nullptr;
  QSlider* m_workersSlider = nullptr;
  QSlider* m_loadSlider = nullptr;
  QSlider* m_factorSlider = nullptr;
  QLabel* m_serialValue = nullptr;
  QLabel* m_workersValue = nullptr;
  QLabel* m_loadValue = nullptr;
  QLabel* m_factorValue = nullptr;
  QSpinBox* m_maxThreads = nullptr;
  QLabel* m_gpuNote = nullptr;

  QLabel* m_readout = nullptr;
  QLabel* m_measuredLabel = nullptr;
  QLabel* m_loadingLabel = nullptr;
  SourceBadge* m_measuredBadge = nullptr;
  SourceBadge* m_modelBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn

  QTimer* m_replot = nullptr;
  unsigned m_dirty = All;  // the plots the next replot() redraws
  int m_barAreaPx = 0;     // the loading bars' data-area width their x range was fitted to
  QVector<double> m_serialSteps;   // slider index -> serial share (fine near 0)
  QVector<double> m_workerSteps;   // slider index -> workers (log-ish, with 8 and 4,096 exact)
  QVector<double> m_factorSteps;   // slider index -> GPU speed-up factor

  using Point = amdahl_page_model::Point;
  std::vector<Point> m_measured;   // the latest run here
  std::vector<amdahl_page_model::RecordedRun> m_recorded;  // one run per opened recording, in source order
  QStringList m_recordedLabels;                            // each one's "recorded on <device>, <date>"
  double m_runShare = -1;      // serial share of the latest run (measured), -1 = none yet
  double m_launchPerKernel = 0;  // seconds; 0 = not measured
  QString m_launchSource;        // "measured here" / recording label
  bool m_launchHere = false;     // the launch cost shown was measured here (a recording's never replaces it)
  QCPErrorBars* m_runSpread = nullptr;  // the measured marks' min–max speed-up, close-up and big plot
  QCPErrorBars* m_bigSpread = nullptr;
  gpulab::models::BusyWatch m_busy;  // was the CPU busy while the last run timed things?
};

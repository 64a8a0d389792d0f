#pragma once
// Page 3, "Batch-size sweep": Y = X·W for B = 1, 2, 4 … 1024 rows of X against one d_in × d_out weight matrix.
// Each size is measured for real (time, FLOP/s, bytes by the lesson's count, FLOPs per byte, GB/s), plotted as
// it arrives and placed on a small roofline; the memory-bound → compute-bound crossover is found from the
// points and set beside the model's ridge point (peak ÷ bandwidth, the bandwidth measured in the same sweep).
//
// The page's four parts: the plan (gpulab::batch_plan, page_plans.cpp), the model (models/batch_model), the view
// (this file, batch_page_views.cpp) and the lesson (batch_lesson.cpp).
#include "plans/batch.hpp"
#include "gpulab/precision.hpp"
#include "pages/batch/model/batch_model.h"
#include "models/busy_machine.h"
#include "pages/page.h"
#include "widgets/recorded_badges.h"
#include "widgets/roofline_plot.h"

#include <QVector>

class QComboBox;
class QCPGraph;
class QLabel;
class QLineEdit;
class QSlider;
class QTableWidget;
class FrameCoalescer;
class QCPErrorBars;
class QCPItemStraightLine;
class QCPItemText;
class FittingColumns;
class QTimer;
class StackedOrTabbed;

class BatchPage : public Page {
  Q_OBJECT
 public:
  explicit BatchPage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("batch"); }
  QString title() const override { return tr("Batch size: memory-bound to compute-bound"); }
  QString takeaway() const override {
    return tr("Every row of the batch reuses the same weights: FLOPs per byte, and speed, climb with B until the "
              "compute roof.");
  }
  LessonContent lesson() const override;
  // "Will a batch-1 decoder see the 1,979 headline?": which figure that is, with the dense one from the catalogue.
  static QString headlineAnswer();
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  // The page's controls as the plan builder takes them; a fresh page's are BatchControls{} (bench --suite batch).
  gpulab::BatchControls runControls() const;
  gpulab::Plan plan();
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  using SweepPoint = batch_model::SweepPoint;

  // For tests and the exercises.
  void setDims(int dIn, int dOut);
  void setMaxBatch(int maxBatch);            // rounded down to a power of two, 1 … 1024
  void setBatchList(const QString& text);    // "1, 3, 8, 100"; empty = powers of two up to the maximum
  void setPrecision(gpulab::Precision p);    // ignored when the backend does not support it
  gpulab::Precision precision() const;
  int dIn() const;
  int dOut() const;
  QVector<long long> batches() const;
  const std::vector<SweepPoint>& sweep() const { return m_state.points; }
  bool crossoverFound() const { return m_crossFound; }
  long long crossoverBatch() const { return m_crossBatch; }
  QString crossoverText() const;
  double bandwidth() const { return m_bandwidth; }  // bytes/s, measured in the sweep (0 before)
  double peakFlops() const;                          // the model's compute roof for the chosen precision
  QString peakShareText(double gflops) const;        // "41 %" of the sweep's measured peak, "–" when none was
  double modelRidge() const;                         // FLOPs per byte; 0 without a bandwidth
  double modelCrossoverBatch() const;                // where I(B) reaches the ridge; 0 = never / unknown
  RooflinePlot* roofline() const { return m_roof; }
  QCustomPlot* sweepPlot() const { return m_plot; }
  // The sweep and its roofline side by side or (too narrow for both) behind tabs.
  StackedOrTabbed* views() const { return m_visual; }

 protected:
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  void refillDevices();  // the device box: the CPU, and the GPU slot's device named by device_words
  bool gpuChosen() const;  // the device box is on the GPU slot's device (CUDA or Vulkan, whatever it is)
  batch_model::SweepSetup controlsSetup() const;  // what the controls are set to
  batch_model::SweepSetup shownSetup() const { return m_state.shown(controlsSetup()); }
  gpulab::Backend& backend();
  void refillPrecisions();
  void updateLabels();      // the slider values' texts, then a redraw
  void setValueTexts();     // the slider values' texts alone
  void scheduleReplot();
  // The frame's work, once a frame however many values or results arrived: new table rows, value texts, redraw.
  void applyFrame();
  void replot();
  // The table rows and the strip's last-point sentence of the points that arrived since the last frame.
  void appendPendingRows();
  void findCrossover();
  // A recorded sweep on the small roofline: its points (hollow) and its recording's memory roof (the sweep's triad),
  // with the device's FMA peak where the recording has one; a sweep without a triad is named in `withoutTriad`.
  void addRecordedToRoofline(const batch_model::RecordedSweep& rs, const QString& name, const QString& source,
                             QVector<RooflinePlot::Point>& points, QVector<RooflinePlot::Roof>& roofs,
                             QStringList& withoutTriad) const;

  StackedOrTabbed* m_visual = nullptr;
  QCustomPlot* m_plot = nullptr;
  RooflinePlot* m_roof = nullptr;
  QTableWidget* m_table = nullptr;
  FittingColumns* m_tableColumns = nullptr;
  QComboBox* m_backend = nullptr;
  QComboBox* m_precision = nullptr;
  QComboBox* m_budget = nullptr;
  QSlider* m_dIn = nullptr;
  QSlider* m_dOut = nullptr;
  QSlider* m_maxB = nullptr;
  QLabel* m_dInLabel = nullptr;
  QLabel* m_dOutLabel = nullptr;
  QLabel* m_maxBLabel = nullptr;
  QLineEdit* m_list = nullptr;
  QLabel* m_modelLabel = nullptr;
  QLabel* m_crossLabel = nullptr;
  QLabel* m_lastLabel = nullptr;
  SourceBadge* m_badge = nullptr;
  SourceBadge* m_modelBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn
  FrameCoalescer* m_frame = nullptr;  // null while the constructor builds the controls
  bool m_valueTextsStale = false;     // a slider moved: its value text is set in the frame
  int m_rowsShown = 0;                // points of the sweep already in the table
  // The sweep plot's objects, kept between redraws: a redraw updates their data and positions and makes or
  // removes objects only where the picture gains or loses one (a bandwidth, a crossover, a recording).
  QCPErrorBars* m_spread = nullptr;
  QCPItemStraightLine* m_modelLine = nullptr;
  QCPItemStraightLine* m_crossLine = nullptr;
  QCPItemText* m_crossText = nullptr;
  QCPItemText* m_ridgeText = nullptr;
  QCPItemText* m_hint = nullptr;

  batch_model::SweepState m_state;  // the sweep shown and the set-up it ran with (the model owns it)
  double m_bandwidth = 0;
  bool m_crossFound = false;
  long long m_crossBatch = 0;
  double m_crossIntensity = 0, m_crossFlops = 0;
  QString m_crossReason;
  gpulab::models::BusyWatch m_busy;  // was the CPU busy while the last run timed things?
};

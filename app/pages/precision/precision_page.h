#pragma once
// Page 4, "Precision": FP64, FP32, TF32, FP16, BF16, INT8 and FP8 side by side — throughput where the device runs
// the format (the rest greyed, with the backend's reason), bytes per parameter, and the error of a GEMM against
// an FP64 reference — plus the FP16 underflow demo: tiny gradients vanish in FP16 unless the loss is scaled,
// and survive in BF16.
#include "plans/precision.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/underflow_demo.hpp"
#include "pages/precision/model/precision_model.h"
#include "pages/page.h"
#include "widgets/recorded_badges.h"

#include <QPair>
#include <QVector>

#include <array>
#include <memory>
#include <vector>

namespace gpulab::models {
struct GpuSpec;
}
class QComboBox;
class QLabel;
class QSlider;
class QTableWidget;
class QTabWidget;
class QTimer;
class QCPAxisRect;
class FrameCoalescer;
class PlotObjectPool;
class QCPItemText;

class PrecisionPage : public Page {
  Q_OBJECT
 public:
  explicit PrecisionPage(AppContext& ctx);
  ~PrecisionPage() override;

  QString pageId() const override { return QStringLiteral("precision"); }
  QString title() const override { return tr("Precision: speed, size and error"); }
  QString takeaway() const override {
    return tr("Fewer bits: faster tensor cores, fewer bytes, a little more error — and FP16 loses tiny gradients "
              "unless the loss is scaled.");
  }
  LessonContent lesson() const override;
  // The formats a card's tensor cores run, in a sentence from the catalogue (nullptr: the generations compared).
  static QString tensorCoreText(const gpulab::models::GpuSpec* card);
  // The answer to "which headline figure applies": 1,979 named (sparse FP16/BF16 = dense FP8) from the catalogue.
  static QString headlineAnswer();
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  using Row = precision_model::Row;  // one format's row: see models/precision_model.h

  // For tests.
  const std::vector<Row>& rows() const { return m_rows; }
  const Row& row(gpulab::Precision p) const;
  void setSize(int n);  // GEMM n × n × n, rounded to a power of two, 256 … 16384
  // The catalogue card whose datasheet throughput is drawn beside the measurements (the detected GPU's, else
  // the lesson's H100 SXM).
  void setDatasheetCard(const QString& name);
  QString datasheetCard() const;
  QString speedText() const;        // the results strip's throughput sentence
  QStringList throughputLabels() const;  // what the throughput panel's value labels say
  int gemmSize() const;
  // The controls as the plan builder takes them, and the plan Run starts (gpulab::precision_plan).
  gpulab::PrecisionControls runControls() const;
  gpulab::Plan plan();
  void setLossScale(double scale);
  void setGradientRange(int minExp10, int maxExp10);
  void recomputeUnderflow();  // at once, on this thread (the controls ask for it on a pool thread, debounced)
  const gpulab::UnderflowResult& underflow() const { return m_underflow; }
  QString underflowSummary() const;
  QCustomPlot* summaryPlot() const { return m_plot; }
  QCustomPlot* underflowPlot() const { return m_uplot; }
  QTabWidget* views() const { return m_views; }
  // The chart's views take turns behind tabs (Speed, Bytes, Error, Numbers) when the three panels and the table do
  // not fit side by side and one above the other at the theme's font sizes (a projector at 1366×768); otherwise
  // one tab shows them all. Decided from the views' size after each resize and theme change.
  bool compactViews() const { return m_compact; }
  enum class View { all, speed, bytes, error, numbers, underflow };
  enum class Panel { speed, bytes, error };  // the formats chart's three panels
  View currentView() const;
  void showView(View v);  // a view that the current layout lacks maps to the one that shows it

 protected:
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;
  void resizeEvent(QResizeEvent* e) override;
  bool eventFilter(QObject* watched, QEvent* e) override;  // the chart resized: its value labels are fitted again

 private:
  void recomputeUnderflowInBackground();
  gpulab::UnderflowSpec underflowSpec();  // the range the controls show (their labels updated)
  void buildControls();
  void buildViews();
  void setCompact(bool compact);
  void updateCompact();           // from the views' size and the theme's fonts
  void placeSharedWidgets();      // the chart and the table into the current tab
  QVector<Panel> shownPanels() const;
  void drawSpeedPanel(QCPAxisRect* r, int width, int height);  // the panel's size as it will be laid out
  void drawBytesPanel(QCPAxisRect* r);
  void drawErrorPanel(QCPAxisRect* r);
  gpulab::Backend& backend();
  void refreshSupport();
  void refreshDatasheet();
  void scheduleReplot();
  void replot();
  void replotUnderflow();
  void fillTable();
  QString csvSummary() const;
  QString csvUnderflow() const;

  QTabWidget* m_views = nullptr;
  std::array<QWidget*, 6> m_viewPages{};  // by View: the tabs' pages (the chart and the table move between them)
  bool m_compact = false;
  Panel m_lastPanel = Panel::speed;       // shown on the chart when a compact layout's tab has no panel of its own
  QSize m_exportSize;                      // the export's layout size while one is drawn (all three panels)
  QTimer* m_fitTimer = nullptr;
  QCustomPlot* m_plot = nullptr;
  QCustomPlot* m_uplot = nullptr;
  QTableWidget* m_table = nullptr;
  QStringList m_tableSignature;  // what the table shows now (fillTable skips a fill that changes nothing)
  QLabel* m_ulabel = nullptr;
  QLabel* m_reasons = nullptr;
  QLabel* m_speedLabel = nullptr;
  QLabel* m_errorLabel = nullptr;
  QLabel* m_tf32Label = nullptr;
  QComboBox* m_backend = nullptr;
  QComboBox* m_card = nullptr;
  QSlider* m_size = nullptr;
  QLabel* m_sizeLabel = nullptr;
  QComboBox* m_scale = nullptr;
  QSlider* m_gmin = nullptr;
  QSlider* m_gmax = nullptr;
  QLabel* m_gminLabel = nullptr;
  QLabel* m_gmaxLabel = nullptr;
  SourceBadge* m_badge = nullptr;
  SourceBadge* m_emuBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn
  SourceBadge* m_sheetBadge = nullptr;
  // Results, resizes and controls ask for a redraw; it runs once a frame however many asked (widgets/frame_coalescer.h).
  FrameCoalescer* m_frame = nullptr;
  // The formats chart's panels and their bars and labels, kept between redraws: a result moves their data, and
  // panels are made anew only when the set shown changes (a compact layout's tab, an export's three).
  QVector<Panel> m_panelsShown;
  QList<QCPAxisRect*> m_panelRects;
  std::unique_ptr<PlotObjectPool> m_pool, m_upool;
  QTimer* m_underflowTimer = nullptr;

  std::vector<Row> m_rows;
  std::vector<int> m_recordedSources;  // the recordings with a bar here, in source order: a slot in each row each
  QStringList m_throughputLabels;
  QVector<QPair<QCPItemText*, int>> m_recordedValueLabels;  // the speed panel's recorded values and their recording
  gpulab::UnderflowResult m_underflow;
  int m_underflowGeneration = 0;  // the newest range asked for; older answers from the pool are dropped
  bool m_ranOnGpu = false;
};

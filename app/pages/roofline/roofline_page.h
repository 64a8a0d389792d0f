#pragma once
// Page 5, "Roofline": log-log FLOP/s against FLOPs per byte. Ceilings measured on this machine (a streaming
// triad for the memory roof, a large GEMM per precision for the compute roof) beside the datasheet ceilings of
// the detected GPU and of a catalogue GPU chosen by the student; every experiment of every page as a point with
// its provenance; a recording's points and ceilings labelled "recorded on …".
#include "gpulab/plan.hpp"
#include "gpulab/precision.hpp"
#include "pages/roofline/model/roofline_model.h"
#include "pages/page.h"
#include "widgets/recorded_badges.h"
#include "widgets/roofline_plot.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QTimer;
struct StoredResult;

class RooflinePage : public Page {
  Q_OBJECT
 public:
  explicit RooflinePage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("roofline"); }
  QString title() const override { return tr("Roofline: the memory roof and the compute roof"); }
  QString takeaway() const override {
    return tr("Left of the ridge point a kernel waits for memory, right of it for arithmetic: its FLOPs per byte "
              "decide, not the headline number.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;  // "Measure ceilings"
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override { scheduleRefresh(); }

  // For tests and the lesson's exercises.
  RooflinePlot* roofline() const { return m_plot; }
  void setCatalogueGpu(const QString& name);  // a catalogue name, or "" for none
  void setPrecision(gpulab::Precision p);
  gpulab::Precision precision() const;
  void refreshNow();
  QString summaryText() const;
  // The ceilings measured here on the CPU (0 when not measured yet).
  double measuredCpuBandwidth() const;               // bytes/s
  double measuredCpuPeak(gpulab::Precision p) const; // FLOP/s
  // What "Measure ceilings" runs (gpulab::roofline_plan; its default is `gpulab bench --suite roofline`).
  gpulab::Plan plan();

 protected:
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  void scheduleRefresh();
  void refresh();
  // Every GEMM and streaming result in the store, from every page and (includeRecorded) every recording.
  roofline_model::Model model(bool includeRecorded) const;
  // One device's measured FMA peaks and overhead floor as roofs, with their lines for the summary
  // (roofline_floors.cpp).
  // How a device's roofs are attributed: its short name, the prefix on a roof ("" when the recording's label names
  // the device already) and where the figures came from.
  struct Attribution {
    QString device, who, how;
  };
  Attribution attribution(const roofline_model::DeviceCeilings& d) const;
  // A measured (or recorded) roof of one device, in `base` or the recording's shade of it.
  static RooflinePlot::Roof deviceRoof(const roofline_model::DeviceCeilings& d, const QString& label, double peakFlops,
                                       double bandwidth, const QColor& base, const Theme& theme);
  void measuredRoofs(const roofline_model::DeviceCeilings& d, const QString& who, const QString& how,
                     const Theme& theme, QVector<RooflinePlot::Roof>& roofs, QStringList& summary) const;

  RooflinePlot* m_plot = nullptr;
  QComboBox* m_precision = nullptr;
  QComboBox* m_catalogue = nullptr;
  QCheckBox* m_showMeasured = nullptr;
  QCheckBox* m_showDatasheet = nullptr;
  QCheckBox* m_showPoints = nullptr;
  QCheckBox* m_showRecorded = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_legendNote = nullptr;
  SourceBadge* m_measuredBadge = nullptr;
  SourceBadge* m_datasheetBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn
  SourceBadge* m_publishedBadge = nullptr;  // published GPU results (widgets/published_views.h)
  QTimer* m_refresh = nullptr;
};

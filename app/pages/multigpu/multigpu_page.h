#pragma once
// Page 11: many GPUs. Data, tensor and pipeline parallelism animated (what is split, what crosses the link),
// the interconnect figures from the datasheet catalogue, GPU-to-GPU copies measured when the machine has two
// GPUs (or replayed from a recording that has them), and a ring all-reduce calculator: how long one step's
// gradients take to cross a link (a model).
#include "gpulab/plan.hpp"
#include "pages/page.h"

#include <QMap>
#include <QVector>

#include <memory>

class ParallelismView;
class ProjectorSideTab;
class QButtonGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class SourceBadge;

class MultiGpuPage : public Page {
  Q_OBJECT
 public:
  explicit MultiGpuPage(AppContext& ctx);
  ~MultiGpuPage() override;

  QString pageId() const override { return QStringLiteral("multigpu"); }
  QString title() const override { return tr("Many GPUs"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  void applyTheme(const Theme& theme) override;
  // Runs only where a second GPU is there for the copy to go to.
  bool canRun() const override;
  void run() override;
  // The plan Run executes: `bench --suite multigpu`.
  gpulab::Plan plan();
  void recordingsChanged() override;

  struct Link {
    QString name;     // "NVLink 4 (H100 / H200 SXM)"
    QString kind;     // "NVLink 4": the name short enough for the side column's box
    double gbs = 0;   // GB/s as the datasheet states it
    bool gpuToGpu = true;
  };
  // Interconnect figures drawn from the catalogue (data/gpu-specs.csv), fastest first.
  static QVector<Link> catalogueLinks();
  // Ring all-reduce time, a model: 2·(N−1)/N · bytes / bandwidth. Seconds; 0 for N < 2.
  static double ringAllReduceSeconds(double bytes, int gpus, double bytesPerSecond);

  ParallelismView* view() const { return m_view; }
  bool calculatorInOwnTab() const;  // on a projector the all-reduce calculator has its own side tab
  // True when the page is too short for the picture above the link chart (a projector at 1366×768): they then
  // take turns behind two tabs. showLinkChart picks which one is shown then.
  bool visualTabbed() const;
  void showLinkChart(bool chart);
  void setMode(int mode);  // 0 data, 1 tensor, 2 pipeline
  void setCalculator(double paramsBillions, double bytesPerGradient, int gpus, const QString& linkName);
  double allReduceSeconds() const { return m_seconds; }
  QString calculatorText() const;
  QString peerText() const;
  // GPU-to-GPU copy rates shown on the link plot: measured here first, then recorded.
  struct PeerRate {
    double bytes = 0;
    double gbs = 0;
    QString source;  // "measured here" or the recording's label
  };
  const QVector<PeerRate>& peerRates() const { return m_peerRates; }

 protected:
  void onResult(const gpulab::Result& r) override;

 private:
  void updateCalculator();
  void updatePeer();
  QMap<QString, PeerRate> bestPeerRates() const;  // by source: the note and the link plot show these
  void rebuildLinkPlot(const Theme& t);
  QString peerUnavailableReason() const;

  ParallelismView* m_view = nullptr;
  QCustomPlot* m_linkPlot = nullptr;
  QWidget* m_visual = nullptr;  // the picture and the chart: stacked, or in turns when short
  QButtonGroup* m_modes = nullptr;
  QPushButton* m_pause = nullptr;
  QComboBox* m_viewLink = nullptr;
  QDoubleSpinBox* m_params = nullptr;
  QComboBox* m_gradFormat = nullptr;
  QSpinBox* m_gpus = nullptr;
  QComboBox* m_link = nullptr;
  QLabel* m_peer = nullptr;
  QLabel* m_result = nullptr;
  QLabel* m_compare = nullptr;
  SourceBadge* m_sheetBadge = nullptr;
  SourceBadge* m_peerBadge = nullptr;  // shown once a GPU-to-GPU rate is measured or recorded
  QVector<Link> m_links;
  QVector<PeerRate> m_peerRates;
  double m_seconds = 0;
  std::unique_ptr<ProjectorSideTab> m_calcTab;
};

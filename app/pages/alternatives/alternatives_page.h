#pragma once
// After the software stack: why NVIDIA leads and what else there is (AMD with ROCm, Google's TPUs, inference
// chips), and when a GPU is the wrong tool. The plot: time for one FP32 matrix product on this CPU (its measured
// peak) against the chosen card (datasheet peak, plus copying the operands over its host link and a launch), so the
// size below which the CPU wins is found, not asserted.
#include "pages/page.h"

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QSpinBox;
class SourceBadge;

class AlternativesPage : public Page {
  Q_OBJECT
 public:
  explicit AlternativesPage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("alternatives"); }
  QString title() const override { return tr("Why NVIDIA, and the alternatives"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  void applyTheme(const Theme& theme) override;

  void setCard(const QString& name);
  void setOverheadUs(int us);
  void setDataOnGpu(bool on);
  // Seconds for an n×n×n FP32 product: on this CPU at its peak; on the card (copies, launch, peak).
  double cpuSeconds(double n) const;
  double gpuSeconds(double n) const;
  // The same with a given launch + wait instead of the spin box's (a measured overhead floor).
  double gpuSecondsWithLaunch(double n, double launchS) const;
  // The smallest n (of the plotted grid, 8…16,384) from which the card is faster; 0 if never.
  double crossover() const;
  double crossoverWithLaunch(double launchS) const;
  // A real GPU's measured launch + wait (experiment "overhead", empty launch; here or in a recording): the
  // smallest, with the device it ran on. 0 when none was measured.
  double measuredLaunchS(QString* device = nullptr) const;
  void recordingsChanged() override { replot(); }
  QString verdictText() const;
  QString vendorText() const;

 private:
  void replot();

  QCustomPlot* m_plot = nullptr;
  QCPGraph* m_cpu = nullptr;
  QCPGraph* m_gpuPeak = nullptr;
  QCPGraph* m_gpu = nullptr;
  QCPItemStraightLine* m_cross = nullptr;
  QComboBox* m_card = nullptr;
  QSpinBox* m_overhead = nullptr;
  QCheckBox* m_onGpu = nullptr;
  QLabel* m_vendors = nullptr;
  QLabel* m_verdict = nullptr;
  SourceBadge* m_cpuBadge = nullptr;
  SourceBadge* m_gpuBadge = nullptr;
};

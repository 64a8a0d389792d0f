#pragma once
// Page 7, "PCIe vs HBM": the link between the computer and the card, measured (host→device and device→host,
// pinned and pageable, over sizes) against the card's own memory (device→device), and what one generated
// token costs when part of the weights has to cross that link every time.
#include "plans/pcie.hpp"
#include "pages/pcie/model/pcie_model.h"
#include "pages/pcie/pcie_token_view.h"
#include "pages/page.h"
#include "widgets/recorded_badges.h"

#include <QVector>

class FrameCoalescer;
class QComboBox;
class QCPItemText;
class QLabel;
class QTimer;
class StackedOrTabbed;

class PciePage : public Page {
  Q_OBJECT
 public:
  explicit PciePage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("pcie"); }
  QString title() const override { return tr("PCIe vs HBM: the narrow road to the card"); }
  QString takeaway() const override {
    return tr("The card's own memory is tens of times faster than the PCIe link to it: weights that do not fit "
              "and must stream over the link make every token many times slower.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  // For tests.
  QCustomPlot* bandwidthPlot() const { return m_plot; }
  QCustomPlot* tokenPlot() const { return m_tokenView.plot(); }
  StackedOrTabbed* visualColumn() const { return m_visual; }
  int measuredPointCount() const;
  QString noteText() const;      // the plot's note (no PCIe hop here, ...)
  QString tokenText() const;     // the token-cost line
  QString summaryText() const;   // the results strip
  void setCard(const QString& name);
  void setModel(double params, double bytesPerParam);
  // A mixture-of-experts preset ("mixtral-8x7b", "qwen3-30b-a3b"): its experts kept in host RAM, the active ones
  // read over the link every token. Its format: bytes per parameter.
  void setMoeModel(const QString& id, double bytesPerParam);
  // Sizes the sweep runs (64 KiB … 1 GiB by default); tests shrink them.
  void setSweepSizes(const QVector<double>& bytes) { m_sizes = bytes; }
  // The link rate the token cost uses: the best measured pinned h2d (here or recorded), else the datasheet.
  double linkBytesPerS(QString* source = nullptr) const;
  // The page's controls as the transfer plan's, and the plan Run executes (the default is `bench --suite transfer`).
  gpulab::TransferControls runControls() const;
  gpulab::Plan plan();

 protected:
  void shownAtItsSize() override { scheduleReplot(); }
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  std::vector<pcie_model::Point> points() const;  // the transfer plan's copies in the store
  // Everything now (a setter, a theme, a run's end); a control's value asks for what it changes in the next frame
  // (the model and format: the token's chart only), a result for both charts, once a frame (FrameCoalescer).
  void replot();
  void scheduleReplot();
  void requestFrame(bool bandwidth, bool token);
  void applyFrame();
  void replotBandwidth();
  void updateToken();
  QString csvBandwidth() const;

  QCustomPlot* m_plot = nullptr;
  PcieTokenView m_tokenView;  // the token chart (pcie_token_view.h): the page works out its rows
  StackedOrTabbed* m_visual = nullptr;
  QCPItemText* m_note = nullptr;
  void fitNoteFont();  // the note a few points smaller where the chart is too narrow for its lines
  QComboBox* m_card = nullptr;
  QComboBox* m_model = nullptr;
  QComboBox* m_format = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_token = nullptr;
  QLabel* m_h2h = nullptr;
  SourceBadge* m_measuredBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn
  SourceBadge* m_sheetBadge = nullptr;
  QTimer* m_replot = nullptr;
  QVector<double> m_sizes;
  FrameCoalescer* m_frame = nullptr;
  bool m_bandwidthDirty = false, m_tokenDirty = false;
};

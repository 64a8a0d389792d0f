#pragma once
// Page 8, "Decode speed": one generated token reads every weight once, so tokens/s can never beat
// bandwidth ÷ bytes per token. The ceiling from the measured and the datasheet bandwidth, a measured chain of
// transformer-shaped products at batch 1 against it, and batching users 1…64: aggregate vs per-user speed.
//
// The page's four parts: the plan (gpulab::decode_plan, page_plans.cpp), the model (models/decode_page_model), the
// view (this file, decode_page_views.cpp) and the lesson (decode_lesson.cpp).
#include "gpulab/decode_experiments.hpp"
#include "plans/decode.hpp"
#include "models/busy_machine.h"
#include "pages/decode/model/decode_page_model.h"
#include "pages/page.h"
#include "widgets/recorded_badges.h"

#include <utility>
#include <vector>

#include <QSharedPointer>
#include <QVector>

namespace gpulab::models {
struct GpuSpec;
}

class FrameCoalescer;
class QComboBox;
class QCPAbstractPlottable;
class QCPAxisTickerText;
class QCPBars;
class QCPErrorBars;
class QCPItemStraightLine;
class QCPItemText;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTimer;
class StackedOrTabbed;

class DecodePage : public Page {
  Q_OBJECT
 public:
  explicit DecodePage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("decode"); }
  QString title() const override { return tr("Decode speed: the bandwidth ceiling"); }
  QString takeaway() const override {
    // Not "each user's speed stays": every user's KV cache is read apart from the weights (issue 36).
    return tr("Each token reads every weight once: tokens/s ≤ bandwidth ÷ bytes per token. A batch shares that "
              "read, not its caches: the total grows until compute runs out.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  // The page's controls as the plan builder takes them; a fresh page's are DecodeControls{} (bench --suite decode).
  gpulab::DecodeControls runControls() const;
  gpulab::Plan plan();
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  // For tests and the exercises.
  QCustomPlot* ceilingPlot() const { return m_ceilingPlot; }
  QCustomPlot* batchPlot() const { return m_batchPlot; }
  // The two charts, one above the other or (too little height for both) behind tabs.
  StackedOrTabbed* views() const { return m_visual; }
  void setWhatIfBandwidthGBs(double gbs);
  void setParamsBillions(double b);
  void setCard(const QString& name);
  // "tiny" / "small" / "7b" / "7b-gqa": the chain's layer shape.
  void setChainShape(const QString& id);
  void setMaxUsers(int users);
  // The prompt's length in tokens: its prefill (one batch of that many) gives the time to first token.
  void setPromptTokens(int tokens);
  // Tokens each user's KV cache holds: every step reads it beside the weights, and it must fit (issue 36).
  void setContextTokens(int tokens);
  int contextTokens() const;
  // The strip's serving sentence: users at the context on the chosen card, with their caches read and fitted.
  QString servingText(int users) const;
  // "" for a dense model of the size in the box, else a mixture-of-experts preset ("mixtral-8x7b", "qwen3-30b-a3b").
  void setMoeModel(const QString& id);
  // Parameters one token reads: the box's for a dense model, the preset's active ones for a mixture of experts.
  double activeParams() const;
  QString prefillText() const;      // the strip's prompt sentences
  QString prefillFullText() const;  // the same in full, with the sources (the strip's tooltip)
  // Ceiling tokens/s for the what-if bandwidth, by weight format ("FP16", "INT8", "INT4").
  double whatIfCeiling(const QString& format) const;
  QString ceilingText() const;
  QString chainText() const;
  QStringList ceilingBarLabels() const;  // what the ceiling plot's value labels say
  int chainPointCount() const;           // measured-here chain results
  // Total tokens/s with `users` batched ÷ at batch 1, from the chain measured here (else a recording); NaN when
  // no run has both batch sizes.
  double batchingGain(int users) const;

 protected:
  void shownAtItsSize() override { scheduleReplot(); }
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  // Everything now (a setter, a theme, a run's end); a control's value asks for the ceiling's part in the next
  // frame, a result for both parts (FrameCoalescer: once a frame however many values or results arrive).
  void replot();
  void scheduleReplot();
  void requestCeiling();
  void applyFrame();
  void replotCeiling();
  // The ceiling chart's table (the model's, from the controls and the results) and a bandwidth's name on it.
  decode_page_model::CeilingTable ceilingTable() const;
  QString ceilingColumnName(const decode_page_model::CeilingColumn& c, const gpulab::models::GpuSpec* card) const;
  void replotChain();
  void updatePrefill();
  // The measured side of the prefill sentence for one source's chain, short (the strip) and full (its tooltip);
  // empty when it cannot say.
  std::pair<QString, QString> measuredPrefillLines(const decode_page_model::ChainRun& run, double prompt) const;
  gpulab::TransformerShape chainShape() const;
  std::vector<decode_page_model::Input> inputs() const;  // the store's results, with their sources
  QString csvCeilings() const;

  void fitPlotSizes(const Theme& theme);
  struct CeilingKeyFit {
    int pt;
    int columns;
    bool shortNames;  // the published sources by their project only
  };
  CeilingKeyFit ceilingKeyFit() const;
  int ceilingKeyWidth(int pt, int columns, bool shortNames) const;
  static QString ceilingKeyName(const QCPAbstractPlottable* p, bool shortNames);
  bool ceilingKeyStale(const CeilingKeyFit& fit) const;  // the key's font, columns or names are not `fit`'s

  StackedOrTabbed* m_visual = nullptr;
  QCustomPlot* m_ceilingPlot = nullptr;
  int m_ceilingKeyRows = 0;  // the ceiling key's rows as last laid out (0: not yet; fitPlotSizes guesses by theme)
  QString m_ceilingTip;  // the ceiling chart's tooltip, before the key's whole citations when it shows short names
  QCustomPlot* m_batchPlot = nullptr;
  QDoubleSpinBox* m_whatIf = nullptr;
  QDoubleSpinBox* m_params = nullptr;
  QComboBox* m_card = nullptr;
  QComboBox* m_shape = nullptr;
  QComboBox* m_maxUsers = nullptr;
  QDoubleSpinBox* m_budget = nullptr;
  double m_defaultBudgetGB = 0;  // the box's first value: the plan builder's default budget, rounded
  QLabel* m_ceilingLabel = nullptr;
  QLabel* m_chainLabel = nullptr;
  QLabel* m_batchLabel = nullptr;
  QLabel* m_prefillLabel = nullptr;
  QWidget* m_numbersTab = nullptr;  // on a projector the chain's two readouts, out of the strip (placeReadouts)
  void placeReadouts(bool projector);
  QSpinBox* m_prompt = nullptr;
  QSpinBox* m_context = nullptr;
  QComboBox* m_moe = nullptr;
  FrameCoalescer* m_frame = nullptr;
  bool m_ceilingDirty = false, m_chainDirty = false;
  // The ceiling chart's objects, kept between redraws while what it shows keeps its shape (the same sources,
  // formats, published bars and theme): a value moves their data and texts instead of making them again.
  QString m_ceilingShape;
  QVector<QCPBars*> m_ceilingBars;
  QVector<QCPItemText*> m_ceilingValueTexts;
  QSharedPointer<QCPAxisTickerText> m_ceilingTicker;
  // The chain chart's spread bars, bend lines and "press Run" hint, kept between redraws (hidden when unused).
  QVector<QCPErrorBars*> m_chainSpreads;
  QVector<QCPItemStraightLine*> m_chainBends;
  QCPItemText* m_chainHint = nullptr;
  SourceBadge* m_measuredBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn
  SourceBadge* m_sheetBadge = nullptr;
  QTimer* m_replot = nullptr;
  QStringList m_barLabels;
  gpulab::models::BusyWatch m_busy;  // was the CPU busy while the last run timed things?
};

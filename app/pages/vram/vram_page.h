#pragma once
// Page 6, "Memory (VRAM)": what has to fit on the card (weights, KV cache, activations, training state) as
// animated stacked bars against a chosen card, and beside it the real thing: the estimate's parts held on the
// chosen device step by step (CUDA: cudaMemGetInfo; Vulkan: the heap's budget), the prediction and the device's
// reading side by side per step, up to the step that would not fit — or, when asked, until the device refuses.
#include "gpulab/models/vram_model.hpp"
#include "plans/vram.hpp"
#include "pages/vram/model/vram_model.h"
#include "pages/page.h"

#include <QVector>

#include <memory>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTimer;
class ProjectorSideTab;
class StackedOrTabbed;
class VramBars;

class VramPage : public Page {
  Q_OBJECT
 public:
  explicit VramPage(AppContext& ctx);
  ~VramPage() override;

  QString pageId() const override { return QStringLiteral("vram"); }
  QString title() const override { return tr("Memory (VRAM): will it fit?"); }
  QString takeaway() const override {
    return tr("Every weight must sit in the card's memory, plus the KV cache, activations and, for training, "
              "gradients and Adam's state: capacity decides what runs at all.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  // For tests and the exercises: the estimate for the current controls, and the controls themselves.
  gpulab::models::VramInputs inputs() const;
  gpulab::models::VramBudget budget() const;  // for the selected precision against the selected card
  double cardBytes() const;
  QString cardName() const;
  void choosePreset(const QString& id);
  void setParamsBillions(double b);
  void setFormat(gpulab::models::NumberFormat f);
  void setMode(gpulab::models::VramMode m);
  void setCard(const QString& name);  // a catalogue name, "Shop card (24 GB)" or "Detected: ..."
  void setContext(int tokens);
  void setUsers(int users);
  void setCheckpointing(bool on);  // training and LoRA: activation checkpointing (on by default, as recipes)
  void setKvFormat(gpulab::models::NumberFormat f);  // serving: the KV cache's format (FP16, FP8 or INT4)
  QString contextText() const;  // the strip's longest-context line (serving: one figure per KV format)
  QString usersText() const;    // the strip's most-users line (the same)
  QString verdictText() const;   // the results strip's "fits / short by" line
  QString weightsText() const;   // "weights alone: 14.0 GB, leaving 10.0 GB"
  QString liveText() const;      // the live panel's status line
  QString sharedMemoryText() const;  // the iGPU / CPU-type device note ("" for a card with its own memory)
  void setUntilRefused(bool on);
  VramBars* calculatorBars() const { return m_bars; }
  VramBars* liveBars() const { return m_live; }
  bool kvInOwnTab() const;  // on a projector the KV-cache group has its own side tab
  // The estimate as the vram plan's controls, and the plan Run executes (the default is `bench --suite vram`).
  gpulab::VramControls runControls() const;
  gpulab::Plan plan();

 protected:
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  void recompute();
  // Serving: the strip's longest-context and most-users lines, one figure per KV format.
  void showKvFormats(const gpulab::models::VramInputs& base, double card);
  void scheduleRecompute();
  void showRun(const vram_model::HoldRun& run, const QString& source);
  void sizeVisual();  // the two panels' minimum widths and split, for the theme and whether a run is drawn
  QString partLabel(gpulab::HoldPartKind part, double users) const;
  QString holdUnavailable() const;  // why the chosen GPU cannot hold memory (Vulkan); empty when it can
  void showLiveAbsent();
  QString csvCalculator() const;
  QString csvLive() const;

  VramBars* m_bars = nullptr;
  VramBars* m_live = nullptr;
  QWidget* m_liveBox = nullptr;          // the live bars and their status line
  QWidget* m_kvBox = nullptr;            // the KV-cache group: in the controls, or its own tab on a projector
  QWidget* m_cardBox = nullptr;
  std::unique_ptr<ProjectorSideTab> m_kvTab;
  StackedOrTabbed* m_visual = nullptr;   // estimate and live side by side, or in turns when narrow
  QLabel* m_liveStatus = nullptr;
  QLabel* m_sharedNote = nullptr;        // an iGPU / CPU-type device: its memory is the system's RAM
  QCheckBox* m_untilRefused = nullptr;   // go on past the budget until the device refuses
  QLabel* m_weightsLabel = nullptr;
  QLabel* m_verdictLabel = nullptr;
  QLabel* m_contextLabel = nullptr;
  QLabel* m_usersLabel = nullptr;
  SourceBadge* m_modelBadge = nullptr;
  SourceBadge* m_liveBadge = nullptr;

  QButtonGroup* m_presets = nullptr;
  QDoubleSpinBox* m_params = nullptr;
  QComboBox* m_format = nullptr;
  QComboBox* m_mode = nullptr;
  QSpinBox* m_layers = nullptr;
  QSpinBox* m_kvHeads = nullptr;
  QSpinBox* m_headDim = nullptr;
  QSpinBox* m_context = nullptr;
  QSpinBox* m_users = nullptr;
  QCheckBox* m_activations = nullptr;
  QCheckBox* m_checkpointing = nullptr;
  QComboBox* m_kvFormat = nullptr;
  QDoubleSpinBox* m_overhead = nullptr;
  QComboBox* m_card = nullptr;
  QTimer* m_recompute = nullptr;

  gpulab::models::ModelShape m_shape;  // the preset last chosen (hidden width etc. for activations)
  QString m_lastLive;                  // the last live reading, as CSV rows
  bool m_haveLive = false;  // a step of this page's own run is on the live bars
  vram_model::HoldRun m_run;        // this page's own run, as its results come
  vram_model::HoldRun m_shownRun;   // what the live bars show (own run or a recording's)
  QString m_liveError;      // the last step's error (a refusal's numbers, or why nothing could be held)
};

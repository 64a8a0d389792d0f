#pragma once
// Training vs inference, a part of its own after the memory page: the same model served and fine-tuned, side by
// side on one card — what each keeps in VRAM (bars from the VRAM model) and what bounds each (decode: memory
// bandwidth; training: arithmetic), from the chosen card's datasheet.
#include "pages/page.h"

#include "gpulab/models/vram_model.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class SourceBadge;
class VramBars;

class TrainInferPage : public Page {
  Q_OBJECT
 public:
  explicit TrainInferPage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("traininfer"); }
  QString title() const override { return tr("Training vs inference"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  void applyTheme(const Theme& theme) override;

  // The four budgets on the chosen card: serve, full fine-tune, LoRA (16-bit base), QLoRA (4-bit base).
  enum Column { Serve, FullTrain, Lora, Qlora, ColumnCount };
  gpulab::models::VramBudget budget(Column c) const;
  void setModel(const QString& presetId);
  void setCard(const QString& name);
  void setUsers(int users);
  // Activation checkpointing for the three training bars: on by default, as fine-tuning recipes run them.
  void setCheckpointing(bool on);
  bool checkpointing() const;
  VramBars* bars() const { return m_bars; }
  QString boundText() const;
  // Decode ceiling (tokens/s, one conversation) and training ceiling (tokens/s at the dense FP16 peak) on the card;
  // 0 where the datasheet gives no figure.
  double decodeCeiling() const;
  double trainingCeiling() const;

 private:
  void refresh();
  gpulab::models::VramInputs inputs(Column c) const;
  double cardBytes() const;

  VramBars* m_bars = nullptr;
  QComboBox* m_model = nullptr;
  QComboBox* m_card = nullptr;
  QSpinBox* m_users = nullptr;
  QSpinBox* m_context = nullptr;
  QCheckBox* m_checkpointing = nullptr;
  QLabel* m_keeps = nullptr;
  QLabel* m_bound = nullptr;
  QLabel* m_totals = nullptr;
  SourceBadge* m_badge = nullptr;
  SourceBadge* m_cardBadge = nullptr;
};

#pragma once
// File → Export current plot… (Ctrl+E) / Export all plots… / Export data (CSV)…: which plot, which format, the
// size (16:9 presets or custom) and scale, the export theme (independent of the screen's) and where to write.
// The choices are remembered for the next export.
#include "export/exporter.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

class ExportDialog : public QDialog {
  Q_OBJECT
 public:
  enum class Mode { OnePlot, AllPlots };
  // `plots` are the current page's (OnePlot); AllPlots ignores them and asks for a folder.
  ExportDialog(Mode mode, const QString& pageId, const QList<PlotExport>& plots, QWidget* parent = nullptr);

  void setFormat(ExportFormat format);
  int plotIndex() const;
  QList<ExportFormat> formats() const;  // one entry in OnePlot mode
  ExportImageSpec imageSpec() const;
  QString themeName() const;
  bool withCaption() const;  // title above, sources below
  bool withDeck() const;     // AllPlots: also one PDF deck in the folder
  QString path() const;  // a file (OnePlot) or a folder (AllPlots)

  void accept() override;  // remembers the choices

 private:
  void updatePath();
  void updateNote();
  void browse();

  Mode m_mode;
  QString m_pageId;
  QList<PlotExport> m_plots;
  QComboBox* m_plot = nullptr;
  QComboBox* m_format = nullptr;
  QComboBox* m_preset = nullptr;
  QSpinBox* m_width = nullptr;
  QSpinBox* m_height = nullptr;
  QDoubleSpinBox* m_scale = nullptr;
  QComboBox* m_theme = nullptr;
  QLineEdit* m_path = nullptr;
  QLabel* m_note = nullptr;
  QCheckBox* m_caption = nullptr;
  QCheckBox* m_deck = nullptr;
};

#pragma once
// Page 10: the software stack. An interactive diagram of the layers a deep-learning call passes through; the
// experiments run on the other pages (or in an opened recording) are listed, and picking one lights the
// layers it really went through: cuBLAS = library + its kernels, our own kernels skip the library, OpenBLAS
// on the CPU is a CPU library on the cores with no driver in between.
#include "pages/page.h"

#include <QVector>

#include <memory>

class QLabel;
class ProjectorSideTab;
class QListWidget;
class QTimer;
class StackDiagram;
class SourceBadge;

class StackPage : public Page {
  Q_OBJECT
 public:
  explicit StackPage(AppContext& ctx);
  ~StackPage() override;
  bool listInOwnTab() const;  // on a projector the list of runs has its own side tab

  QString pageId() const override { return QStringLiteral("stack"); }
  QString title() const override { return tr("The software stack"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override { refreshList(); }

  // Rebuilds the list from the result store (newest first; three examples when nothing has run yet).
  void refreshList();
  int experimentCount() const { return m_entries.size(); }
  bool showingExamples() const { return m_examples; }
  void selectExperiment(int row);
  StackDiagram* diagram() const { return m_diagram; }
  QString explanationText() const;

  // One line naming a result, for the list and the caption: "GEMM 512³ FP32 · cublas · GPU — measured here".
  static QString describe(const gpulab::Result& r);

 private:
  void showLayer(int layer);

  struct Entry {
    gpulab::Result result;
    QString source;
  };
  StackDiagram* m_diagram = nullptr;
  QListWidget* m_list = nullptr;
  QLabel* m_explain = nullptr;
  QLabel* m_path = nullptr;
  SourceBadge* m_badge = nullptr;
  QTimer* m_refresh = nullptr;
  QVector<Entry> m_entries;
  bool m_examples = false;
  int m_sticky = -1;  // the layer clicked last: its text stays when the mouse leaves
  QWidget* m_listBox = nullptr;
  std::unique_ptr<ProjectorSideTab> m_listTab;  // the list of runs: its own side tab on a short projector
};

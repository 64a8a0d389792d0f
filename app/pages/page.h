#pragma once
// The base of every lesson page: the common scaffold (title + takeaway on top, the big visual in the middle,
// controls on the right, a results strip and the Run bar below) and the hooks the main window, the export
// code and the lesson layer use. Keep qcustomplot.h out of here: it is heavy and this header is everywhere.
#include "models/sourced_result.h"
#include "gpulab/experiments.hpp"
#include "gpulab/plan.hpp"
#include "gpulab/results.hpp"
#include "theme.h"
#include "widgets/lesson_content.h"
#include "widgets/plot_export.h"

#include <QList>
#include <QPair>
#include <QSize>
#include <QString>
#include <QVariant>
#include <QWidget>

#include <functional>

class AppContext;
class LessonPanel;
class QAbstractSlider;
class QCustomPlot;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QVBoxLayout;
class QTabWidget;
class QTimer;
class RunBar;
class ResultStore;
class SourceBadge;

class Page : public QWidget {
  Q_OBJECT
 public:
  explicit Page(AppContext& ctx, QWidget* parent = nullptr);
  ~Page() override;

  virtual QString pageId() const = 0;    // stable, for `gpulab export --page ID`: "matmul", "roofline"
  virtual QString title() const = 0;     // "Matrix multiply: serial vs parallel"
  virtual QString takeaway() const = 0;  // one line under the title
  virtual LessonContent lesson() const { return {}; }
  virtual QList<PlotExport> plots() { return {}; }

  virtual bool canRun() const { return false; }
  // Space: start the page's experiment. Default: nothing.
  virtual void run() {}
  // Esc: cancel this page's running experiment.
  virtual void cancel();
  // Called after a theme change (the scaffold restyles itself first).
  virtual void applyTheme(const Theme& theme);
  // Called when recordings are opened or closed.
  virtual void recordingsChanged() {}

  // Called once by the main window after construction, when virtuals are safe to call: builds the title
  // and, when lesson() has content, the lesson tab.
  void initialize();
  bool isRunning() const;
  AppContext& context() { return m_ctx; }
  // The store of results and recordings (defined out of line: a page header need not include app_context.h).
  const ResultStore& resultStore() const;
  // Every result in the store (measured here and recorded), as the page models read them.
  SourcedResults sourcedResults() const;
  QTabWidget* sideTabs() const { return m_sideTabs; }
  // On a narrow projector (under 1280 px) the side column folds to its tabs, standing on the screen's right edge:
  // its controls at the projector's font took a third of a 1024 px screen and left the plot under half of it.
  // A click on a tab (or Ctrl+K) opens the column beside the plot; a click on the open tab folds it again.
  bool sideFoldable() const { return m_sideFoldable; }
  bool sideFolded() const { return m_sideFoldable && m_sideFolded; }
  void setSideFolded(bool folded);
  static constexpr int kFoldingScreenWidth = 1280;  // a projector narrower than this folds the column
  // The page's main plot or animation as setVisual() was given it (the fit test measures its share of a screen).
  QWidget* visual() const { return m_visual; }
  // The lesson tab (null when lesson() is empty) and the "Next: …" hint the main window sets from the order.
  LessonPanel* lessonPanel() const { return m_lessonPanel; }
  void setLessonHint(const QString& text);

  // The page's controls as a class plan addresses them (docs/class-plan.md; page_controls.cpp): every slider,
  // spin box, combo box, check box and text field outside the lesson tab, under a key that is its control id
  // (setControlId) when it has one, else its objectName, else the text of the label beside it (or its own text, or its group's title). No per-page
  // code: a page opts a control out with the property gpulabPlanControl = false.
  QList<QPair<QString, QWidget*>> planControls() const;
  // Gives a control the stable id a class plan names it by ("matmul.size"), set next to the control so renaming its
  // label never breaks a plan; planControls() then keys it by the id (the label's key still finds it, for old
  // plans). `positions`: for a slider whose position stands for another number (an index into sizes, a power of 2),
  // the number each position from the minimum means; a plan that names the id gives that number, not the position.
  static void setControlId(QWidget* control, const QString& id, const QList<double>& positions = {});
  // The positions of a slider whose position is a power of two's exponent: 2^minimum … 2^maximum.
  static QList<double> powerOfTwoPositions(const QAbstractSlider* slider);
  QList<QPair<QString, QVariant>> controlValues() const;  // key -> number, bool or string
  // Sets each control as a user would (its signals fire); returns one line for each value it could not apply.
  QStringList applyControlValues(const QList<QPair<QString, QVariant>>& values);

 Q_SIGNALS:
  void statusMessage(const QString& text);

 protected:
  // Scaffold slots for the derived page.
  void setVisual(QWidget* visual);   // the big plot or animation
  QVBoxLayout* controls();           // sliders, presets (the right column, "Controls" tab)
  QHBoxLayout* resultsStrip();       // labels with the key numbers, below the visual
  RunBar* runBar();                  // Run / progress / Cancel; created on first use
  void addBadge(SourceBadge* badge); // provenance badges beside the title
  // Badges in a row beside the title while the title still fits on one line; stacked in a column when the row
  // would force it onto a second (four badges at the projector's font at 1366 px).
  // Call after showing or hiding a badge.
  void fitBadges();
  // A single-shot timer that calls `redraw` `ms` after the last start(): a slider dragged fast or a burst of
  // results redraws once, not once per event.
  QTimer* makeRedrawTimer(std::function<void()> redraw, int ms = 30);
  // A word-wrapped label in the results strip taking `stretch` shares of its width.
  QLabel* addResultLabel(int stretch = 1, Qt::TextFormat format = Qt::AutoText);

  // Runs the page's plan (its controls through its plan builder, gpu/experiments/plans/<id>.hpp) on the shared runner under
  // this page's name; each result reaches onResult() through the store. False when another run is going.
  bool startPlan(const QString& label, gpulab::Plan plan, gpulab::MeasurePolicy policy = {});
  // The backends a plan builder plans for: this app's CPU, and its GPU when there is one.
  gpulab::Backends planBackends();
  // Starts a job on the shared runner under this page's name. Each result is stored (measured here) and
  // passed to onResult() on the GUI thread. Returns false when another page's experiment is running.
  bool startJob(const QString& label, std::function<void(const gpulab::RunContext&)> job,
                gpulab::MeasurePolicy policy = {});
  void resizeEvent(QResizeEvent* e) override;  // the side column's width follows the page's
  void showEvent(QShowEvent* e) override;      // calls shownAtItsSize()
  // The page is on screen at its real size: a chart drawn while the page was hidden (a recording opened from
  // another page) placed its key for a size it never had. Pages whose keys move off the data redraw here.
  virtual void shownAtItsSize() {}
  virtual void onResult(const gpulab::Result& result) {}
  virtual void onRunFinished(bool cancelled) {}

  AppContext& m_ctx;

 private:
  QLabel* m_title = nullptr;
  QLabel* m_takeaway = nullptr;
  QGridLayout* m_badges = nullptr;      // the badges, as many to a row as fit beside the title (fitBadges)
  QList<QWidget*> m_badgeOrder;         // in the order added: the grid is refilled in this order
  QVBoxLayout* m_visualHolder = nullptr;
  QWidget* m_visual = nullptr;
  QTabWidget* m_sideTabs = nullptr;
  QVBoxLayout* m_controls = nullptr;
  QWidget* m_controlsHost = nullptr;  // inside the Controls tab's scroll area
  // The side column's width only grows for one theme and screen: a word-wrapped readout whose text changes with a
  // slider changes its minimum width, and a column following it resized the plot on every value.
  int m_sideNeeded = 0;
  int m_sideNeededFor = 0;  // the theme's font and screen width that m_sideNeeded was found for
  QHBoxLayout* m_results = nullptr;
  QHBoxLayout* m_bottom = nullptr;
  RunBar* m_runBar = nullptr;
  LessonPanel* m_lessonPanel = nullptr;
  QLabel* m_lessonHint = nullptr;
  bool m_sideFoldable = false;  // a narrow projector: the column can fold to its tabs
  bool m_sideFolded = false;    // folded now (only while foldable)

  void applySideFold();

  void fitSideColumn(const Theme& theme);
};

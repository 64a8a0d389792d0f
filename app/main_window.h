#pragma once
// The window: a lesson navigator and the device panel on the left, the current page on the right, menus and
// the keyboard layer a teacher drives the lesson with (←/→, Page Up/Down, Space, B/., Esc, F5: shell/presenter_keys.h).
#include "shell/page_navigator.h"

#include <QMainWindow>
#include <QRect>
#include <QVector>

class AppContext;
class ClassPlanRunner;
class DevicePanel;
class Page;
class PresenterView;
class QListWidget;
class PageStack;
class QAction;
struct Theme;

class MainWindow : public QMainWindow, public PageNavigator {
  Q_OBJECT
 public:
  explicit MainWindow(AppContext& ctx, QWidget* parent = nullptr);
  ~MainWindow() override;

  const QVector<Page*>& pages() const override { return m_pages; }
  Page* currentPage() const;
  Page* pageById(const QString& id) const override;
  bool showPage(const QString& id) override;
  void showPageIndex(int index);
  void nextPage();
  void previousPage();
  DevicePanel* devicePanel() const { return m_devicePanel; }

  // Full screen + the projector theme (light or dark, View menu). `remember`: store the choice so the next
  // start comes back in projector mode (F5 and the menu do; a one-off --projector on the command line does not).
  void setProjectorMode(bool on, bool remember = true);
  bool projectorMode() const { return m_projector; }
  bool projectorDark() const { return m_projectorDark; }
  void setProjectorDark(bool dark);
  // Comes back in projector mode when it was on at the last exit (under GPULAB_NO_SETTINGS=1: in this process).
  void restoreProjectorMode();
  // The command line's --theme (normal, projector, projector-dark) and --projector, applied to the window
  // main() made, before it is shown.
  void applyStartupTheme(const QString& themeName, bool projectorMode);
  // A presenter clicker's "blank screen" key (B or .): black the window out until any key.
  bool screenBlanked() const;
  void openRecordingFile(const QString& path);  // shows a clear error on failure
  AppContext& context() const override { return m_ctx; }
  // Each page's "Next: …" hint from the lesson order (a running class plan writes its own over it).
  void refreshLessonHints() override;

  // A class plan (docs/class-plan.md; shell/main_window_presenter.cpp): loads it, checks every page exists, and
  // starts at step 1; Page Down / Page Up then walk its steps. A file path or ClassPlanRunner::bundledPlanPath().
  bool startClassPlan(const QString& path, QString* error);
  // The plan as the window stands now (ClassPlanRunner::captured) written to `path`.
  bool saveClassPlan(const QString& path, QString* error);
  ClassPlanRunner* classPlan() const { return m_plan; }
  // Opens the presenter view (a second screen when there is one).
  PresenterView* showPresenterView();
  PresenterView* presenterView() const { return m_presenterView; }
  // Before the next class: forgets every result measured since the app started, and builds the pages afresh
  // (their controls back to the defaults, their plots and exercise answers empty). Open recordings stay open:
  // they are material the teacher brought, not this class's measurements (File → Close recordings drops them).
  void clearMeasurements();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void buildPages();
  void buildPresenterMenu();
  void blankScreen();
  bool presenting() const;
  void applyTheme();
  Theme projectorTheme() const;  // the projector theme (light or dark) at the size of this window's screen
  void fitIntoScreen();  // a window larger than its screen's free area shrinks and moves into it
  void openRecordingDialog();
  void saveSessionRecording();

  AppContext& m_ctx;
  QListWidget* m_nav = nullptr;
  PageStack* m_stack = nullptr;
  DevicePanel* m_devicePanel = nullptr;
  QVector<Page*> m_pages;
  QAction* m_projectorAction = nullptr;
  QAction* m_projectorDarkAction = nullptr;
  QWidget* m_blank = nullptr;
  bool m_projector = false;
  QRect m_normalGeometry;  // where the window was before projector mode
  bool m_projectorDark = false;
  ClassPlanRunner* m_plan = nullptr;
  PresenterView* m_presenterView = nullptr;
};

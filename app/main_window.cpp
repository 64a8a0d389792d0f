#include "main_window.h"
#include "widgets/layout_room.h"

#include "app_context.h"
#include "export/export_actions.h"
#include "models/device_words.h"
#include "pages/page.h"
#include "pages/page_registry.h"
#include "settings.h"
#include "shell/class_plan_runner.h"
#include "shell/presenter_keys.h"
#include "shell/device_panel.h"
#include "widgets/glossary_dialog.h"
#include "shell/presenter_view.h"
#include "widgets/record_gpu_help.h"
#include "widgets/page_stack.h"
#include "shell/recordings_dialog.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QStatusBar>
#include <QTextEdit>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

MainWindow::MainWindow(AppContext& ctx, QWidget* parent) : QMainWindow(parent), m_ctx(ctx) {
  setWindowTitle(tr("gpulab — why GPUs run deep learning"));
  setWindowIcon(QIcon(QStringLiteral(":/gpulab/icon.svg")));

  auto* left = new QWidget(this);
  auto* leftLay = new QVBoxLayout(left);
  leftLay->setContentsMargins(6, 6, 6, 6);
  m_nav = new QListWidget(left);
  m_nav->setObjectName(QStringLiteral("lessonNavigator"));
  m_nav->setToolTip(tr("The lesson, one idea per page. ←/→ or Page Up/Down step through it."));
  m_nav->setFocusPolicy(Qt::NoFocus);  // arrow keys belong to the lesson, not the list
  m_nav->setWordWrap(true);            // long titles wrap instead of hiding behind a scroll bar
  m_nav->setTextElideMode(Qt::ElideNone);  // ...and are not cut to "the bandwidth …" with an empty line below
  m_nav->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_nav->setSpacing(2);
  leftLay->addWidget(m_nav, 1);
  // The device panel scrolls when the column is too short for it: in the projector theme in a window (--theme
  // projector-dark) its lines wrapped at 40 % larger fonts asked for 836 px of a 768 px screen.
  auto* deviceScroll = new QScrollArea(left);
  deviceScroll->setObjectName(QStringLiteral("devicePanelScroll"));
  deviceScroll->setFrameShape(QFrame::NoFrame);
  deviceScroll->setWidgetResizable(true);
  deviceScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  deviceScroll->viewport()->setAutoFillBackground(false);
  m_devicePanel = new DevicePanel(ctx, deviceScroll);
  m_devicePanel->setAutoFillBackground(false);
  deviceScroll->setWidget(m_devicePanel);
  leftLay->addWidget(deviceScroll);
  left->setObjectName(QStringLiteral("lessonSidebar"));
  // A fifth of a narrow screen (204 px at 1024: the page beside it needs the rest), 250 px from 1280 up.
  const int screenWidth0 = layoutScreenWidth(nullptr);  // the primary screen's, or the width --size asked for
  left->setMinimumWidth(std::clamp(int(0.2 * screenWidth0), 200, 250));
  // On a narrow screen the list keeps to its minimum: the 100 px more it took beside a page at its widest
  // were the page's controls column's, which scrolled sideways for want of them (1024×768).
  left->setMaximumWidth(screenWidth0 < 1280 ? left->minimumWidth() : 330);

  m_stack = new PageStack(this);
  buildPages();
  connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0 && row < m_pages.size()) m_stack->setCurrentIndex(row);
  });

  // The side column at its own width (within its minimum and maximum) and the page beside it with all the
  // rest. A splitter gave the column's pane more than the column's maximum at 1366×768, and left a grey band
  // 133 px wide between the list and the page.
  auto* central = new QWidget(this);
  auto* row = new QHBoxLayout(central);
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(0);
  row->addWidget(left);
  row->addWidget(m_stack, 1);
  setCentralWidget(central);

  buildMenus();
  connect(&ctx, &AppContext::themeChanged, this, [this] { applyTheme(); });
  connect(&ctx.runner(), &ExperimentRunner::started, this,
          [this](const QString&, const QString& label) { statusBar()->showMessage(tr("Running: %1").arg(label)); });
  connect(&ctx.runner(), &ExperimentRunner::finished, this, [this](const QString&, bool cancelled) {
    statusBar()->showMessage(cancelled ? tr("Cancelled") : tr("Done"), 5000);
  });
  // The chosen device in device_words' words: a CPU-type Vulkan device (lavapipe) is never announced as a GPU.
  const auto words = ctx.gpuInfo() ? gpulab::models::device_words(*ctx.gpuInfo()) : gpulab::models::DeviceWords{};
  const QString chosen = QString::fromStdString(words.label);
  statusBar()->showMessage(ctx.hasGpu() && words.is_gpu ? tr("GPU ready: %1").arg(chosen)
                           : ctx.hasGpu() ? tr("No GPU here: measuring with %1; GPU figures come from recordings or "
                                               "the datasheet.").arg(chosen)
                                          : tr("No GPU here (%1): the CPU measures for real; GPU figures come from "
                                               "recordings or the datasheet.").arg(ctx.gpuReasonShort()));
  qApp->installEventFilter(this);

  auto settings = appSettings();
  m_projectorDark = settings->value(QStringLiteral("projector/dark"), false).toBool();
  const int last = settings->value(QStringLiteral("lesson/page"), 0).toInt();
  showPageIndex(std::clamp(last, 0, std::max(0, int(m_pages.size()) - 1)));
  applyTheme();
}

MainWindow::~MainWindow() { qApp->removeEventFilter(this); }

void MainWindow::buildPages() {
  for (const auto& factory : sortedPageFactories()) {
    Page* page = factory.create(m_ctx);
    page->setParent(m_stack);
    page->initialize();
    m_stack->addWidget(page);
    m_pages.push_back(page);
    m_nav->addItem(QStringLiteral("%1. %2").arg(m_pages.size()).arg(page->title()));
    connect(page, &Page::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  }
  if (m_pages.isEmpty()) {
    // Only possible in a build with no pages linked; say so instead of showing a blank window.
    auto* none = new QLabel(tr("This build contains no lesson pages."), m_stack);
    none->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(none);
  }
  refreshLessonHints();
}

void MainWindow::refreshLessonHints() {
  // The lesson order at the foot of each page: what comes next (or that this is the end).
  for (int i = 0; i < m_pages.size(); ++i)
    m_pages[i]->setLessonHint(i + 1 < m_pages.size()
                                  ? tr("Next: %1. %2  →").arg(i + 2).arg(m_pages[i + 1]->title())
                                  : tr("End of the lesson — Help → Glossary (F1) recaps the key terms"));
}

void MainWindow::buildMenus() {
  auto* file = menuBar()->addMenu(tr("&File"));
  auto* open = file->addAction(tr("&Open recording…"), this, &MainWindow::openRecordingDialog);
  open->setShortcut(QKeySequence::Open);
  open->setToolTip(tr("Replay a recording made with `gpulab bench` (for example on a GPU server)"));
  // The recordings opened last, newest first (QSettings; a scratch file under GPULAB_NO_SETTINGS=1).
  auto* recent = file->addMenu(tr("Open &recent"));
  recent->setObjectName(QStringLiteral("recentRecordingsMenu"));
  recent->setToolTipsVisible(true);
  auto fillRecent = [this, recent] {
    recent->clear();
    const QStringList paths = recentRecordings();
    for (const QString& path : paths) {
      auto* a = recent->addAction(QFileInfo(path).fileName(), this, [this, path] { openRecordingFile(path); });
      a->setToolTip(path);
      a->setEnabled(QFileInfo::exists(path));
    }
    if (paths.isEmpty()) recent->addAction(tr("(no recordings opened yet)"))->setEnabled(false);
  };
  fillRecent();
  connect(recent, &QMenu::aboutToShow, this, fillRecent);
  file->addAction(tr("&Close recordings"), this, [this] { m_ctx.results().clearRecordings(); });
  auto* save = file->addAction(tr("&Save this session as a recording…"), this, &MainWindow::saveSessionRecording);
  save->setShortcut(QKeySequence::Save);
  file->addSeparator();
  auto* exportPlot = file->addAction(tr("&Export current plot…"), this, [this] { exportCurrentPlotInteractive(*this, currentPage(), m_ctx); });
  exportPlot->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exportPlot->setShortcutContext(Qt::ApplicationShortcut);
  exportPlot->setToolTip(tr("This page's plot as PNG, SVG or PDF for slides, in a theme of your choice"));
  file->addAction(tr("Export &all plots…"), this, [this] { exportAllPlotsInteractive(*this, m_pages, m_ctx); })
      ->setToolTip(tr("Every page's plots into one folder, named page-id_plot-id.ext"));
  file->addAction(tr("Export &data (CSV)…"), this, [this] { exportCurrentPlotInteractive(*this, currentPage(), m_ctx, ExportFormat::Csv); })
      ->setToolTip(tr("The numbers behind this page's plot, as CSV with units in the header"));
  file->addSeparator();
  auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  auto* view = menuBar()->addMenu(tr("&View"));
  m_projectorAction = view->addAction(tr("&Projector mode"), this, [this](bool on) { setProjectorMode(on); });
  m_projectorAction->setCheckable(true);
  m_projectorAction->setShortcut(Qt::Key_F5);
  m_projectorAction->setShortcutContext(Qt::ApplicationShortcut);
  m_projectorAction->setToolTip(tr("Full screen, large text and thick lines for the back of the room; Esc leaves"));
  m_projectorDarkAction = view->addAction(tr("Projector theme: &dark"), this, [this](bool on) { setProjectorDark(on); });
  m_projectorDarkAction->setCheckable(true);
  m_projectorDarkAction->setChecked(m_projectorDark);
  m_projectorDarkAction->setToolTip(tr("Light text on black (dark rooms) instead of black on white"));
  view->addSeparator();
  view->addAction(tr("&Recordings…"), this, [this] {
    RecordingsDialog dialog(m_ctx, this);
    dialog.exec();
  })->setToolTip(tr("The recordings that are open, side by side; close one or open another"));

  auto* go = menuBar()->addMenu(tr("&Lesson"));
  go->addAction(tr("&Next page\tRight / Page Down"), this, &MainWindow::nextPage);
  go->addAction(tr("&Previous page\tLeft / Page Up"), this, &MainWindow::previousPage);
  go->addAction(tr("&Run this page's experiment\tSpace"), this, [this] {
    if (auto* p = currentPage(); p && p->canRun()) p->run();
  });
  go->addAction(tr("&Cancel\tEsc"), this, [this] {
    if (auto* p = currentPage()) p->cancel();
  });

  // The side column's two tabs, from the keyboard: a presenter flips to the questions and back without the mouse.
  auto* lessonTab = go->addAction(tr("Lesson / controls &tab"), this, [this] {
    Page* p = currentPage();
    if (!p || !p->sideTabs() || p->sideTabs()->count() < 2) return;
    p->sideTabs()->setCurrentIndex(p->sideTabs()->currentIndex() == 0 ? 1 : 0);
    p->setSideFolded(false);  // a folded column (a narrow projector) opens at the tab asked for
  });
  lessonTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  lessonTab->setShortcutContext(Qt::ApplicationShortcut);
  lessonTab->setToolTip(tr("Switch the right-hand column between the page's controls and its lesson"));
  // On a narrow projector the column is folded to its tabs so the plot has the screen: opened and folded again
  // from the keyboard.
  auto* foldSide = go->addAction(tr("Open / fold the side column (narrow projector)"), this, [this] {
    if (Page* p = currentPage(); p && p->sideFoldable()) p->setSideFolded(!p->sideFolded());
  });
  foldSide->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
  foldSide->setShortcutContext(Qt::ApplicationShortcut);
  foldSide->setToolTip(tr("On a projector under 1280 px wide the controls fold to their tabs at the right edge; this "
                          "opens them beside the plot, or folds them again"));
  go->addSeparator();
  go->addAction(tr("Lesson &outline…"), this, [this] {
    QStringList titles, takeaways;
    for (Page* p : m_pages) {
      titles << p->title();
      takeaways << p->takeaway();
    }
    LessonOutlineDialog dialog(titles, takeaways, m_stack->currentIndex(), this);
    connect(&dialog, &LessonOutlineDialog::pageChosen, this, &MainWindow::showPageIndex);
    dialog.exec();
  });

  buildPresenterMenu();

  auto* help = menuBar()->addMenu(tr("&Help"));
  auto* glossary = help->addAction(tr("&Glossary"), this, [this] {
    GlossaryDialog dialog(this);
    dialog.exec();
  });
  glossary->setShortcut(Qt::Key_F1);
  glossary->setShortcutContext(Qt::ApplicationShortcut);
  glossary->setToolTip(tr("The lesson's key terms explained"));
  help->addAction(tr("&Record your own GPU…"), this, [this] { showRecordYourGpu(this); })
      ->setToolTip(tr("No GPU here? Measure a free notebook GPU (Colab's T4) or any NVIDIA machine in a quarter of "
                      "an hour, then open the recording on this laptop"));
  help->addAction(tr("&About gpulab"), this, [this] {
    QMessageBox::about(this, tr("About gpulab"),
                       tr("<b>gpulab %1</b><p>Live experiments that show why GPUs run deep learning: serial vs "
                          "parallel work, batch size, precision, memory and bandwidth.</p><p>Every figure says "
                          "where it came from: measured here, recorded on another machine, or datasheet / model."
                          "</p>").arg(QStringLiteral(GPULAB_VERSION)));
  });
}

Page* MainWindow::currentPage() const {
  const int i = m_stack->currentIndex();
  return (i >= 0 && i < m_pages.size()) ? m_pages[i] : nullptr;
}

Page* MainWindow::pageById(const QString& id) const {
  for (Page* p : m_pages)
    if (p->pageId() == id) return p;
  return nullptr;
}

bool MainWindow::showPage(const QString& id) {
  for (int i = 0; i < m_pages.size(); ++i)
    if (m_pages[i]->pageId() == id) {
      showPageIndex(i);
      return true;
    }
  return false;
}

void MainWindow::showPageIndex(int index) {
  if (index < 0 || index >= m_pages.size()) return;
  m_nav->setCurrentRow(index);
  m_stack->setCurrentIndex(index);
  appSettings()->setValue(QStringLiteral("lesson/page"), index);
}

void MainWindow::nextPage() { showPageIndex(std::min(int(m_pages.size()) - 1, m_stack->currentIndex() + 1)); }
void MainWindow::previousPage() { showPageIndex(std::max(0, m_stack->currentIndex() - 1)); }

void MainWindow::setProjectorMode(bool on, bool remember) {
  // The window as the teacher left it, taken before the projector theme's larger fonts can grow it.
  if (on && !m_projector) m_normalGeometry = geometry();
  m_projector = on;
  if (m_projectorAction) m_projectorAction->setChecked(on);
  if (!on && m_blank) m_blank->hide();
  // The room needs the page, not the navigator and device panel: the page gets the whole width (the keys
  // and each page's "Next: …" hint still step through the lesson) and the status bar goes.
  if (auto* sidebar = findChild<QWidget*>(QStringLiteral("lessonSidebar"))) sidebar->setVisible(!on);
  statusBar()->setVisible(!on);
  // The menu bar's line goes to the plot too. Folded to no height rather than hidden: a hidden menu bar takes
  // its actions' shortcuts with it (F5, Ctrl+E, F1 must still work), one of no height keeps them.
  menuBar()->setMaximumHeight(on ? 0 : QWIDGETSIZE_MAX);
  m_ctx.setTheme(on ? projectorTheme() : Theme::normal());
  if (on) {
    showFullScreen();
    // Without a window manager (a bare X server, some kiosks) full-screen is only a hint nobody acts on:
    // cover the screen ourselves.
    if (const QScreen* s = screen()) setGeometry(s->geometry());
  } else {
    showNormal();
    if (m_normalGeometry.isValid()) {
      setGeometry(m_normalGeometry);
      // Again once the normal theme's smaller fonts have reached every widget: until then the layout still asks
      // for the projector's minimum height and the window would come back a few pixels taller.
      QTimer::singleShot(0, this, [this] {
        if (!m_projector && m_normalGeometry.isValid()) setGeometry(m_normalGeometry);
      });
    }
  }
  if (remember) appSettings()->setValue(QStringLiteral("projector/on"), on);
}

void MainWindow::setProjectorDark(bool dark) {
  m_projectorDark = dark;
  if (m_projectorDarkAction) m_projectorDarkAction->setChecked(dark);
  appSettings()->setValue(QStringLiteral("projector/dark"), dark);
  if (m_projector) m_ctx.setTheme(projectorTheme());
}

void MainWindow::restoreProjectorMode() {
  // Under GPULAB_NO_SETTINGS=1 the settings are this process's own scratch file, empty at its start: what comes
  // back is what this process wrote (the fit test's returning user), never the user's.
  if (appSettings()->value(QStringLiteral("projector/on"), false).toBool()) setProjectorMode(true);
}

void MainWindow::applyStartupTheme(const QString& themeName, bool projectorMode) {
  if (projectorMode) {
    // --projector --theme projector-dark: projector mode in its dark theme (stored like the View menu's choice).
    if (themeName == QLatin1String("projector-dark")) setProjectorDark(true);
    setProjectorMode(true, /*remember=*/false);
  } else if (!themeName.isEmpty()) {
    const Theme chosen = Theme::byName(themeName);
    if (chosen.isProjector()) {
      // The projector theme in a window: the light or dark one is the teacher's choice for projector mode too (F5
      // gave the light one), and its fonts are sized for this screen, as projector mode's are (the 1080p sizes
      // made a window 1,085 px wide on a 1024×768 screen).
      setProjectorDark(chosen.dark);
      m_ctx.setTheme(projectorTheme());
    } else {
      m_ctx.setTheme(chosen);
    }
    // Within the screen once the theme's fonts have reached every widget (their minimum sizes are new then).
    QTimer::singleShot(0, this, [this] { fitIntoScreen(); });
  }
}

void MainWindow::fitIntoScreen() {
  const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  if (!s || m_projector || (windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen))) return;
  const QRect avail = s->availableGeometry();
  if (layout()) layout()->activate();
  // The frame's size (a window manager's title bar) comes off the room the client area may take.
  const QSize frame = frameGeometry().size() - geometry().size();
  QRect g = geometry();
  g.setSize(g.size().boundedTo(avail.size() - frame));
  g.moveLeft(std::clamp(g.left(), avail.left() + (geometry().left() - frameGeometry().left()),
                        std::max(avail.left(), avail.right() - g.width() + 1)));
  g.moveTop(std::clamp(g.top(), avail.top() + (geometry().top() - frameGeometry().top()),
                       std::max(avail.top(), avail.bottom() - g.height() + 1)));
  if (g != geometry()) setGeometry(g);
}

Theme MainWindow::projectorTheme() const {
  // Sized for the screen the window is on: a 1024×768 projector's picture is as big in the room as a 1080p one's.
  const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  return Theme::projectorForScreen(m_projectorDark, s ? s->geometry().height() : 1080);
}

bool MainWindow::screenBlanked() const { return m_blank && m_blank->isVisible(); }

void MainWindow::applyTheme() {
  const Theme& t = m_ctx.theme();
  applyThemeToApplication(*qApp, t);
  QFont navFont = font();
  navFont.setPointSize(t.baseFontPt + (t.isProjector() ? 2 : 1));
  m_nav->setFont(navFont);
  for (Page* p : m_pages) p->applyTheme(t);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  // Only keys meant for this window or the presenter view (a teacher who clicked on the notes still walks the
  // plan with the clicker), not a dialog's or an open combo box list's. isActiveWindow() is not used: without a
  // window manager (a bare X server, a kiosk) the window may never be marked active though it has the keyboard.
  auto* target = qobject_cast<QWidget*>(watched);
  const QWidget* window = target ? target->window() : nullptr;
  if (event->type() != QEvent::KeyPress || !window || (window != this && window != m_presenterView))
    return QMainWindow::eventFilter(watched, event);
  auto* key = static_cast<QKeyEvent*>(event);
  if (screenBlanked()) {
    // Any key brings the lesson back, and does nothing else: the class sees the slide it left.
    m_blank->hide();
    return true;
  }
  QWidget* focus = QApplication::focusWidget();
  const presenter::Focus focusKind = presenter::classify(focus);
  using presenter::Action;
  switch (presenter::action(key->key(), key->modifiers(), focusKind, presenting())) {
    case Action::None: break;
    case Action::ClickerNext:
      // A running plan owns the clicker: its next step (nothing past the last one), not the next page.
      if (m_plan && m_plan->isActive()) m_plan->next();
      else nextPage();
      return true;
    case Action::ClickerPrevious:
      if (m_plan && m_plan->isActive()) m_plan->previous();
      else previousPage();
      return true;
    case Action::ArrowNext: nextPage(); return true;
    case Action::ArrowPrevious: previousPage(); return true;
    case Action::Run:
      if (auto* p = currentPage(); p && p->canRun()) p->run();
      return true;
    case Action::Blank: blankScreen(); return true;
    case Action::Escape:
      if (auto* p = currentPage(); p && p->isRunning()) {
        p->cancel();
        return true;
      }
      if (focusKind != presenter::Focus::Page) {
        // The keyboard back to the page: → and ← turn pages again.
        if (Page* p = currentPage()) p->setFocus(Qt::ShortcutFocusReason);
        else setFocus(Qt::ShortcutFocusReason);
        return true;
      }
      if (m_projector) {
        setProjectorMode(false);
        return true;
      }
      break;
  }
  return QMainWindow::eventFilter(watched, event);
}

bool MainWindow::presenting() const { return m_projector || (m_plan && m_plan->isActive()); }

void MainWindow::blankScreen() {
  if (!m_blank) {
    m_blank = new QWidget(this);
    m_blank->setObjectName(QStringLiteral("blankScreen"));
    m_blank->setAutoFillBackground(true);
    QPalette pal = m_blank->palette();
    pal.setColor(QPalette::Window, Qt::black);
    m_blank->setPalette(pal);
  }
  m_blank->setGeometry(rect());
  m_blank->raise();
  m_blank->show();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // Closing mid-run: cancel, wait for the current sample, then close — never leave the worker running.
  if (m_ctx.runner().isBusy()) {
    m_ctx.runner().cancel();
    m_ctx.runner().waitForIdle(30000);
  }
  QMainWindow::closeEvent(event);
}

void MainWindow::openRecordingFile(const QString& path) {
  QString error;
  if (!m_ctx.openRecording(path, &error)) {
    QMessageBox::warning(this, tr("Could not open the recording"), tr("%1\n\n%2").arg(path, error));
    return;
  }
  rememberRecentRecording(path);
  statusBar()->showMessage(tr("Opened %1: %2").arg(path, m_ctx.results().recordings().back().label), 8000);
}

void MainWindow::openRecordingDialog() {
  auto settings = appSettings();
  const QString dir = settings->value(QStringLiteral("files/lastDir")).toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a gpulab recording"), dir, tr("Recordings (*.json)"));
  if (path.isEmpty()) return;
  settings->setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
  openRecordingFile(path);
}

void MainWindow::saveSessionRecording() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save the measurements of this session"),
                                                    QStringLiteral("gpulab-session.json"), tr("Recordings (*.json)"));
  if (path.isEmpty()) return;
  try {
    gpulab::save_recording(m_ctx.results().measuredAsRecording(), path.toStdString());
    statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Could not save"), QString::fromUtf8(e.what()));
  }
}

// The main window's presenter tools (the Presenter menu): class plans, the presenter view, and clearing the
// measurements before the next class. Kept apart from main_window.cpp, which builds the window and its keys.
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "shell/class_plan_runner.h"
#include "shell/presenter_view.h"
#include "widgets/page_stack.h"

#include <QFileDialog>
#include <QGuiApplication>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>

#include <utility>

void MainWindow::buildPresenterMenu() {
  m_plan = new ClassPlanRunner(*this, this);
  connect(m_plan, &ClassPlanRunner::stepChanged, this, [this](int index) {
    const QStringList problems = m_plan->problems();
    statusBar()->showMessage(problems.isEmpty()
                                 ? tr("Class plan: step %1 of %2").arg(index + 1).arg(m_plan->stepCount())
                                 : tr("Class plan, step %1: %2").arg(index + 1).arg(problems.join(QStringLiteral("; "))),
                             8000);
  });

  auto* menu = menuBar()->addMenu(tr("&Presenter"));
  menu->setObjectName(QStringLiteral("presenterMenu"));
  menu->setToolTipsVisible(true);
  auto start = [this](const QString& path) {
    QString error;
    if (!startClassPlan(path, &error)) QMessageBox::warning(this, tr("Could not start the class plan"), tr("%1\n\n%2").arg(path, error));
  };
  menu->addAction(tr("Start the &lesson plan (30 min)"), this, [start] { start(ClassPlanRunner::bundledPlanPath()); })
      ->setToolTip(tr("The whole lesson in about 30 minutes, step by step: Page Down moves on, the presenter view "
                      "shows the notes"));
  menu->addAction(tr("&Open class plan…"), this, [this, start] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a class plan"), {}, tr("Class plans (*.json)"));
    if (!path.isEmpty()) start(path);
  });
  auto* restart = menu->addAction(tr("&Restart the plan from step 1"), this, [this] { m_plan->start(); });
  auto* stop = menu->addAction(tr("S&top the plan"), this, [this] { m_plan->stop(); });
  menu->addAction(tr("&Save class plan…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save a class plan"), QStringLiteral("class-plan.json"),
                                                      tr("Class plans (*.json)"));
    QString error;
    if (path.isEmpty()) return;
    if (!saveClassPlan(path, &error)) QMessageBox::warning(this, tr("Could not save the class plan"), error);
    else statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
  })->setToolTip(tr("The running plan with this step's controls as they are now; without a plan, every page "
                    "with its controls as they are now"));
  menu->addSeparator();
  auto* view = menu->addAction(tr("Presenter &view"), this, [this] { showPresenterView(); });
  view->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  view->setShortcutContext(Qt::ApplicationShortcut);
  view->setToolTip(tr("The speaker notes, the next step and a clock: on the second screen when there is one"));
  menu->addSeparator();
  menu->addAction(tr("&Clear measurements…"), this, [this] {
    int measured = 0;
    for (const StoredResult& r : m_ctx.results().all()) measured += r.source < 0 ? 1 : 0;
    const auto answer = QMessageBox::question(
        this, tr("Clear measurements"),
        tr("Forget the %n result(s) measured since gpulab started, and reset every page's controls? Open "
           "recordings stay open (File → Close recordings closes them).", nullptr, measured));
    if (answer == QMessageBox::Yes) clearMeasurements();
  })->setToolTip(tr("Before the next class: this session's measurements go, so the next class measures afresh"));
  connect(menu, &QMenu::aboutToShow, this, [this, restart, stop] {
    restart->setEnabled(m_plan->stepCount() > 0);
    stop->setEnabled(m_plan->isActive());
  });
}

bool MainWindow::startClassPlan(const QString& path, QString* error) {
  if (!m_plan->load(path, error)) return false;
  m_plan->start();
  // A second screen is the presenter's: the notes go there without asking.
  if (QGuiApplication::screens().size() > 1) showPresenterView();
  return true;
}

bool MainWindow::saveClassPlan(const QString& path, QString* error) {
  QSaveFile file(path);  // written whole or not at all
  const std::string text = gpulab::models::write_class_plan(m_plan->captured());
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
      !file.commit()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

PresenterView* MainWindow::showPresenterView() {
  if (!m_presenterView) m_presenterView = new PresenterView(*m_plan, this);
  m_presenterView->showFor(this);
  return m_presenterView;
}

void MainWindow::clearMeasurements() {
  if (m_ctx.runner().isBusy()) {
    m_ctx.runner().cancel();
    m_ctx.runner().waitForIdle(30000);
  }
  const int index = m_stack->currentIndex();
  if (m_plan->isActive()) m_plan->stop();
  m_ctx.results().clearMeasured();
  // Pages keep what they measured in their own plots, tables and exercise answers: the only way to forget all
  // of it, with no code in each page, is to build them again.
  for (Page* page : std::as_const(m_pages)) {
    m_stack->removeWidget(page);
    delete page;
  }
  m_pages.clear();
  m_nav->clear();
  buildPages();
  for (Page* page : std::as_const(m_pages)) page->recordingsChanged();  // the recordings still open
  showPageIndex(index);
  statusBar()->showMessage(tr("Measurements cleared: the pages start afresh"), 8000);
}

// The window opens, lists its pages, and the device panel names the CPU and says why there is (or is no) GPU.
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "shell/device_panel.h"

#include <QApplication>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QScreen>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>

TEST(MainWindow, OpensAndShowsDevices) {
  AppContext ctx;
  MainWindow w(ctx);
  w.resize(1600, 900);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));

  const QString cpu = w.devicePanel()->cpuText();
  EXPECT_TRUE(cpu.contains(QStringLiteral("CPU"))) << cpu.toStdString();
  EXPECT_TRUE(cpu.contains(QString::fromStdString(ctx.cpuInfo().name).toHtmlEscaped())) << cpu.toStdString();

  const QString gpu = w.devicePanel()->gpuText();
  if (ctx.hasGpu()) {
    EXPECT_TRUE(gpu.contains(QString::fromStdString(ctx.gpuInfo()->name)));
  } else {
    EXPECT_TRUE(gpu.contains(QStringLiteral("not available"))) << gpu.toStdString();
    EXPECT_FALSE(ctx.gpuReason().isEmpty());
    EXPECT_TRUE(gpu.contains(ctx.gpuReasonShort().toHtmlEscaped())) << gpu.toStdString();
    EXPECT_TRUE(w.devicePanel()->detailsText().contains(ctx.gpuReason()));  // the full reason, paths and all
  }
  EXPECT_FALSE(w.devicePanel()->detailsText().isEmpty());
}

TEST(MainWindow, NoGpuOptionGivesAReason) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  EXPECT_FALSE(ctx.hasGpu());
  EXPECT_TRUE(w.devicePanel()->gpuText().contains(QStringLiteral("--no-gpu")));
}

TEST(MainWindow, ArrowKeysStepThroughPages) {
  AppContext ctx;
  MainWindow w(ctx);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  if (w.pages().size() < 2) GTEST_SKIP() << "fewer than two pages in this build";
  w.showPageIndex(0);
  w.activateWindow();
  QTest::keyClick(&w, Qt::Key_PageDown);
  EXPECT_EQ(w.currentPage(), w.pages()[1]);
  QTest::keyClick(&w, Qt::Key_PageUp);
  EXPECT_EQ(w.currentPage(), w.pages()[0]);
}

TEST(MainWindow, CtrlLFlipsBetweenControlsAndLesson) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.showPageIndex(0);
  w.activateWindow();
  QTabWidget* tabs = w.currentPage()->sideTabs();
  ASSERT_NE(tabs, nullptr);
  ASSERT_GE(tabs->count(), 2);
  EXPECT_EQ(tabs->currentIndex(), 0);
  QTest::keyClick(&w, Qt::Key_L, Qt::ControlModifier);
  EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("Lesson"));
  QTest::keyClick(&w, Qt::Key_L, Qt::ControlModifier);
  EXPECT_EQ(tabs->currentIndex(), 0);
}

// On a projector narrower than 1280 px (the offscreen screen is 800×600) the side column folds to its tabs so the
// plot has the screen; Ctrl+K and a click on a tab open it, a click on the open tab folds it, and the window theme
// puts it back as it was.
TEST(MainWindow, NarrowProjectorFoldsTheSideColumn) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.showPageIndex(0);
  w.activateWindow();
  Page* page = w.currentPage();
  ASSERT_NE(page, nullptr);
  QTabWidget* tabs = page->sideTabs();
  ASSERT_LT(w.screen()->geometry().width(), Page::kFoldingScreenWidth);
  EXPECT_FALSE(page->sideFoldable());
  w.setProjectorMode(true, false);
  QApplication::processEvents();
  ASSERT_TRUE(page->sideFoldable());
  EXPECT_TRUE(page->sideFolded());
  EXPECT_LE(tabs->width(), tabs->tabBar()->sizeHint().width() + 2);
  QTest::keyClick(&w, Qt::Key_K, Qt::ControlModifier);
  EXPECT_FALSE(page->sideFolded());
  QApplication::processEvents();
  EXPECT_GT(tabs->width(), 200);
  // A click on the tab that is open folds the column; a click on a tab opens it there.
  QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(tabs->currentIndex()).center());
  EXPECT_TRUE(page->sideFolded());
  QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center());
  EXPECT_FALSE(page->sideFolded());
  EXPECT_EQ(tabs->currentIndex(), 1);
  w.setProjectorMode(false, false);
  QApplication::processEvents();
  EXPECT_FALSE(page->sideFoldable());
  EXPECT_FALSE(page->sideFolded());
  EXPECT_EQ(tabs->tabPosition(), QTabWidget::North);
}

TEST(MainWindow, EveryPageHasIdTitleAndTakeaway) {
  AppContext ctx;
  MainWindow w(ctx);
  QStringList ids;
  for (Page* p : w.pages()) {
    EXPECT_FALSE(p->pageId().isEmpty());
    EXPECT_FALSE(p->title().isEmpty());
    EXPECT_FALSE(p->takeaway().isEmpty());
    EXPECT_FALSE(ids.contains(p->pageId())) << "duplicate page id " << p->pageId().toStdString();
    ids << p->pageId();
  }
}

namespace {
// A widget that counts how often a layout asks it for its size.
class SizeQuestionCounter : public QWidget {
 public:
  using QWidget::QWidget;
  mutable int asked = 0;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override {
    ++asked;
    return 4000 / std::max(1, width);
  }
  QSize sizeHint() const override {
    ++asked;
    return {40, 20};
  }
};
}  // namespace

// The window sizes itself by the page being shown. A stack that asked every page (QStackedWidget does) measured
// every word-wrapped label on every hidden page at each relayout of the window: 20–55 ms per result during a run.
TEST(MainWindow, AHiddenPageIsNotAskedItsSizeWhenTheWindowRelaysOut) {
  AppContext ctx;
  MainWindow w(ctx);
  w.resize(1366, 768);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  if (w.pages().size() < 2) GTEST_SKIP() << "fewer than two pages in this build";
  w.showPageIndex(0);
  Page* hidden = w.pages()[1];
  ASSERT_NE(hidden->layout(), nullptr);
  auto* counter = new SizeQuestionCounter(hidden);
  hidden->layout()->addWidget(counter);
  QTest::qWait(50);
  counter->asked = 0;

  // What a run does to the shown page (a label's text changes, so the window relays out), and a window resized.
  Page* shown = w.pages()[0];
  auto labels = shown->findChildren<QLabel*>();
  ASSERT_FALSE(labels.isEmpty());
  for (int i = 0; i < 5; ++i) {
    for (QLabel* l : labels)
      if (l->isVisible()) l->setText(l->text() + QStringLiteral(" and a few more words to wrap"));
    QCoreApplication::processEvents();
  }
  w.resize(1300, 760);
  QTest::qWait(50);
  w.resize(1366, 768);
  QTest::qWait(50);
  EXPECT_EQ(counter->asked, 0) << "a hidden page was asked its size " << counter->asked << " times";

  // Shown, it is asked, and the window relays out around it.
  w.showPageIndex(1);
  QTest::qWait(50);
  EXPECT_GT(counter->asked, 0);
  EXPECT_TRUE(counter->isVisible());
  EXPECT_GT(counter->width(), 0);
}

// The window opens, lists its pages, and the device panel names the CPU and says why there is (or is no) GPU.
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "shell/device_panel.h"

#include <QApplication>
#include <QListWidget>
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

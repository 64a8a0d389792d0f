// The Amdahl page: the sliders give the lesson's numbers, and the measured run on 1 and 2 threads completes with
// the speed-up the experiment measured and the serial part honoured.
#include "app_test_support.h"
#include "gpulab/page_plans.hpp"
#include "pages/amdahl_page.h"

#include <QSlider>
#include <QTest>
#include <gtest/gtest.h>

#include <set>

TEST(AmdahlPage, SlidersGiveTheLessonValues) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  page.initialize();
  page.setWorkers(4096);
  EXPECT_EQ(page.workers(), 4096);
  page.setSerialShare(0.0);
  // The lesson's 4096.0×, written with the app's thousands separators.
  EXPECT_TRUE(page.readoutText().contains(QStringLiteral("4,096.0×"))) << page.readoutText().toStdString();
  page.setSerialShare(0.05);
  EXPECT_DOUBLE_EQ(page.serialShare(), 0.05);
  EXPECT_TRUE(page.readoutText().contains(QStringLiteral("19.9×"))) << page.readoutText().toStdString();
  EXPECT_TRUE(page.readoutText().contains(QStringLiteral("20×"))) << page.readoutText().toStdString();
  page.setSerialShare(0.5);
  EXPECT_TRUE(page.readoutText().contains(QStringLiteral("2.0×"))) << page.readoutText().toStdString();
  // Through the slider itself, as a student would: 8 workers at 5 %.
  page.setSerialShare(0.05);
  QSlider* w = page.workersSlider();
  for (int i = 0; i <= w->maximum(); ++i) {
    w->setValue(i);
    if (page.workers() == 8) break;
  }
  EXPECT_EQ(page.workers(), 8);
  EXPECT_TRUE(page.readoutText().contains(QStringLiteral("5.9×"))) << page.readoutText().toStdString();
  // Fine steps near zero: 0.1 % is reachable.
  page.setSerialShare(0.001);
  EXPECT_DOUBLE_EQ(page.serialShare(), 0.001);
}

TEST(AmdahlPage, DataLoadingExample) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  page.initialize();
  page.setLoading(0.5, 2);
  EXPECT_TRUE(page.loadingText().contains(QStringLiteral("1.33×"))) << page.loadingText().toStdString();
  page.setLoading(0.1, 10);  // loading 10 %, GPU 10× -> 1 / (0.1 + 0.09) = 5.26×
  EXPECT_TRUE(page.loadingText().contains(QStringLiteral("5.26×"))) << page.loadingText().toStdString();
}

TEST(AmdahlPage, MeasuredRunOnOneAndTwoThreads) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  page.initialize();
  page.setSerialShare(0.3);
  page.setMaxThreads(2);
  page.run();
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QTest::qWait(100);  // queued results reach the page
  const auto pts = page.measuredPoints();
  ASSERT_EQ(pts.size(), 2) << page.measuredText().toStdString();
  EXPECT_DOUBLE_EQ(pts[0].x(), 1);
  EXPECT_NEAR(pts[0].y(), 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(pts[1].x(), 2);
  EXPECT_GT(pts[1].y(), 0);
  EXPECT_TRUE(page.measuredText().contains(QStringLiteral("Measured here"))) << page.measuredText().toStdString();
  // On the big plot the points sit on the 30 % curve; move the slider to 5 % and they leave it (the close-up,
  // with its own 30 % curve, keeps them).
  QTest::qWait(100);
  EXPECT_EQ(page.mainPlotMarkCount(), 2);
  page.setSerialShare(0.05);
  QTest::qWait(100);
  EXPECT_EQ(page.mainPlotMarkCount(), 0);
  EXPECT_EQ(page.measuredPoints().size(), 2);
  // The results went into the store, measured here, with the serial prefix timed.
  const auto stored = ctx.results().byExperiment(QStringLiteral("amdahl_scaling"));
  ASSERT_EQ(stored.size(), 2);
  // The page plots the experiment's own speed-up (how fast 2 threads are is for `bench --suite amdahl`).
  EXPECT_DOUBLE_EQ(pts[1].y(), stored[1].result.param("speedup"));
  for (const auto& s : stored) {
    EXPECT_EQ(s.source, -1);
    EXPECT_GT(s.result.param("serial_s"), 0);
    EXPECT_LE(s.result.param("serial_s"), s.result.stats.max_s * 1.001);
  }
  std::printf("page: 1 -> 2 threads at 30%% serial: %.2fx\n", pts[1].y());
}

TEST(AmdahlPage, LessonHasTheExercises) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  const LessonContent l = page.lesson();
  ASSERT_GE(l.exercises.size(), 2);
  EXPECT_NEAR(l.exercises[0].compute(), 5.93, 0.01);  // 8 workers at 5 %
  EXPECT_NEAR(l.exercises[1].compute(), 4.0 / 3.0, 1e-9);
  EXPECT_FALSE(page.plots().isEmpty());
}

TEST(AmdahlPage, DefaultPlanIsTheBenchSuite) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.cuda(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("amdahl", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_EQ(fromPage.size(), 1u);  // the thread ladder (no GPU here: no launch cost)
  page.setSerialShare(0.3);        // another share is another plan
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_NE(fromPage, fromSuite);
}

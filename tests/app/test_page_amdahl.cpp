// The Amdahl page: the sliders give the lesson's numbers, the measured run on 1 and 2 threads completes with
// the speed-up the experiment measured and the serial part honoured, and two recordings open are two sources.
#include "app_test_support.h"
#include "gpulab/page_plans.hpp"
#include "gpulab/recording.hpp"
#include "pages/amdahl/amdahl_page.h"
#include "widgets/source_badge.h"

#include "qcustomplot.h"

#include <QDir>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <set>
#include <utility>

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
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
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

TEST(AmdahlPage, TwoRecordingsAreTwoSources) {
  // The bundled recording beside a copy from "another machine" whose 2-thread run reached less.
  const QString bundled = QDir::cleanPath(
      QStringLiteral(GPULAB_TEST_DATA_DIR "/../../resources/recordings/cpu-amd-epyc-2vcpu-vm-2026-12-01.json"));
  gpulab::Recording second = gpulab::load_recording(bundled.toStdString());
  second.context["cpu"] = "Second Lab Machine";
  second.context["date"] = "2026-11-20T09:00:00Z";
  for (gpulab::Result& r : second.results)
    if (r.experiment == "amdahl_scaling" && r.params["threads"] == 2) r.params["speedup"] = 1.25;
  QTemporaryDir dir;
  const QString secondPath = dir.filePath(QStringLiteral("second.json"));
  gpulab::save_recording(second, secondPath.toStdString());

  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  page.initialize();
  QString error;
  ASSERT_TRUE(ctx.openRecording(bundled, &error)) << error.toStdString();
  ASSERT_TRUE(ctx.openRecording(secondPath, &error)) << error.toStdString();
  page.setSerialShare(0.3);  // the recordings' share: the law's plot draws their marks too
  QTest::qWait(100);

  const QString first = ctx.results().sourceLabel(0), other = ctx.results().sourceLabel(1);
  EXPECT_EQ(other, QStringLiteral("recorded on Second Lab Machine, 2026-11-20"));
  EXPECT_EQ(page.mainPlotMarkCount(), 4);  // two thread counts from each, none merged
  for (const PlotExport& e : page.plots()) {
    if (e.id == QStringLiteral("data_loading")) continue;
    // One series per recording on each plot, named for it, the second in its own look (square marks).
    const QCPGraph* ofFirst = nullptr;
    const QCPGraph* ofSecond = nullptr;
    for (int i = 0; i < e.plot->graphCount(); ++i) {
      QCPGraph* g = e.plot->graph(i);
      if (g->name() == first) EXPECT_EQ(std::exchange(ofFirst, g), nullptr) << e.id.toStdString();
      if (g->name() == other) EXPECT_EQ(std::exchange(ofSecond, g), nullptr) << e.id.toStdString();
    }
    ASSERT_NE(ofFirst, nullptr) << e.id.toStdString();
    ASSERT_NE(ofSecond, nullptr) << e.id.toStdString();
    EXPECT_EQ(ofFirst->scatterStyle().shape(), QCPScatterStyle::ssCircle);
    EXPECT_EQ(ofSecond->scatterStyle().shape(), QCPScatterStyle::ssSquare);
    ASSERT_EQ(ofSecond->dataCount(), 2);
    EXPECT_DOUBLE_EQ((ofSecond->data()->constEnd() - 1)->value, 1.25);
    EXPECT_GT((ofFirst->data()->constEnd() - 1)->value, 1.4);
    const QString csv = e.csv();
    EXPECT_TRUE(csv.contains(QStringLiteral("\"%1\"").arg(first))) << csv.toStdString();
    EXPECT_TRUE(csv.contains(QStringLiteral("\"%1\"").arg(other))) << csv.toStdString();
  }
  // A badge per recording, none "measured here" (nothing was), and the readout names both.
  QStringList recorded;
  for (SourceBadge* b : page.findChildren<SourceBadge*>()) {
    if (!b->isVisibleTo(&page)) continue;
    EXPECT_NE(b->kind(), SourceBadge::Kind::MeasuredHere) << b->text().toStdString();
    if (b->kind() == SourceBadge::Kind::Recorded) recorded << b->text().simplified();
  }
  EXPECT_EQ(recorded, (QStringList{first, other}));
  const QString text = page.measuredText();
  EXPECT_TRUE(text.contains(first) && text.contains(other)) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("1.25×"))) << text.toStdString();
}

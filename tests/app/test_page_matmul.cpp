// The matrix-multiply page: a tiny size runs offscreen to completion with a bar and a passed check per CPU
// variant; a big naive size is estimated as too long (the function, not the dialog); recorded results are
// hollow bars, two recordings' as two sources (a bar set, a look and a badge each).
#include "app/badge_probe.h"
#include "app_test_support.h"
#include "main_window.h"
#include "pages/matmul/matmul_page.h"
#include "qcustomplot.h"
#include "widgets/source_badge.h"

#include "gpulab/page_plans.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QMap>

#include <cmath>
#include <set>
#include <tuple>

#include <QTest>
#include <QElapsedTimer>
#include <gtest/gtest.h>

TEST(MatmulPage, TinySizeRunsEveryCpuVariantWithAPassedCheck) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  ASSERT_EQ(page.rows().size(), 4);  // naive, reordered, BLAS 1 thread, BLAS all threads
  page.setSquare(64);
  EXPECT_EQ(page.measuredBarCount(), 0);
  page.run();
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QCoreApplication::processEvents();
  QTest::qWait(60);  // the coalesced replot
  EXPECT_EQ(page.measuredBarCount(), 4);
  EXPECT_EQ(page.passedCheckCount(), 4);
  EXPECT_EQ(page.wrongAnswerCount(), 0);
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("faster"))) << page.summaryText().toStdString();

  const auto plots = page.plots();
  ASSERT_GE(plots.size(), 1);  // the bars measured here first; published ladders follow
  ASSERT_NE(plots[0].plot, nullptr);
  const QString csv = plots[0].csv();
  EXPECT_EQ(csv.count(QStringLiteral(",pass,")), 4) << csv.toStdString();

  // A different size has no bars until it is run.
  page.setSize(32, 64, 48);
  EXPECT_EQ(page.measuredBarCount(), 0);
  page.setSquare(64);
  EXPECT_EQ(page.measuredBarCount(), 4);
}

TEST(MatmulPage, NonSquareShapesRunToo) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  page.setSize(16, 96, 40);
  page.setVariantEnabled(QStringLiteral("cpu/blas/1"), false);
  page.run();
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QCoreApplication::processEvents();
  EXPECT_EQ(page.passedCheckCount(), 3);
}

TEST(MatmulPage, TooLongEstimateForABigNaiveSize) {
  // 4096³ at the assumed 0.65 GFLOP/s: 137 GFLOPs, ~211 s a run -> ask first.
  EXPECT_NEAR(MatmulPage::naiveSecondsPerRun(4096, 4096, 4096, 0.65), 2.0 * 4096.0 * 4096 * 4096 / 0.65e9, 1e-6);
  EXPECT_TRUE(MatmulPage::naiveTooLong(4096, 4096, 4096, MatmulPage::kAssumedNaiveGflops));
  EXPECT_TRUE(MatmulPage::naiveTooLong(2048, 2048, 2048, 1.0));
  // The lesson's practice and a tiny size are quick.
  EXPECT_FALSE(MatmulPage::naiveTooLong(60, 60, 60, MatmulPage::kAssumedNaiveGflops));
  EXPECT_FALSE(MatmulPage::naiveTooLong(64, 64, 64, MatmulPage::kAssumedNaiveGflops));
  // The lesson's layer (1.07 GFLOPs) is fine at the assumed rate, too long at a hundred times slower.
  EXPECT_FALSE(MatmulPage::naiveTooLong(32, 4096, 4096, MatmulPage::kAssumedNaiveGflops));
  EXPECT_TRUE(MatmulPage::naiveTooLong(32, 4096, 4096, 0.0065));
  // No measurement yet: the estimate says it is assumed.
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  QString src;
  EXPECT_DOUBLE_EQ(page.naiveGflopsForEstimate(4096, &src), MatmulPage::kAssumedNaiveGflops);
  EXPECT_TRUE(src.contains(QStringLiteral("assumed")));
}

TEST(MatmulPage, SkippingTheNaiveLoopLeavesANote) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  page.setSquare(4096);
  for (const auto& r : page.rows())
    if (r.key != QStringLiteral("cpu/naive/-1")) page.setVariantEnabled(r.key, false);
  page.setTooLongAnswer(2);  // as if "Skip the naive loop" was clicked
  page.run();
  EXPECT_FALSE(ctx.runner().isBusy());  // nothing else was ticked: nothing runs
  EXPECT_TRUE(page.rowNote(QStringLiteral("cpu/naive/-1")).contains(QStringLiteral("skipped")));
}

TEST(MatmulPage, RecordedResultsAreHollowBars) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  // A recording as an H200 box would write it: the ladder's end and cuBLAS at 4096³.
  gpulab::Recording rec;
  rec.context["gpu"] = "NVIDIA H200";
  rec.context["date"] = "2026-11-30T10:00:00Z";
  for (auto [variant, gflops] : {std::pair{"warptile", 40000.0}, std::pair{"cublas", 50000.0}}) {
    gpulab::Result r;
    r.experiment = "gemm";
    r.backend = "cuda";
    r.variant = variant;
    r.params = {{"m", 4096}, {"n", 4096}, {"k", 4096}, {"threads", 0}};
    r.check.passed = true;
    r.stats.median_s = 2.0 * 4096.0 * 4096 * 4096 / (gflops * 1e9);
    r.stats.n = 5;
    r.flops = 2.0 * 4096.0 * 4096 * 4096;
    r.gflops = gflops;
    rec.results.push_back(r);
  }
  ctx.results().addRecording(QStringLiteral("/tmp/h200.json"), rec);
  QCoreApplication::processEvents();
  EXPECT_EQ(page.rows().size(), 6);  // 4 CPU rows + 2 recorded GPU rows
  // Nothing recorded or measured at the lesson's n = 60: opening goes to the size the recording has.
  EXPECT_EQ(page.sizeN(), 4096);
  EXPECT_EQ(page.sizeM(), 4096);
  EXPECT_EQ(page.recordedBarCount(), 2);
  EXPECT_TRUE(page.recordedSizesText().contains(QStringLiteral("Recorded at"))) << page.recordedSizesText().toStdString();
  // Back at n = 60 the page says the recording has nothing here and links to 4096³.
  page.setSquare(60);
  EXPECT_EQ(page.recordedBarCount(), 0);
  EXPECT_TRUE(page.recordedSizesText().contains(QStringLiteral("no bars at this size")));
  EXPECT_TRUE(page.recordedSizesText().contains(QStringLiteral("href=\"4096x4096x4096\"")))
      << page.recordedSizesText().toStdString();
  ASSERT_EQ(page.recordedSizes().size(), 1);
  page.setSquare(4096);
  EXPECT_EQ(page.recordedBarCount(), 2);
  EXPECT_EQ(page.measuredBarCount(), 0);
  EXPECT_TRUE(page.plots()[0].csv().contains(QStringLiteral("H200")));
  // Laid out for a wide slide, the labels need a smaller share of the axis than in a narrow one.
  const PlotExport e = page.plots()[0];
  ASSERT_TRUE(bool(e.layoutFor));
  e.layoutFor(QSize(600, 400));
  const double narrow = page.plot()->xAxis->range().upper;
  e.layoutFor(QSize(3840, 2160));
  const double wide = page.plot()->xAxis->range().upper;
  EXPECT_LT(wide, narrow);
  e.layoutFor(QSize());
  if (const QString dir = qEnvironmentVariable("GPULAB_SHOT_DIR"); !dir.isEmpty()) {
    page.resize(1500, 850);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    QTest::qWait(100);
    page.grab().save(dir + QStringLiteral("/matmul-recorded.png"));
  }
}

namespace {
// A recording of the CPU ladder at 60³ made on `device`, at `scale` times the given rates.
gpulab::Recording cpuLadder(const std::string& device, const std::string& date, double scale) {
  gpulab::Recording rec;
  rec.context["cpu"] = device;
  rec.context["gpu"] = "none";
  rec.context["date"] = date;
  for (auto [variant, threads, gflops] : {std::tuple{"naive", 0, 4.0}, std::tuple{"blas", 1, 100.0}, std::tuple{"blas", 0, 96.0}}) {
    gpulab::Result r;
    r.experiment = "gemm";
    r.plan = gpulab::plan_name::matmul;
    r.backend = "cpu";
    r.variant = variant;
    r.params = {{"m", 60}, {"n", 60}, {"k", 60}, {"threads", double(threads)}};
    r.check.passed = true;
    r.flops = 2.0 * 60 * 60 * 60;
    r.gflops = gflops * scale;
    r.stats.median_s = r.flops / (r.gflops * 1e9);
    r.stats.n = 5;
    rec.results.push_back(r);
  }
  return rec;
}
}  // namespace

TEST(MatmulPage, TwoRecordingsAreTwoSourcesEachWithItsBarsLookAndBadge) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  ctx.results().addRecording(QStringLiteral("/tmp/fast.json"), cpuLadder("Fast Box", "2026-11-30", 1.0));
  ctx.results().addRecording(QStringLiteral("/tmp/slow.json"), cpuLadder("Slow Box", "2026-11-20", 0.5));
  for (int i = 0; i < 5; ++i) QTest::qWait(20);
  ASSERT_EQ(page.sizeN(), 60);
  // Each recording's bar in each of the three rows: the slower one is never hidden behind the faster.
  EXPECT_EQ(page.recordedBarCount(), 6);
  QMap<QString, QVector<double>> byName;  // bar set name -> its values
  QMap<QString, Qt::PenStyle> outline;
  for (int i = 0; i < page.plot()->plottableCount(); ++i)
    if (auto* bars = qobject_cast<QCPBars*>(page.plot()->plottable(i))) {
      for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) byName[bars->name()] << it->value;
      outline[bars->name()] = bars->pen().style();
    }
  const QString fast = ctx.results().sourceLabel(0), slow = ctx.results().sourceLabel(1);
  ASSERT_TRUE(fast.contains(QStringLiteral("Fast Box"))) << fast.toStdString();
  ASSERT_EQ(byName.size(), 2) << QStringList(byName.keys()).join(QStringLiteral(" | ")).toStdString();
  EXPECT_EQ(byName.value(fast).size(), 3);
  EXPECT_EQ(byName.value(slow).size(), 3);
  EXPECT_TRUE(byName.value(slow).contains(50.0));  // the slow box's BLAS, 1 thread
  EXPECT_TRUE(byName.value(fast).contains(100.0));
  EXPECT_EQ(outline.value(fast), Qt::SolidLine);
  EXPECT_EQ(outline.value(slow), Qt::DashLine);  // the second recording's look (widgets/recorded_look.h)
  // One badge per recording, each naming its own.
  const QStringList recordedBadges = recordedBadgeTexts(&page);
  ASSERT_EQ(recordedBadges.size(), 2) << recordedBadges.join(QStringLiteral(" | ")).toStdString();
  EXPECT_EQ(recordedBadges.filter(QStringLiteral("Fast Box")).size(), 1);
  EXPECT_EQ(recordedBadges.filter(QStringLiteral("Slow Box")).size(), 1);
  // The export has a line per recording's bar, under its own label.
  const QString csv = page.plots()[0].csv();
  EXPECT_EQ(csv.count(QStringLiteral("Fast Box")), 3);
  EXPECT_EQ(csv.count(QStringLiteral("Slow Box")), 3);
  if (const QString dir = qEnvironmentVariable("GPULAB_SHOT_DIR"); !dir.isEmpty())
    page.grab().save(dir + QStringLiteral("/matmul-two-recordings.png"));
}

TEST(MatmulPage, LessonAnswers) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  const LessonContent c = page.lesson();
  ASSERT_GE(c.questions.size(), 1);
  EXPECT_TRUE(c.questions[0].answer.contains(QStringLiteral("48")));
  ASSERT_GE(c.exercises.size(), 3);
  EXPECT_DOUBLE_EQ(c.exercises[0].compute(), 48);
  EXPECT_NEAR(c.exercises[1].compute(), 1.073741824, 1e-9);
  // The n = 60 ratio is timed by the runner, never on the GUI thread: the first ask starts the practice plan and
  // has no answer yet (the panel shows what is happening instead).
  EXPECT_TRUE(std::isnan(c.exercises[2].compute()));
  EXPECT_FALSE(c.exercises[2].unavailable.isEmpty());
  EXPECT_TRUE(ctx.runner().isBusy());
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QCoreApplication::processEvents();
  // Measured at n = 60: BLAS beats the loop, and the practice runs are bars at 60³ too.
  EXPECT_GT(c.exercises[2].compute(), 1.0);
  page.setSquare(60);
  EXPECT_EQ(page.measuredBarCount(), 2);
}

TEST(MatmulPage, DefaultPlanIsTheBenchSuite) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MatmulPage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("matmul", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_EQ(fromPage.size(), 4u);  // every CPU way at 60³
  page.setSquare(512);  // another size is another plan
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_NE(fromPage, fromSuite);
  page.setSquare(60);
  page.setVariantEnabled(QStringLiteral("cpu/reordered/-1"), false);  // so is an unticked way
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage.size(), 3u);
}

TEST(MatmulPage, SpaceInTheWindowRunsThePage) {
  AppContext ctx(noGpu());
  MainWindow w(ctx);
  w.resize(1600, 900);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  ASSERT_TRUE(w.showPage(QStringLiteral("matmul")));
  auto* page = qobject_cast<MatmulPage*>(w.currentPage());
  ASSERT_NE(page, nullptr);
  page->setSquare(32);
  w.activateWindow();
  QWidget* focus = QApplication::focusWidget();
  ASSERT_NE(focus, nullptr);
  ASSERT_EQ(qobject_cast<QAbstractButton*>(focus), nullptr) << "Space would press " << focus->metaObject()->className();
  QTest::keyClick(focus, Qt::Key_Space);
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QCoreApplication::processEvents();
  EXPECT_EQ(page->passedCheckCount(), 4) << "focus: "
                                         << (QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none");
}

TEST(MatmulPage, TheNaiveEstimateComesFromThisSizeAndCountsTheCheck) {
  // Issue 13: a rate measured in cache (60³) is never used for an out-of-cache size; the estimate comes from a
  // probe of this very product, counts the check and says so.
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  gpulab::Result small;
  small.experiment = "gemm";
  small.backend = "cpu";
  small.variant = "naive";
  small.precision = gpulab::Precision::fp32;
  small.params = {{"m", 60}, {"n", 60}, {"k", 60}, {"threads", 0}};
  small.check.passed = true;
  small.check.checked = 3600;
  small.gflops = 5.0;  // fast, in cache
  ctx.results().addMeasured(small);
  page.setSquare(1024);
  QString src;
  EXPECT_NE(page.naiveGflopsForEstimate(1024, &src), 5.0);
  EXPECT_TRUE(src.contains(QStringLiteral("assumed"))) << src.toStdString();
  ASSERT_TRUE(page.probeNaiveRate());
  const double g = page.naiveGflopsForEstimate(1024, &src);
  EXPECT_GT(g, 0);
  EXPECT_TRUE(src.contains(QStringLiteral("timed just now"))) << src.toStdString();
  const gpulab::RunEstimate e = page.naiveRunEstimate();
  EXPECT_DOUBLE_EQ(e.gflops, g);
  EXPECT_GT(e.check_s, e.run_s);  // the check is a whole run plus the reference
  EXPECT_GE(e.total_s, e.check_s + e.run_s);
  EXPECT_FALSE(page.probeNaiveRate());  // once per size
}

// The settle timer's probe runs off the GUI thread (it froze a slider drag for 3.1 s on a busy machine): asked for,
// it returns at once, the estimate says "assumed" until the answer lands, and then says "timed just now".
TEST(MatmulPage, TheSettleProbeRunsOffTheGuiThread) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  page.setSquare(1536);
  QElapsedTimer asked;
  asked.start();
  ASSERT_TRUE(page.probeNaiveRateInBackground());
  EXPECT_LT(asked.elapsed(), 50) << "the probe ran on the GUI thread";
  EXPECT_FALSE(page.probeNaiveRateInBackground()) << "one probe in flight at a time";
  QString src;
  page.naiveGflopsForEstimate(1536, &src);
  EXPECT_TRUE(src.contains(QStringLiteral("assumed"))) << src.toStdString();
  QElapsedTimer wait;
  wait.start();
  while (!src.contains(QStringLiteral("timed just now")) && wait.elapsed() < 30000) {
    QTest::qWait(20);
    page.naiveGflopsForEstimate(1536, &src);
  }
  EXPECT_TRUE(src.contains(QStringLiteral("timed just now"))) << src.toStdString();
  EXPECT_FALSE(page.probeNaiveRateInBackground()) << "once per size";
}

TEST(MatmulPage, ALavapipeRecordingsRowsAreNeverCalledAGpu) {
  // Issue 17: Vulkan on the CPU (lavapipe) runs the shader ladder, but it is no GPU: its rows say who ran them.
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  gpulab::Recording rec;
  rec.context["date"] = "2026-12-01T10:00:00Z";
  for (auto [variant, gflops] : {std::pair{"naive", 1.7}, std::pair{"smem", 4.0}}) {
    gpulab::Result r;
    r.experiment = "gemm";
    r.plan = gpulab::plan_name::matmul;
    r.backend = "vulkan";
    r.variant = variant;
    r.provenance["device"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
    r.provenance["device_type"] = "CPU (not a GPU)";
    r.params = {{"m", 512}, {"n", 512}, {"k", 512}, {"threads", 0}};
    r.check.passed = true;
    r.flops = 2.0 * 512 * 512 * 512;
    r.stats.median_s = r.flops / (gflops * 1e9);
    r.stats.n = 3;
    r.gflops = gflops;
    rec.results.push_back(r);
  }
  ctx.results().addRecording(QStringLiteral("/tmp/lavapipe.json"), rec);
  QCoreApplication::processEvents();
  ASSERT_EQ(page.rows().size(), 6);
  EXPECT_EQ(page.recordedBarCount(), 2);  // the page went to 512³, where the recording has its bars
  QStringList names, tips;
  for (const auto* box : page.findChildren<QAbstractButton*>()) {
    names << box->text();
    tips << box->toolTip();
  }
  const QString all = names.join(QLatin1Char('\n'));
  for (const auto& r : page.rows()) {
    if (!r.model.gpu_side) continue;
    EXPECT_TRUE(r.name.startsWith(QStringLiteral("Vulkan on the CPU"))) << r.name.toStdString();
    EXPECT_FALSE(r.name.contains(QStringLiteral("GPU"))) << r.name.toStdString();
  }
  EXPECT_FALSE(all.contains(QStringLiteral("GPU 1 naive"))) << all.toStdString();
  EXPECT_TRUE(tips.join(QLatin1Char('\n')).contains(QStringLiteral("Vulkan on the CPU (llvmpipe) — not a GPU")));
}

namespace {
// A lavapipe recording of two ladder steps at 512³ and, when `peakGflops` > 0, the roofs suite's FP32 FMA peak of
// the same device.
gpulab::Recording lavapipeLadder(double peakGflops) {
  gpulab::Recording rec;
  rec.context["date"] = "2026-12-03T10:00:00Z";
  auto result = [](const char* experiment, const char* variant, double gflops, double flops) {
    gpulab::Result r;
    r.experiment = experiment;
    r.backend = "vulkan";
    r.variant = variant;
    r.provenance["device"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
    r.provenance["device_type"] = "CPU (not a GPU)";
    r.check.passed = true;
    r.flops = flops;
    r.stats.median_s = r.stats.min_s = flops / (gflops * 1e9);
    r.stats.n = 3;
    r.gflops = gflops;
    return r;
  };
  for (auto [variant, gflops] : {std::pair{"naive", 1.7}, std::pair{"smem", 4.0}}) {
    gpulab::Result r = result("gemm", variant, gflops, 2.0 * 512 * 512 * 512);
    r.plan = gpulab::plan_name::matmul;
    r.params = {{"m", 512}, {"n", 512}, {"k", 512}, {"threads", 0}};
    rec.results.push_back(r);
  }
  if (peakGflops > 0) {
    gpulab::Result pk = result("peak", "fma", peakGflops, 1e9);
    pk.plan = "roofs";
    rec.results.push_back(pk);
  }
  return rec;
}

QString plotTexts(MatmulPage& page) {
  QStringList out;
  for (int i = 0; i < page.plot()->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(page.plot()->item(i)); t && t->visible()) out << t->text();
  return out.join(QLatin1Char('\n'));
}
}  // namespace

TEST(MatmulPage, TheLaddersBestStepIsAShareOfItsDevicesMeasuredPeak) {
  // Issue 27: lavapipe's smem step (4 GFLOP/s) against the FMA peak (10 GFLOP/s) the same recording measured.
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  page.resize(1366, 768);
  page.show();
  ctx.results().addRecording(QStringLiteral("/tmp/lavapipe-roofs.json"), lavapipeLadder(10.0));
  QCoreApplication::processEvents();
  QTest::qWait(60);
  EXPECT_TRUE(
      page.summaryText().contains(QStringLiteral("Ladder's best (Vulkan on the CPU): <b>40 %</b> of measured peak")))
      << page.summaryText().toStdString();
  const QString texts = plotTexts(page);
  EXPECT_TRUE(texts.contains(QStringLiteral("40 % of measured peak"))) << texts.toStdString();  // the smem bar
  EXPECT_TRUE(texts.contains(QStringLiteral("17 % of measured peak"))) << texts.toStdString();  // the naive bar
}

TEST(MatmulPage, NoMeasuredPeakMeansNoShareOfOne) {
  AppContext ctx(noGpu());
  MatmulPage page(ctx);
  page.initialize();
  ctx.results().addRecording(QStringLiteral("/tmp/lavapipe.json"), lavapipeLadder(0));
  QCoreApplication::processEvents();
  QTest::qWait(60);
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("Ladder's best (Vulkan on the CPU): peak not measured")))
      << page.summaryText().toStdString();
  EXPECT_FALSE(plotTexts(page).contains(QStringLiteral("of measured peak"))) << plotTexts(page).toStdString();
}

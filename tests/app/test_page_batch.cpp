// The batch-size sweep offscreen: the lesson's intensities, a tiny sweep on the CPU that either marks a crossover
// or says why none was found, and the model's ridge beside it.
#include "app_context.h"
#include "gpulab/models/gemm_model.hpp"
#include "pages/batch/batch_page.h"
#include "widgets/roofline_plot.h"
#include "widgets/run_bar.h"
#include "gpulab/page_plans.hpp"
#include "qcustomplot.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTableWidget>
#include <QTest>
#include <gtest/gtest.h>

#include <set>

namespace {
void waitIdle(AppContext& ctx, int ms) {
  QElapsedTimer t;
  t.start();
  while (ctx.runner().isBusy() && t.elapsed() < ms) {
    ctx.runner().waitForIdle(50);
    QCoreApplication::processEvents();
  }
  for (int i = 0; i < 10; ++i) QCoreApplication::processEvents();
}
}  // namespace

TEST(BatchPage, LessonIntensities) {
  // The lesson's gpu_numbers.py: FP16, d = 4096.
  EXPECT_NEAR(gpulab::models::arithmetic_intensity(1, 4096, 4096, 2), 1.0, 0.05);
  EXPECT_NEAR(gpulab::models::arithmetic_intensity(256, 4096, 4096, 2), 227.6, 0.05);
  EXPECT_DOUBLE_EQ(gpulab::models::layer_bytes(256, 4096, 4096, 2), 2.0 * (256 * 4096 + 4096.0 * 4096 + 256 * 4096));
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  BatchPage page(ctx);
  page.initialize();
  const LessonContent lesson = page.lesson();
  ASSERT_GE(lesson.exercises.size(), 2);
  EXPECT_NEAR(lesson.exercises[0].compute(), 227.6, 0.05);
  EXPECT_NEAR(lesson.exercises[1].compute(), 1.0, 0.05);
  EXPECT_GE(lesson.questions.size(), 2);
}

TEST(BatchPage, ControlsDefineTheSweep) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  BatchPage page(ctx);
  page.initialize();
  EXPECT_EQ(page.dIn(), 4096);
  EXPECT_EQ(page.precision(), gpulab::Precision::fp32);
  EXPECT_EQ(page.batches().size(), 11);  // 1 … 1024
  page.setMaxBatch(64);
  EXPECT_EQ(page.batches().back(), 64);
  page.setBatchList(QStringLiteral("3, 1, 100; 3 x 0"));
  EXPECT_EQ(page.batches(), (QVector<long long>{1, 3, 100}));
  page.setBatchList(QString());
  page.setPrecision(gpulab::Precision::fp8);  // not on a CPU: ignored
  EXPECT_EQ(page.precision(), gpulab::Precision::fp32);
  page.setPrecision(gpulab::Precision::fp64);
  EXPECT_EQ(page.precision(), gpulab::Precision::fp64);
}

TEST(BatchPage, TinySweepMarksACrossoverOrSaysWhyNot) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  BatchPage page(ctx);
  page.initialize();
  page.setDims(256, 256);
  page.setMaxBatch(256);
  page.run();
  waitIdle(ctx, 120000);
  ASSERT_FALSE(ctx.runner().isBusy());
  ASSERT_EQ(page.sweep().size(), 9);  // 1 … 256
  for (const auto& s : page.sweep()) {
    EXPECT_GT(s.flopsPerS, 0);
    EXPECT_NEAR(s.intensity, gpulab::models::arithmetic_intensity(double(s.batch), 256, 256, 4), 1e-9);
    EXPECT_DOUBLE_EQ(s.bytes, gpulab::models::layer_bytes(double(s.batch), 256, 256, 4));
  }
  EXPECT_GT(page.bandwidth(), 1e8);  // the triad measured in the sweep
  EXPECT_GT(page.modelRidge(), 0);
  EXPECT_EQ(page.roofline()->points().size(), 9);
  const QString text = page.crossoverText();
  if (page.crossoverFound()) {
    EXPECT_GE(page.crossoverBatch(), 2);
    EXPECT_TRUE(text.contains(QStringLiteral("B = "))) << text.toStdString();
  } else {
    EXPECT_TRUE(text.startsWith(QStringLiteral("No crossover found: "))) << text.toStdString();
    EXPECT_GT(text.size(), 22);
  }
  ASSERT_EQ(page.plots().size(), 2);
  const QString csv = page.plots().front().csv();
  EXPECT_EQ(csv.count(QStringLiteral(",measured here,")), 9) << csv.toStdString();  // one row per batch size
}

TEST(BatchPage, DefaultPlanIsTheBenchSuite) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  BatchPage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("batch", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_EQ(fromPage.size(), 12u);  // the triad, then B = 1 … 1024
  page.setMaxBatch(64);             // other controls are another plan
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_NE(fromPage, fromSuite);
}

TEST(BatchPage, TheBundledRecordingDrawsOnlyItsBatchSweep) {
  // Before plans, the bundled recording held the matmul suite's naive and one-thread GEMMs at 32×4096×4096 too:
  // drawn into the sweep they made a 300× dip at B = 32.
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  const QString recording = QDir::cleanPath(
      QStringLiteral(GPULAB_TEST_DATA_DIR "/../../resources/recordings/cpu-amd-epyc-2vcpu-vm-2026-12-01.json"));
  QString error;
  ASSERT_TRUE(ctx.openRecording(recording, &error)) << error.toStdString();
  BatchPage page(ctx);
  page.initialize();
  page.recordingsChanged();
  for (int i = 0; i < 10; ++i) QCoreApplication::processEvents();
  QCPGraph* recorded = nullptr;
  for (int i = 0; i < page.sweepPlot()->graphCount(); ++i)
    if (page.sweepPlot()->graph(i)->name().contains(QStringLiteral("AMD EPYC, 2026-12-01"))) recorded = page.sweepPlot()->graph(i);
  ASSERT_NE(recorded, nullptr);
  ASSERT_EQ(recorded->dataCount(), 11);  // B = 1 … 1024, one point each
  double slowest = 1e30;
  for (auto it = recorded->data()->constBegin(); it != recorded->data()->constEnd(); ++it) slowest = std::min(slowest, it->value);
  EXPECT_GT(slowest, 5e9);  // the one-row GEMM at ~7 GFLOP/s is the slowest, never the naive loop's 0.26
}

namespace {
// The sweep's "of peak" column (the table's last), one cell per batch size.
QStringList peakColumn(BatchPage& page) {
  QStringList out;
  auto* table = page.findChild<QTableWidget*>();
  if (!table) return out;
  for (int r = 0; r < table->rowCount(); ++r) out << (table->item(r, 7) ? table->item(r, 7)->text() : QString());
  return out;
}
}  // namespace

TEST(BatchPage, EachPointIsAShareOfItsDevicesMeasuredPeakOrSaysNone) {
  // Issue 27: the share is of the FMA peak measured here on the same device (a roofs result in the store); with
  // none measured the column says "–", never a share of something else.
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  BatchPage page(ctx);
  page.initialize();
  page.setDims(64, 64);
  page.setMaxBatch(4);
  page.run();
  waitIdle(ctx, 120000);
  ASSERT_EQ(page.sweep().size(), 3);
  EXPECT_EQ(peakColumn(page), (QStringList{QStringLiteral("–"), QStringLiteral("–"), QStringLiteral("–")}));

  // The CPU's FP32 FMA peak, as the roofs suite records it: a test value of 10 GFLOP/s, so the tiny layer's points
  // are sizeable shares of it.
  gpulab::Result peak;
  peak.experiment = gpulab::experiment_name::peak;
  peak.plan = "roofs";
  peak.backend = "cpu";
  peak.variant = "fma";
  peak.precision = gpulab::Precision::fp32;
  peak.provenance = ctx.cpu().provenance();
  peak.check.passed = true;
  peak.check.checked = 64;
  peak.flops = 1e10;
  peak.stats.median_s = peak.stats.min_s = 1.0;
  peak.stats.n = 3;
  peak.gflops = 10;
  ctx.results().addMeasured(peak);
  gpulab::Result otherDevice = peak;  // another CPU's peak never counts
  otherDevice.provenance["device"] = "Some Other CPU";
  otherDevice.gflops = 1e6;  // were it taken, every share would read 0.0 %
  ctx.results().addMeasured(otherDevice);
  page.run();
  waitIdle(ctx, 120000);
  ASSERT_EQ(page.sweep().size(), 3);
  const QStringList cells = peakColumn(page);
  ASSERT_EQ(cells.size(), 3);
  for (int i = 0; i < 3; ++i) {
    const double expect = 100 * page.sweep()[i].flopsPerS / 1e10;
    if (expect > 110) EXPECT_EQ(cells[i], QStringLiteral("above"));  // past the noise: the peak was measured low
    else
      EXPECT_EQ(cells[i], QStringLiteral("%1 %").arg(expect < 10 ? QString::number(expect, 'f', 1)
                                                                  : QString::number(expect, 'f', 0)))
          << cells[i].toStdString();
  }
  if (const QString dir = qEnvironmentVariable("GPULAB_SHOT_DIR"); !dir.isEmpty()) {
    page.resize(1366, 768);
    page.show();
    QTest::qWait(200);
    page.grab().save(dir + QStringLiteral("/batch-peak-share.png"));
    if (auto* table = page.findChild<QTableWidget*>()) {
      table->resize(700, 200);
      table->grab().save(dir + QStringLiteral("/batch-peak-share-table.png"));
    }
  }
}

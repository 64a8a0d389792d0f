// The predict-then-check exercises (issue 14, "Exercises and the precision page"): exact answers are exact and
// print as whole numbers; an exercise that reads a run is judged against that run and says what to run while
// there is none; the 24 GB card's FP32 half; the precision page's datasheet throughput of every format without a
// GPU; the roofline page opens on the lesson's H100 FP16 roof. And the many-GPUs page on a 1366×768 projector.
#include "app_test_support.h"
#include "main_window.h"
#include "pages/decode/decode_page.h"
#include "pages/multigpu/multigpu_page.h"
#include "pages/precision/precision_page.h"
#include "pages/roofline/roofline_page.h"
#include "pages/vram/vram_page.h"
#include "widgets/lesson_panel.h"
#include "widgets/parallelism_view.h"
#include "qcustomplot.h"

#include <QCoreApplication>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <gtest/gtest.h>

#include <cmath>

using gpulab::Precision;

namespace {

void settle() {
  QTest::qWait(60);  // pages redraw 30 ms after the last change
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

// A measured decode chain step at one batch size, as DecodePage::run() stores it.
gpulab::Result chainStep(double batch, double seconds) {
  gpulab::Result r;
  r.experiment = "layer_chain";
  r.backend = "cpu";
  r.precision = Precision::fp32;
  r.params = {{"batch", batch}, {"layers", 32}, {"params_per_layer", 2e8}, {"weight_bytes", 32 * 2e8 * 4}};
  r.flops = 2 * 32 * 2e8 * batch;
  r.bytes = 32 * 2e8 * 4;
  r.stats.median_s = r.stats.min_s = r.stats.max_s = r.stats.mean_s = seconds;
  r.stats.n = 5;
  r.check.passed = true;
  gpulab::finalize_rates(r);
  return r;
}

gpulab::Result cpuResult(const char* experiment, Precision p, double gflops, double gbps) {
  gpulab::Result r;
  r.experiment = experiment;
  r.backend = "cpu";
  r.variant = std::string(experiment) == "bandwidth" ? "triad" : "blas";
  r.precision = p;
  r.params = {{"bytes", double(256 << 20)}, {"m", 1024}, {"n", 1024}, {"k", 1024}};
  r.stats.median_s = r.stats.min_s = r.stats.max_s = r.stats.mean_s = 0.01;
  r.stats.n = 5;
  r.check.passed = true;
  r.gflops = gflops;
  r.gbps = gbps;
  return r;
}

int exerciseIndex(const LessonContent& c, const char* promptPart) {
  for (int i = 0; i < c.exercises.size(); ++i)
    if (c.exercises[i].prompt.contains(QString::fromUtf8(promptPart))) return i;
  return -1;
}

}  // namespace

TEST(Exercises, ToleranceZeroMeansExact) {
  using V = LessonPanel::Verdict;
  // The lesson's 131,072 cells on 8 workers: 16,384 rounds, and 16,000 is not it (it was "right" at a silent 5 %).
  EXPECT_EQ(LessonPanel::judge(16384, 16384, 0.0), V::Right);
  EXPECT_EQ(LessonPanel::judge(16000, 16384, 0.0), V::Close);
  EXPECT_EQ(LessonPanel::judge(47, 48, 0.0), V::Close);
  EXPECT_EQ(LessonPanel::judge(20000, 16384, 0.0), V::Off);
  EXPECT_EQ(LessonPanel::judge(0.1 + 0.2, 0.3, 0.0), V::Right);  // floating-point last bits do not count
  EXPECT_EQ(LessonPanel::judge(16000, 16384, 0.05), V::Right);   // a stated tolerance still applies
}

TEST(Exercises, WholeNumbersPrintWhole) {
  LessonContent content;
  content.exercises << LessonExercise{QStringLiteral("Rounds for 4,096 workers?"), QStringLiteral("rounds"),
                                     [] { return 32.0; }, QStringLiteral("131,072 ÷ 4,096"), 0.0}
                    << LessonExercise{QStringLiteral("Rounds for 8 workers?"), QStringLiteral("rounds"),
                                      [] { return 16384.0; }, QStringLiteral("131,072 ÷ 8"), 0.0}
                    << LessonExercise{QStringLiteral("Speed-up?"), QStringLiteral("×"), [] { return 5.9312; },
                                      QStringLiteral("Amdahl"), 0.05};
  LessonPanel panel(content);
  panel.setPrediction(0, QStringLiteral("32"));
  panel.check(0);
  EXPECT_EQ(panel.verdict(0), LessonPanel::Verdict::Right);
  EXPECT_TRUE(panel.resultText(0).contains(QStringLiteral("<b>32 rounds</b>"))) << panel.resultText(0).toStdString();
  EXPECT_FALSE(panel.resultText(0).contains(QStringLiteral("32.0"))) << panel.resultText(0).toStdString();
  EXPECT_TRUE(panel.resultText(0).contains(QStringLiteral("you said 32 rounds"))) << panel.resultText(0).toStdString();
  panel.setPrediction(1, QStringLiteral("16,000"));
  panel.check(1);
  EXPECT_EQ(panel.verdict(1), LessonPanel::Verdict::Close);
  EXPECT_TRUE(panel.resultText(1).contains(QStringLiteral("16,384 rounds"))) << panel.resultText(1).toStdString();
  panel.setPrediction(2, QStringLiteral("5.9"));
  panel.check(2);
  EXPECT_TRUE(panel.resultText(2).contains(QStringLiteral("5.93"))) << panel.resultText(2).toStdString();
}

TEST(Exercises, NoAnswerYetSaysWhatToRunAndIsNotKept) {
  bool ran = false;
  LessonExercise ex{QStringLiteral("After the run: how much?"), QStringLiteral("×"),
                    [&ran] { return ran ? 6.0 : std::nan(""); }, QStringLiteral("read from the run"), 0.1};
  ex.measured = true;
  ex.unavailable = QStringLiteral("Run it first, then Check.");
  LessonContent content;
  content.exercises << ex;
  LessonPanel panel(content);
  panel.setPrediction(0, QStringLiteral("6"));
  panel.check(0);
  EXPECT_EQ(panel.verdict(0), LessonPanel::Verdict::Invalid);
  EXPECT_EQ(panel.resultText(0), QStringLiteral("Run it first, then Check."));
  ran = true;  // the run happens; the next Check reads it (the missing answer was not kept)
  panel.check(0);
  EXPECT_EQ(panel.verdict(0), LessonPanel::Verdict::Right);
  EXPECT_DOUBLE_EQ(panel.computedAnswer(0), 6.0);
}

TEST(Exercises, DecodeBatchingIsJudgedAgainstTheRun) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  const LessonContent c = page.lesson();
  const int i = exerciseIndex(c, "with 8 users");
  ASSERT_GE(i, 0);
  const LessonExercise& ex = c.exercises[i];
  EXPECT_TRUE(ex.measured);
  EXPECT_FALSE(ex.unavailable.isEmpty());
  // No run: no answer (it used to be a constant 8).
  EXPECT_TRUE(std::isnan(ex.compute()));
  // A run where 8 users take twice as long a step as one: 8 × (1 / 2) = 4× the total.
  ctx.results().addMeasured(chainStep(1, 0.010));
  ctx.results().addMeasured(chainStep(2, 0.011));
  ctx.results().addMeasured(chainStep(4, 0.013));
  ctx.results().addMeasured(chainStep(8, 0.020));
  settle();
  EXPECT_NEAR(ex.compute(), 4.0, 1e-9);
  EXPECT_NEAR(page.batchingGain(8), 4.0, 1e-9);
  LessonPanel panel(c);
  panel.setPrediction(i, QStringLiteral("8"));
  panel.check(i);
  EXPECT_EQ(panel.verdict(i), LessonPanel::Verdict::Off) << panel.resultText(i).toStdString();
  panel.setPrediction(i, QStringLiteral("4"));
  panel.check(i);
  EXPECT_EQ(panel.verdict(i), LessonPanel::Verdict::Right);
}

TEST(Exercises, RooflineRidgeReadsOnlyMeasurements) {
  AppContext ctx(noGpu());
  RooflinePage page(ctx);
  page.initialize();
  const LessonContent c = page.lesson();
  const int i = exerciseIndex(c, "this CPU's FP32 ridge");
  ASSERT_GE(i, 0);
  const LessonExercise& ex = c.exercises[i];
  EXPECT_TRUE(ex.measured);  // the panel offers "Measure again"
  EXPECT_FALSE(ex.unavailable.isEmpty());
  EXPECT_TRUE(std::isnan(ex.compute()));  // no stand-in (the FMA peak ÷ 17 GB/s) before anything is measured
  EXPECT_FALSE(ex.explanation.contains(QStringLiteral("17 GB/s")));
  ctx.results().addMeasured(cpuResult("bandwidth", Precision::fp32, 0, 20));
  EXPECT_TRUE(std::isnan(ex.compute()));  // a bandwidth alone is not a ridge
  ctx.results().addMeasured(cpuResult("gemm", Precision::fp32, 300, 0));
  EXPECT_NEAR(ex.compute(), 15.0, 1e-9);  // 300 GFLOP/s ÷ 20 GB/s
  LessonPanel panel(c);
  int again = 0;
  for (const QPushButton* b : panel.findChildren<QPushButton*>()) again += b->text() == QStringLiteral("Measure again");
  EXPECT_EQ(again, 1);
}

TEST(Exercises, RooflineOpensOnTheLessonsH100Fp16Roof) {
  AppContext ctx(noGpu());
  RooflinePage page(ctx);
  page.initialize();
  EXPECT_EQ(page.precision(), Precision::fp16);
  // The datasheet ridge in the summary is H100 SXM FP16's ≈ 295 FLOP/B, not FP32's ≈ 20.
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("H100 SXM FP16"))) << page.summaryText().toStdString();
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("295"))) << page.summaryText().toStdString();
}

TEST(Exercises, VramFp32OnThe24GbCard) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  const LessonContent c = page.lesson();
  const int i = exerciseIndex(c, "FP32 on the same 24 GB card");
  ASSERT_GE(i, 0);
  EXPECT_NEAR(c.exercises[i].compute(), 4.0, 1e-9);  // 28 GB of weights against 24 GB
  EXPECT_TRUE(c.exercises[i].explanation.contains(QStringLiteral("28 GB")));
}

TEST(Exercises, PrecisionPageShowsEveryFormatsDatasheetWithoutAGpu) {
  AppContext ctx(noGpu());
  PrecisionPage page(ctx);
  page.initialize();
  page.resize(1366, 700);  // labels are cut to the panel's width
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  settle();
  page.setDatasheetCard(QStringLiteral("H100 SXM"));
  EXPECT_EQ(page.datasheetCard(), QStringLiteral("H100 SXM"));  // no GPU here: the lesson's card
  // Every format has the card's dense figure, beside the two the CPU runs.
  const std::pair<Precision, double> h100[] = {{Precision::fp64, 67e12},   {Precision::fp32, 66.9e12},
                                               {Precision::tf32, 494.7e12}, {Precision::fp16, 989.4e12},
                                               {Precision::bf16, 989.4e12}, {Precision::int8, 1978.9e12},
                                               {Precision::fp8, 1978.9e12}};
  for (auto [p, flops] : h100) EXPECT_DOUBLE_EQ(page.row(p).datasheetFlops, flops) << gpulab::display_name(p);
  const QStringList labels = page.throughputLabels();
  for (const char* v : {"67.0 TFLOP/s", "66.9 TFLOP/s", "495 TFLOP/s", "989 TFLOP/s", "1.98 POP/s", "1.98 PFLOP/s"})
    EXPECT_TRUE(labels.contains(QString::fromUtf8(v))) << v << ": " << labels.join(QLatin1Char('|')).toStdString();
  // The tensor-core point in words.
  EXPECT_TRUE(page.speedText().contains(QStringLiteral("15× its FP32"))) << page.speedText().toStdString();
  EXPECT_TRUE(page.speedText().contains(QStringLiteral("tensor cores"))) << page.speedText().toStdString();
  // In the CSV behind the plot, with its card.
  EXPECT_TRUE(page.plots().front().csv().contains(QStringLiteral(",9.894e+14,"))) << page.plots().front().csv().toStdString();
  EXPECT_TRUE(page.plots().front().csv().contains(QStringLiteral("\"H100 SXM\"")));
  // Another card: a V100 has no TF32, BF16, INT8 or FP8 path, and says so.
  page.setDatasheetCard(QStringLiteral("V100 SXM2 32GB"));
  EXPECT_EQ(page.row(Precision::tf32).datasheetFlops, 0);
  EXPECT_DOUBLE_EQ(page.row(Precision::fp16).datasheetFlops, 125e12);
  EXPECT_EQ(page.throughputLabels().filter(QStringLiteral("datasheet: no")).size(), 4);  // TF32, BF16, INT8, FP8
  EXPECT_TRUE(page.speedText().contains(QStringLiteral("V100 SXM2 32GB"))) << page.speedText().toStdString();
  EXPECT_TRUE(page.speedText().contains(QStringLiteral("8× its FP32"))) << page.speedText().toStdString();
}

TEST(Exercises, ManyGpusFitsA1366x768Projector) {
  // A previous look found the GPU boxes squashed and the link chart cut off at the bottom in projector mode.
  AppContext ctx(noGpu());
  MainWindow w(ctx);
  w.resize(1366, 768);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.setProjectorMode(true, /*remember=*/false);
  auto* inWindow = qobject_cast<MultiGpuPage*>(w.pageById(QStringLiteral("multigpu")));
  ASSERT_NE(inWindow, nullptr);
  w.showPageIndex(int(w.pages().indexOf(inWindow)));
  QTest::qWait(150);
  settle();
  // Nothing forces the window past a 1366×768 screen (it used to need 800 px and more).
  EXPECT_LE(w.minimumSizeHint().height(), 768);
  // The offscreen screen is not 1366×768: lay the same page out at the size it gets there (the window less
  // the menu bar; projector mode hides the status bar).
  const int menu = inWindow->mapTo(&w, QPoint(0, 0)).y();
  MultiGpuPage standalone(ctx);
  standalone.initialize();
  MultiGpuPage* page = &standalone;
  page->resize(1366, 768 - menu);
  page->show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(page));
  QTest::qWait(100);
  settle();
  EXPECT_LE(page->minimumSizeHint().height(), page->height());
  ParallelismView* view = page->view();
  QCustomPlot* plot = nullptr;
  for (const PlotExport& e : page->plots())
    if (e.plot) plot = e.plot;
  ASSERT_NE(plot, nullptr);
  // Whatever is shown lies inside the page, above the results strip.
  auto below = [page](QWidget* wdg) {
    const QRect r(wdg->mapTo(page, QPoint(0, 0)), wdg->size());
    int strip = page->height();
    for (QLabel* l : page->findChildren<QLabel*>())
      if (l->isVisible() && l->text().contains(QStringLiteral("ring all-reduce over")))
        strip = std::min(strip, l->mapTo(page, QPoint(0, 0)).y());
    return strip - r.bottom();
  };
  auto checkPicture = [&] {
    ASSERT_TRUE(view->isVisible());
    // The boxes get the room their text needs (the GPU's name and four layer rows).
    EXPECT_GE(view->height(), view->minimumSizeHint().height());
    EXPECT_GE(view->boxHeight(), view->neededBoxHeight());
    EXPECT_GT(below(view), 0);
  };
  auto checkChart = [&] {
    ASSERT_TRUE(plot->isVisible());
    EXPECT_GE(plot->height(), plot->minimumHeight());
    EXPECT_GT(below(plot), 0);
  };
  if (page->visualTabbed()) {
    // Too short for both at a projector's fonts: they take turns, each with the whole height.
    page->showLinkChart(false);
    settle();
    checkPicture();
    EXPECT_FALSE(plot->isVisible());
    page->showLinkChart(true);
    settle();
    checkChart();
    EXPECT_FALSE(view->isVisible());
  } else {
    checkPicture();
    checkChart();
  }
  // On a 1920×1080 screen in the normal theme both are shown at once.
  w.setProjectorMode(false, /*remember=*/false);
  page->resize(1920, 1080 - 80);
  QTest::qWait(150);
  settle();
  EXPECT_FALSE(page->visualTabbed());
  EXPECT_TRUE(view->isVisible());
  EXPECT_TRUE(plot->isVisible());
  EXPECT_GE(view->boxHeight(), view->neededBoxHeight());
}

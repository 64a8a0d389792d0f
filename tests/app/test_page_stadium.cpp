// The professor-and-stadium page: the rounds counter shows the lesson's numbers, the animation follows the
// clock and stops while hidden, and a slow clerk leaves the students idle.
#include "app_context.h"
#include "pages/stadium/stadium_page.h"
#include "widgets/stadium_view.h"

#include <QComboBox>
#include <QSlider>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>

#include "gpulab/page_plans.hpp"

#include <set>

namespace {

AppContext::Options noGpu() {
  AppContext::Options o;
  o.loadCuda = false;  // the page must work on a laptop; GPU-specific rows are covered elsewhere
  return o;
}

}  // namespace

TEST(StadiumPage, WorkersSliderGivesTheLessonsRounds) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  ASSERT_EQ(page.cells(), 131072);

  // Moving the slider itself (not a setter) to the marks: they snap exactly to 8 and 4,096.
  page.workersSlider()->setValue(StadiumPage::positionForWorkers(8));
  EXPECT_EQ(page.workers(), 8);
  EXPECT_EQ(page.stadiumRounds(), 16384);
  EXPECT_TRUE(page.roundsText().contains(QStringLiteral("16,384"))) << page.roundsText().toStdString();

  page.workersSlider()->setValue(StadiumPage::positionForWorkers(4096));
  EXPECT_EQ(page.workers(), 4096);
  EXPECT_EQ(page.stadiumRounds(), 32);
  EXPECT_TRUE(page.roundsText().contains(QStringLiteral("<b>32</b>"))) << page.roundsText().toStdString();

  // Batch 1: 4,096 cells.
  page.setBatch(1);
  EXPECT_EQ(page.cells(), 4096);
  page.setWorkers(8);
  EXPECT_TRUE(page.roundsText().contains(QStringLiteral("<b>512</b>"))) << page.roundsText().toStdString();
  page.setWorkers(4096);
  EXPECT_TRUE(page.roundsText().contains(QStringLiteral("stadium <b>1</b>"))) << page.roundsText().toStdString();
  EXPECT_EQ(page.professorRounds(), 4096);

  // The view agrees with the counter.
  EXPECT_EQ(page.view()->stadium().roundsTotal, 1);
}

TEST(StadiumPage, SliderCoversOneToTenThousandLogarithmically) {
  EXPECT_EQ(StadiumPage::workersFromPosition(0), 1);
  EXPECT_EQ(StadiumPage::workersFromPosition(StadiumPage::kWorkerSteps), 10000);
  for (int pos = 1; pos <= StadiumPage::kWorkerSteps; ++pos)
    EXPECT_GE(StadiumPage::workersFromPosition(pos), StadiumPage::workersFromPosition(pos - 1));
}

TEST(StadiumView, LaneModelMatchesRoundsAndClerk) {
  // No clerk limit: 32 rounds of 1 s each.
  auto s = StadiumView::laneAt(131072, 4096, 1.0, 0, 0.5);
  EXPECT_EQ(s.roundsTotal, 32);
  EXPECT_DOUBLE_EQ(s.finishS, 32.0);
  EXPECT_EQ(s.done, 0);
  EXPECT_EQ(s.busyHi - s.busyLo, 4096);
  EXPECT_FALSE(s.waiting);
  s = StadiumView::laneAt(131072, 4096, 1.0, 0, 10.2);
  EXPECT_EQ(s.roundsDone, 10);
  EXPECT_EQ(s.done, 40960);
  s = StadiumView::laneAt(131072, 4096, 1.0, 0, 100);
  EXPECT_TRUE(s.finished());
  // A clerk delivering 2,048 sheets/s: each round of 4,096 takes 2 s, the first second spent waiting.
  s = StadiumView::laneAt(131072, 4096, 1.0, 2048, 0.5);
  EXPECT_DOUBLE_EQ(s.roundS, 2.0);
  EXPECT_TRUE(s.waiting);
  s = StadiumView::laneAt(131072, 4096, 1.0, 2048, 1.5);
  EXPECT_FALSE(s.waiting);
  EXPECT_NEAR(s.roundFraction, 0.5, 1e-12);
}

TEST(StadiumPage, AnimationFollowsTheClockAndStopsWhileHidden) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  StadiumView* v = page.view();
  EXPECT_TRUE(v->isAnimating());
  const double t0 = v->simTime();
  QTest::qWait(250);
  const double t1 = v->simTime();
  EXPECT_GT(t1, t0);
  // Time, not frames: ~0.25 s on screen is ~0.25 × scale of simulated time (generous bounds for a busy CI box).
  const double scale = v->params().simPerScreenS;
  EXPECT_GT((t1 - t0) / scale, 0.15);
  EXPECT_LT((t1 - t0) / scale, 2.0);
  EXPECT_GT(v->stadium().done + (v->stadium().busyHi - v->stadium().busyLo), 0);

  page.hide();
  EXPECT_FALSE(v->isAnimating());
  const double t2 = v->simTime();
  QTest::qWait(150);
  EXPECT_DOUBLE_EQ(v->simTime(), t2);

  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  EXPECT_TRUE(v->isAnimating());
  QTest::qWait(100);
  EXPECT_GT(v->simTime(), t2);
  // Resuming continues from where it stopped instead of jumping ahead by the hidden time.
  EXPECT_LT((v->simTime() - t2) / scale, 1.5);
}

TEST(StadiumPage, SlowClerkLeavesStudentsIdle) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  EXPECT_DOUBLE_EQ(page.idleShare(), 0.0);  // default: no clerk limit

  // Slider positions below the students' demand give a non-zero idle share.
  QSlider* clerk = page.clerkSlider();
  clerk->setValue(clerk->maximum() / 3);
  EXPECT_GT(page.idleShare(), 0.0);
  EXPECT_FALSE(page.idleText().contains(QStringLiteral(">0 %<"))) << page.idleText().toStdString();
  EXPECT_TRUE(page.view()->stadium().waiting || page.view()->stadium().roundS > page.view()->params().studentCellS);

  page.setClerkRate(0.5 * page.studentsDemandRate());
  EXPECT_NEAR(page.idleShare(), 0.5, 1e-9);
  EXPECT_TRUE(page.idleText().contains(QStringLiteral("50 %"))) << page.idleText().toStdString();

  clerk->setValue(clerk->maximum());  // "no limit"
  EXPECT_DOUBLE_EQ(page.idleShare(), 0.0);
}

TEST(StadiumPage, MeasuredRatesReplaceTheModel) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  EXPECT_TRUE(page.rates().model);
  EXPECT_TRUE(page.scaleText().contains(QStringLiteral("model"))) << page.scaleText().toStdString();
  page.run();
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QCoreApplication::processEvents();
  QTest::qWait(50);
  ASSERT_FALSE(page.rates().model) << page.rateSource()->currentText().toStdString();
  EXPECT_GT(page.rates().professorGflops, 0);
  EXPECT_GT(page.rates().stadiumGflops, page.rates().professorGflops);
  EXPECT_TRUE(page.scaleText().contains(QStringLiteral("measured"))) << page.scaleText().toStdString();
  // Rounds are a property of cells and workers, not of the pace.
  page.setWorkers(8);
  EXPECT_EQ(page.stadiumRounds(), 16384);
}

TEST(StadiumPage, LessonExercisesGiveTheLessonsNumbers) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  const LessonContent c = page.lesson();
  EXPECT_FALSE(c.intro.isEmpty());
  EXPECT_GE(c.questions.size(), 2);
  ASSERT_GE(c.exercises.size(), 4);
  EXPECT_DOUBLE_EQ(c.exercises[0].compute(), 16384);
  EXPECT_DOUBLE_EQ(c.exercises[1].compute(), 32);
  EXPECT_DOUBLE_EQ(c.exercises[2].compute(), 512);
  EXPECT_DOUBLE_EQ(c.exercises[3].compute(), 1);
  const auto plots = page.plots();
  ASSERT_EQ(plots.size(), 1);
  const QString csv = plots[0].csv();
  EXPECT_TRUE(csv.startsWith(QStringLiteral("workers,cells,stadium_rounds")));
  EXPECT_TRUE(csv.contains(QStringLiteral("\n8,131072,16384,")));
  EXPECT_TRUE(csv.contains(QStringLiteral("\n4096,131072,32,")));
}

TEST(StadiumView, ZoomGoesFromTilesToCells) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  QTest::qWait(300);
  StadiumView* v = page.view();
  const QImage whole = v->grab().toImage();
  v->setZoom(1.0);
  EXPECT_DOUBLE_EQ(v->zoom(), 1.0);
  QTest::qWait(50);
  const QImage cells = v->grab().toImage();
  EXPECT_NE(whole, cells);
  // Set GPULAB_SHOT_DIR to look at the two pictures.
  if (const QString dir = qEnvironmentVariable("GPULAB_SHOT_DIR"); !dir.isEmpty()) {
    whole.save(dir + QStringLiteral("/stadium-whole.png"));
    cells.save(dir + QStringLiteral("/stadium-cells.png"));
  }
  v->setZoom(0.0);
  EXPECT_DOUBLE_EQ(v->zoom(), 0.0);
}

TEST(StadiumView, SlowClerkMakesStudentsWait) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  page.setClerkRate(0.25 * page.studentsDemandRate());  // rounds take 4× as long, 3/4 of it waiting
  EXPECT_NEAR(page.idleShare(), 0.75, 1e-9);
  bool sawWaiting = false;
  for (int i = 0; i < 40 && !sawWaiting; ++i) {
    QTest::qWait(20);
    sawWaiting = page.view()->stadium().waiting;
  }
  EXPECT_TRUE(sawWaiting);
  if (const QString dir = qEnvironmentVariable("GPULAB_SHOT_DIR"); !dir.isEmpty())
    page.grab().save(dir + QStringLiteral("/stadium-clerk.png"));
}

TEST(StadiumPage, DefaultPlanIsTheBenchSuite) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("stadium", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_EQ(fromPage.size(), 2u);  // the naive loop and all-core BLAS at 512³
}

TEST(StadiumPage, OnAProjectorTheClerkAndPaceTakeTheirOwnSideTab) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  page.initialize();
  auto* side = page.findChild<QTabWidget*>(QStringLiteral("pageSide"));
  ASSERT_TRUE(side);
  const int normalTabs = side->count();  // Controls, Lesson
  page.applyTheme(Theme::projector(true));
  EXPECT_EQ(side->count(), normalTabs + 1);
  EXPECT_EQ(side->tabText(normalTabs), QStringLiteral("Clerk"));
  EXPECT_TRUE(side->widget(normalTabs)->isAncestorOf(page.clerkSlider()));
  EXPECT_TRUE(side->widget(normalTabs)->isAncestorOf(page.rateSource()));  // the pace source moved with it
  page.applyTheme(Theme::normal());
  EXPECT_EQ(side->count(), normalTabs);
  EXPECT_TRUE(side->widget(0)->isAncestorOf(page.clerkSlider()));  // back among the controls
}

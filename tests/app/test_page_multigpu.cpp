// The many-GPUs page: the animation runs only while shown, the modes switch, the catalogue links are there and
// labelled as datasheet, and the ring all-reduce model gives the expected times.
#include "app_test_support.h"
#include "pages/multigpu/multigpu_page.h"
#include "widgets/parallelism_view.h"

#include <QTest>
#include <gtest/gtest.h>

#include "gpulab/page_plans.hpp"

#include <set>

TEST(MultiGpuPage, RingAllReduceModel) {
  EXPECT_NEAR(MultiGpuPage::ringAllReduceSeconds(14e9, 8, 900e9), 2.0 * 7 / 8 * 14e9 / 900e9, 1e-12);
  EXPECT_NEAR(MultiGpuPage::ringAllReduceSeconds(14e9, 8, 64e9) * 1e3, 382.8, 0.1);
  EXPECT_EQ(MultiGpuPage::ringAllReduceSeconds(14e9, 1, 900e9), 0);
}

TEST(MultiGpuPage, CatalogueLinks) {
  const auto links = MultiGpuPage::catalogueLinks();
  bool nvlink4 = false, pcie5 = false;
  for (const auto& l : links) {
    // Per direction, as PCIe is quoted: NVLink 4's 900 GB/s counts both directions (issue 14).
    if (l.name.contains(QStringLiteral("NVLink4")) && l.gbs == 450) nvlink4 = true;
    if (l.name.contains(QStringLiteral("PCIe Gen5")) && l.gbs == 64) pcie5 = true;
  }
  EXPECT_TRUE(nvlink4);
  EXPECT_TRUE(pcie5);
  for (int i = 1; i < links.size(); ++i) EXPECT_GE(links[i - 1].gbs, links[i].gbs);  // fastest first
}

TEST(MultiGpuPage, CalculatorAndPeerNote) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  page.setCalculator(7, 2, 8, QStringLiteral("NVLink4"));
  EXPECT_NEAR(page.allReduceSeconds(), 2.0 * 7 / 8 * 14e9 / 450e9, 1e-9) << page.calculatorText().toStdString();
  EXPECT_TRUE(page.calculatorText().contains(QStringLiteral("model"))) << page.calculatorText().toStdString();
  page.setCalculator(7, 2, 8, QStringLiteral("PCIe Gen5"));
  EXPECT_NEAR(page.allReduceSeconds(), 2.0 * 7 / 8 * 14e9 / 64e9, 1e-9);
  // No GPU: nothing to run, and the note says why and what the figures are.
  EXPECT_FALSE(page.canRun());
  EXPECT_TRUE(page.peerText().contains(QStringLiteral("Not measured here"))) << page.peerText().toStdString();
  EXPECT_TRUE(page.peerText().contains(QStringLiteral("two GPUs"))) << page.peerText().toStdString();
  EXPECT_TRUE(page.peerText().contains(QStringLiteral("datasheet"))) << page.peerText().toStdString();
  EXPECT_EQ(page.lesson().exercises.size(), 2);
}

TEST(MultiGpuPage, RecordedGpuToGpuCopiesAreReplayed) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  // A recording from a two-GPU box: three copies, the largest fastest.
  gpulab::Recording rec;
  rec.context["gpu"] = "NVIDIA H200";
  rec.context["date"] = "2026-11-30T10:00:00Z";
  for (auto [mib, gbs] : {std::pair{64.0, 300.0}, std::pair{256.0, 360.0}, std::pair{1024.0, 380.0}}) {
    gpulab::Result r;
    r.experiment = "transfer";
    r.backend = "cuda";
    r.variant = "p2p";
    r.params = {{"bytes", mib * 1048576.0}, {"pinned", 1}};
    r.check.passed = true;
    r.stats.median_s = mib * 1048576.0 / (gbs * 1e9);
    r.stats.n = 5;
    r.bytes = mib * 1048576.0;
    r.gbps = gbs;
    rec.results.push_back(r);
  }
  ctx.results().addRecording(QStringLiteral("/tmp/two-h200.json"), rec);
  QCoreApplication::processEvents();
  ASSERT_EQ(page.peerRates().size(), 3);
  // The note gives the best copy with its source; the plot's CSV carries every copy.
  EXPECT_TRUE(page.peerText().contains(QStringLiteral("380 GB/s"))) << page.peerText().toStdString();
  EXPECT_TRUE(page.peerText().contains(QStringLiteral("H200"))) << page.peerText().toStdString();
  const auto plots = page.plots();
  ASSERT_EQ(plots.size(), 2);
  const QString csv = plots[1].csv();
  EXPECT_EQ(csv.count(QStringLiteral("GPU to GPU copy")), 3) << csv.toStdString();
  // Closing the recording takes the rates away again.
  ctx.results().clearRecordings();
  QCoreApplication::processEvents();
  EXPECT_TRUE(page.peerRates().isEmpty());
  EXPECT_TRUE(page.peerText().contains(QStringLiteral("Not measured here")));
}

TEST(MultiGpuPage, AnimationRunsOnlyWhenShown) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  ParallelismView* v = page.view();
  EXPECT_FALSE(v->isAnimating());  // never shown yet
  page.resize(1200, 700);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  EXPECT_TRUE(v->isAnimating());
  const double t0 = v->time();
  QTest::qWait(120);
  EXPECT_NE(v->time(), t0);  // elapsed time moves it
  for (int m = 0; m < 3; ++m) {
    page.setMode(m);
    for (double t : {0.5, 2.0, 4.5, 6.0, 7.5}) {
      v->showTime(t);
      v->repaint();  // every phase of every mode paints without trouble
    }
  }
  EXPECT_EQ(v->mode(), ParallelismView::Mode::Pipeline);
  EXPECT_FALSE(v->caption().isEmpty());
  v->setPaused(true);
  EXPECT_FALSE(v->isAnimating());
  v->setPaused(false);
  page.hide();
  EXPECT_FALSE(v->isAnimating());
}

TEST(MultiGpuPage, DefaultPlanIsTheBenchSuite) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("multigpu", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_EQ(fromPage.size(), 1u);  // no GPU here: one note saying why
}

TEST(MultiGpuPage, OnAProjectorTheCalculatorTakesItsOwnSideTab) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  EXPECT_FALSE(page.calculatorInOwnTab());
  page.applyTheme(Theme::projector(false));
  EXPECT_TRUE(page.calculatorInOwnTab());
  page.setCalculator(70, 2, 8, QString());  // still drives the result from its tab
  EXPECT_GT(page.allReduceSeconds(), 0);
  page.applyTheme(Theme::normal());
  EXPECT_FALSE(page.calculatorInOwnTab());
}

// The PCIe page: without a GPU it says there is no PCIe hop, measures host memcpy, and still prices a token
// whose weights stream over the datasheet link.
#include "app_test_support.h"
#include "pages/pcie/pcie_page.h"
#include "plans/pcie.hpp"
#include "widgets/stacked_or_tabbed.h"

#include "qcustomplot.h"

#include "gpulab/page_plans.hpp"

#include <QApplication>
#include <QTest>
#include <gtest/gtest.h>

#include <set>

TEST(PciePage, NoGpuNoteAndDatasheetLines) {
  AppContext ctx(noGpu());
  PciePage page(ctx);
  page.initialize();
  EXPECT_TRUE(page.noteText().contains(QStringLiteral("no PCIe hop"))) << page.noteText().toStdString();
  page.setCard(QStringLiteral("H100 SXM"));
  // The link and the HBM datasheet lines are drawn even before anything is measured.
  EXPECT_GE(page.bandwidthPlot()->graphCount(), 2);
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("64.0 GB/s"))) << page.summaryText().toStdString();
}

TEST(PciePage, TokenCostWhenWeightsDoNotFit) {
  AppContext ctx(noGpu());
  PciePage page(ctx);
  page.initialize();
  page.setCard(QStringLiteral("RTX 4090"));
  page.setModel(7e9, 4.0);  // 28 GB of FP32 weights on a 24 GB card
  EXPECT_TRUE(page.tokenText().contains(QStringLiteral("slower"))) << page.tokenText().toStdString();
  EXPECT_GE(page.tokenPlot()->plottableCount(), 1);
  page.setModel(7e9, 0.5);  // INT4: 3.5 GB fits
  EXPECT_TRUE(page.tokenText().contains(QStringLiteral("fits"))) << page.tokenText().toStdString();
}

TEST(PciePage, HostMemcpySweepRunsOffscreen) {
  AppContext ctx(noGpu());
  PciePage page(ctx);
  page.initialize();
  page.setSweepSizes({64.0 * 1024, 1024.0 * 1024});
  page.run();
  ASSERT_TRUE(ctx.runner().waitForIdle(60000));
  QTest::qWait(100);  // queued results and the coalesced replot
  EXPECT_EQ(page.measuredPointCount(), 2);
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("Host memcpy here"))) << page.summaryText().toStdString();
  const auto plots = page.plots();
  ASSERT_EQ(plots.size(), 2);
  EXPECT_TRUE(plots[0].csv().contains(QStringLiteral("h2h")));
}

TEST(PciePage, DefaultPlanIsTheBenchSuite) {
  AppContext ctx(noGpu());
  PciePage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("transfer", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_FALSE(fromPage.empty());
  page.setSweepSizes({64.0 * 1024});  // other sizes are another plan
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_NE(fromPage, fromSuite);
}

TEST(StackedOrTabbed, TabsOnlyWhenBothViewsDoNotFit) {
  auto* top = new QWidget;
  auto* bottom = new QWidget;
  top->setMinimumHeight(200);
  bottom->setMinimumHeight(100);
  StackedOrTabbed column(top, bottom, QStringLiteral("top"), QStringLiteral("bottom"));
  column.resize(800, 400);
  column.relayout();
  EXPECT_FALSE(column.tabbed());
  EXPECT_GE(bottom->height(), 100);
  EXPECT_GE(top->height(), 200);
  EXPECT_LE(bottom->geometry().bottom(), 400);
  column.resize(800, 250);
  column.relayout();
  EXPECT_TRUE(column.tabbed());
  column.showBottom(true);
  EXPECT_TRUE(bottom->isVisibleTo(&column));
  EXPECT_FALSE(top->isVisibleTo(&column));
  EXPECT_GT(bottom->height(), 200);  // the whole height under the tabs
}

TEST(StackedOrTabbed, SideBySideByMinimumWidthsWhenHorizontal) {
  auto* left = new QWidget;
  auto* right = new QWidget;
  left->setMinimumWidth(400);
  right->setMinimumWidth(200);
  StackedOrTabbed row(left, right, QStringLiteral("left"), QStringLiteral("right"), 2, 1);
  row.setOrientation(Qt::Horizontal);
  row.resize(900, 300);
  row.relayout();
  EXPECT_FALSE(row.tabbed());
  EXPECT_EQ(left->geometry().top(), 0);
  EXPECT_GE(left->width(), 400);
  EXPECT_GE(right->geometry().left(), left->geometry().right());
  EXPECT_LE(right->geometry().right(), 900);
  row.resize(550, 300);
  row.relayout();
  EXPECT_TRUE(row.tabbed());
  EXPECT_TRUE(left->isVisibleTo(&row));
  EXPECT_FALSE(right->isVisibleTo(&row));
  EXPECT_EQ(left->width(), 550);
}

// A mixture of experts with its experts in host RAM (issue 28, section 2): Mixtral 8x7B FP16 on an H100 SXM, PCIe
// 5.0 x16 at 64 GB/s: 22.5 GB of active experts over the link per token, 353 ms instead of 7.70 ms, 45.8× slower;
// for the speed only to halve, at most 502 MB (1.9 %) of a token's reads may cross (tests/unit/test_models_moe.cpp).
TEST(PciePage, MixtureOfExpertsInHostRam) {
  AppContext ctx(noGpu());
  PciePage page(ctx);
  page.initialize();
  page.setCard(QStringLiteral("H100 SXM"));
  page.setMoeModel(QStringLiteral("mixtral-8x7b"), 2.0);
  const QString text = page.tokenText();
  for (const char* s : {"22.5 GB", "<b>353 ms</b> instead of 7.70 ms", "45.8×", "502 MB", "(1.9 %)"})
    EXPECT_TRUE(text.contains(QString::fromUtf8(s))) << s << " in " << text.toStdString();
  EXPECT_GE(page.tokenPlot()->plottableCount(), 1);
}

// A GPU's pinned copy names the link NVML read after it (provenance "pcie_link"): the page's summary says what the
// copy crossed, so a card in an x8 slot, or trained to an older generation, explains its own low rate.
TEST(PcieModel, TheBestPinnedCopyNamesTheLinkItCrossed) {
  auto copy = [](double gbps, const char* link) {
    gpulab::Result r;
    r.experiment = gpulab::experiment_name::transfer;
    r.plan = gpulab::plan_name::transfer;
    r.variant = "h2d";
    r.params = {{"pinned", 1}, {"bytes", 256e6}};
    r.gbps = gbps;
    r.check.passed = true;
    if (link) r.provenance["pcie_link"] = link;
    return r;
  };
  const gpulab::Result slow = copy(12.0, "Gen3 x16 (at most Gen4 x16)"), fast = copy(24.5, "Gen4 x16 (at most Gen4 x16)");
  const gpulab::Result none = copy(3.0, nullptr);
  const auto pts = pcie_model::points({{&slow, -1}, {&fast, -1}, {&none, -1}});
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[2].pcieLink, "");
  const pcie_model::Summary sum = pcie_model::summarize(pts);
  EXPECT_DOUBLE_EQ(sum.bestH2dPinned, 24.5);
  EXPECT_EQ(sum.pcieLink, "Gen4 x16 (at most Gen4 x16)");
}

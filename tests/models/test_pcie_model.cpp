// The PCIe page's model: series, best rates and the link rate from the transfer plan's copies only.
#include "pages/pcie/model/pcie_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace pcie_model;

namespace {
gpulab::Result copy(const std::string& dir, bool pinned, double bytes, double gbps,
                    std::string plan = gpulab::plan_name::transfer, std::string backend = "cuda") {
  gpulab::Result r;
  r.experiment = "transfer";
  r.plan = std::move(plan);
  r.backend = std::move(backend);
  r.variant = dir;
  r.params = {{"bytes", bytes}, {"pinned", pinned ? 1.0 : 0.0}};
  r.check.passed = true;
  r.gbps = gbps;
  return r;
}
}  // namespace

TEST(PcieModel, CopiesBecomeTheirSeries) {
  const auto a = copy("h2d", true, 1e6, 20), b = copy("h2d", false, 1e6, 8), c = copy("d2h", false, 1e6, 7),
             d = copy("d2d", true, 1e6, 900), e = copy("h2h", false, 1e6, 10, gpulab::plan_name::transfer, "cpu");
  const auto pts = points({{&a, -1}, {&b, -1}, {&c, 0}, {&d, -1}, {&e, -1}});
  ASSERT_EQ(pts.size(), 5u);
  EXPECT_EQ(pts[0].series, Series::h2dPinned);
  EXPECT_EQ(pts[1].series, Series::h2dPageable);
  EXPECT_EQ(pts[2].series, Series::d2hPageable);
  EXPECT_EQ(pts[2].source, 0);
  EXPECT_EQ(pts[3].series, Series::d2d);
  EXPECT_EQ(pts[4].series, Series::h2h);
  EXPECT_FALSE(pts[4].onGpu);
  EXPECT_EQ(measuredHereCount(pts), 4);
}

TEST(PcieModel, AnotherPlansResultIsNotDrawn) {
  const auto mine = copy("h2d", true, 256e6, 20);
  const auto quick = copy("h2d", true, 256e6, 25, gpulab::plan_name::quick);        // another plan's copy
  const auto p2p = copy("p2p", true, 256e6, 300, gpulab::plan_name::multigpu);      // the many-GPUs page's
  const auto legacy = copy("d2h", true, 256e6, 18, "");                              // before plans: drawn
  const auto pts = points({{&mine, -1}, {&quick, -1}, {&p2p, -1}, {&legacy, 0}});
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_DOUBLE_EQ(summarize(pts).bestH2dPinned, 20);
}

TEST(PcieModel, FailedCopiesAreNotPointsButAreOwnFailures) {
  auto failed = copy("h2h", false, 1e9, 0, gpulab::plan_name::transfer, "cpu");
  failed.error = "not enough RAM";
  EXPECT_TRUE(points({{&failed, -1}}).empty());
  EXPECT_TRUE(isOwnFailure(failed));
  auto other = failed;
  other.plan = gpulab::plan_name::quick;
  EXPECT_FALSE(isOwnFailure(other));
}

TEST(PcieModel, MemoryRatesComeFromTheLargestCopies) {
  // A cache-sized copy runs far faster than RAM to RAM: the largest copy stands for the memory.
  const auto small = copy("h2h", false, 1e6, 120, gpulab::plan_name::transfer, "cpu");
  const auto big = copy("h2h", false, 256e6, 12, gpulab::plan_name::transfer, "cpu");
  const auto recorded = copy("h2h", false, 1e9, 5, gpulab::plan_name::transfer, "cpu");  // not measured here
  const auto d2dSmall = copy("d2d", true, 1e6, 5000), d2dBig = copy("d2d", true, 1e9, 2000);
  const auto pts = points({{&small, -1}, {&big, -1}, {&recorded, 0}, {&d2dSmall, -1}, {&d2dBig, 0}});
  const Summary s = summarize(pts);
  EXPECT_DOUBLE_EQ(s.h2h, 12);
  EXPECT_DOUBLE_EQ(s.d2d, 2000);
  EXPECT_EQ(s.gpuPoints, 2);
}

TEST(PcieModel, TheLinkIsMeasuredHereFirstThenRecordedAndIgnoresSmallCopies) {
  const auto tiny = copy("h2d", true, 1e6, 40);  // latency, not the link
  const auto rec = copy("h2d", true, 256e6, 50);
  const auto here = copy("h2d", true, 256e6, 22);
  EXPECT_FALSE(measuredLink(points({{&tiny, -1}})).found);
  Link l = measuredLink(points({{&rec, 1}}));
  EXPECT_TRUE(l.found);
  EXPECT_EQ(l.source, 1);
  l = measuredLink(points({{&rec, 1}, {&here, -1}}));
  EXPECT_DOUBLE_EQ(l.bytesPerS, 22e9);
  EXPECT_EQ(l.source, -1);
}

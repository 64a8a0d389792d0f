// The Amdahl page's model: its run's thread counts and launch cost from the amdahl plan's results, one recorded
// run per recording (two recordings: two runs, neither merged into the other), and nothing from another plan.
#include "pages/amdahl/model/amdahl_page_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace amdahl_page_model;

namespace {
gpulab::Result step(int threads, double speedup, double share = 0.05, std::string plan = gpulab::plan_name::amdahl,
                    std::vector<double> samples = {}) {
  gpulab::Result r;
  r.experiment = "amdahl_scaling";
  r.plan = std::move(plan);
  r.backend = "cpu";
  r.variant = "threads";
  r.precision = gpulab::Precision::fp64;
  r.params = {{"threads", double(threads)}, {"serial_share", share}, {"speedup", speedup}, {"serial_s", 0.003}};
  r.check.passed = true;
  r.samples_s = samples;
  r.stats.median_s = samples.empty() ? 0.01 : samples[samples.size() / 2];
  return r;
}
gpulab::Result launch(double perLaunch, std::string plan = gpulab::plan_name::amdahl) {
  gpulab::Result r;
  r.experiment = "launch_overhead";
  r.plan = std::move(plan);
  r.backend = "cuda";
  r.variant = "tiny_kernels";
  r.params = {{"kernels", 1000.0}, {"elements", 1024.0}, {"per_launch_s", perLaunch}};
  r.check.passed = true;
  return r;
}
}  // namespace

TEST(AmdahlPageModel, ReadsItsRunAndPairsRounds) {
  std::vector<Point> run;
  const Reading one = read(step(1, 1, 0.3, gpulab::plan_name::amdahl, {1.0, 1.0, 1.0}));
  ASSERT_EQ(one.kind, Reading::Kind::step);
  EXPECT_DOUBLE_EQ(one.serialShare, 0.3);
  addToRun(run, one.point);
  const Reading two = read(step(2, 1.54, 0.3, gpulab::plan_name::amdahl, {0.64, 0.65, 0.66}));
  addToRun(run, two.point);
  ASSERT_EQ(run.size(), 2u);
  EXPECT_DOUBLE_EQ(run[1].threads, 2);
  EXPECT_DOUBLE_EQ(run[1].speedup, 1.54);
  EXPECT_EQ(run[1].range.rounds, 3);  // paired with the one-thread run's rounds
  EXPECT_NEAR(run[1].range.high, 1.0 / 0.64, 1e-9);
  const Reading l = read(launch(4e-6));
  ASSERT_EQ(l.kind, Reading::Kind::launch);
  EXPECT_DOUBLE_EQ(l.perLaunchS, 4e-6);
  auto refused = launch(0);
  refused.check.passed = false;
  refused.error = "launch overhead is timed with CUDA only";
  const Reading n = read(refused);
  EXPECT_EQ(n.kind, Reading::Kind::launchFailed);
  EXPECT_EQ(n.error, refused.error);
}

TEST(AmdahlPageModel, AnotherPlansResultIsNotDrawn) {
  EXPECT_EQ(read(step(2, 1.9, 0.05, gpulab::plan_name::quick)).kind, Reading::Kind::other);
  EXPECT_EQ(read(launch(5e-6, gpulab::plan_name::matmul)).kind, Reading::Kind::other);
  const auto mine = step(2, 1.5, 0.3, ""), other = step(2, 1.9, 0.05, gpulab::plan_name::quick),
             otherLaunch = launch(5e-6, gpulab::plan_name::matmul);
  const Recorded rec = recorded({{&mine, 0}, {&other, 0}, {&otherLaunch, 0}});  // the quick plan's is newer
  ASSERT_EQ(rec.runs.size(), 1u);
  EXPECT_EQ(rec.runs[0].source, 0);
  EXPECT_DOUBLE_EQ(rec.runs[0].share, 0.3);
  ASSERT_EQ(rec.runs[0].points.size(), 1u);
  EXPECT_DOUBLE_EQ(rec.runs[0].points[0].speedup, 1.5);
  EXPECT_EQ(rec.launchSource, -1);
}

TEST(AmdahlPageModel, EachRecordingsNewestRunAtItsShare) {
  // Recording 0 ran at 30 % and later at 10 %: its newest share decides which of its points are its run.
  const auto old1 = step(1, 1, 0.3), old2 = step(2, 1.5, 0.3), new1 = step(1, 1, 0.1), new2 = step(2, 1.8, 0.1),
             here = step(2, 1.9, 0.05), l = launch(3e-6);
  const Recorded rec = recorded({{&old1, 0}, {&old2, 0}, {&l, 0}, {&new1, 0}, {&new2, 0}, {&here, -1}});
  ASSERT_EQ(rec.runs.size(), 1u);  // measured here is not a recording
  EXPECT_EQ(rec.runs[0].source, 0);
  EXPECT_DOUBLE_EQ(rec.runs[0].share, 0.1);
  ASSERT_EQ(rec.runs[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ(rec.runs[0].points[1].speedup, 1.8);
  EXPECT_EQ(rec.launchSource, 0);
  EXPECT_DOUBLE_EQ(rec.perLaunchS, 3e-6);
  EXPECT_TRUE(recorded({{&here, -1}}).runs.empty());
}

TEST(AmdahlPageModel, TwoRecordingsAreTwoRuns) {
  // Listed out of order (recording 1 first): both come back, in source order, each with only its own points.
  const auto b1 = step(1, 1, 0.1), b2 = step(2, 1.8, 0.1), a1 = step(1, 1, 0.3), a2 = step(2, 1.5, 0.3),
             a4 = step(4, 2.1, 0.3), here = step(2, 1.9, 0.05), l = launch(3e-6);
  const Recorded rec =
      recorded({{&b1, 1}, {&b2, 1}, {&a1, 0}, {&a2, 0}, {&l, 1}, {&a4, 0}, {&here, -1}});
  ASSERT_EQ(rec.runs.size(), 2u);
  EXPECT_EQ(rec.runs[0].source, 0);
  EXPECT_DOUBLE_EQ(rec.runs[0].share, 0.3);
  ASSERT_EQ(rec.runs[0].points.size(), 3u);  // never merged with recording 1's
  EXPECT_DOUBLE_EQ(rec.runs[0].points[2].speedup, 2.1);
  EXPECT_EQ(rec.runs[1].source, 1);
  EXPECT_DOUBLE_EQ(rec.runs[1].share, 0.1);
  ASSERT_EQ(rec.runs[1].points.size(), 2u);
  EXPECT_DOUBLE_EQ(rec.runs[1].points[1].speedup, 1.8);
  EXPECT_EQ(rec.launchSource, 1);
  // The same run at the same share in both (a copy of one recording): still two runs, one per recording.
  const Recorded same = recorded({{&a1, 0}, {&a2, 0}, {&a1, 1}, {&a2, 1}});
  ASSERT_EQ(same.runs.size(), 2u);
  EXPECT_EQ(same.runs[0].points.size(), 2u);
  EXPECT_EQ(same.runs[1].points.size(), 2u);
}

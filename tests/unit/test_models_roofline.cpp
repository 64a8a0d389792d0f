#include "gpulab/models/roofline_model.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace gpulab::models;

TEST(RooflineModel, LessonBalancePoint) {
  // ~1000 TFLOP/s over ~3.35 TB/s: "roughly 300 FLOPs per byte".
  const double ridge = ridge_point(1000e12, 3.35e12);
  EXPECT_NEAR(ridge, 298.5, 0.05);
  EXPECT_NEAR(ridge, 300, 5);
  // The catalogue's dense FP16 figure for the H100 SXM gives the same picture.
  EXPECT_NEAR(ridge_point(989.4e12, 3350e9), 295.3, 0.05);
}

TEST(RooflineModel, Attainable) {
  EXPECT_DOUBLE_EQ(attainable_flops(1000e12, 3.35e12, 1.0), 3.35e12);
  EXPECT_DOUBLE_EQ(attainable_flops(1000e12, 3.35e12, 1000.0), 1000e12);
  EXPECT_DOUBLE_EQ(attainable_flops(1000e12, 3.35e12, ridge_point(1000e12, 3.35e12)), 1000e12);
}

TEST(RooflineModel, ClassifyLessonBatches) {
  // Batch 1 (1.0 FLOP/byte) is memory-bound, batch 256 (227.6) still is on an H100, batch 1024 (~683) is not.
  EXPECT_EQ(classify(1.0, 1000e12, 3.35e12), Bound::memory);
  EXPECT_EQ(classify(227.6, 1000e12, 3.35e12), Bound::memory);
  EXPECT_EQ(classify(683.0, 1000e12, 3.35e12), Bound::compute);
  EXPECT_EQ(classify(ridge_point(1000e12, 3.35e12), 1000e12, 3.35e12), Bound::compute);  // at the ridge: compute
  EXPECT_STREQ(bound_name(Bound::memory), "memory-bound");
  EXPECT_STREQ(bound_name(Bound::compute), "compute-bound");
  EXPECT_EQ(ridge_point(1, 0), 0.0);
}

std::vector<RooflinePoint> ideal_series(double peak, double bw) {
  std::vector<RooflinePoint> pts;
  for (double i = 0.5; i <= 4096; i *= 2) pts.push_back({i, attainable_flops(peak, bw, i)});
  return pts;
}

TEST(RooflineModel, CrossoverOnAnIdealRoofline) {
  const auto pts = ideal_series(100.0, 1.0);  // ridge at 100 FLOPs/byte
  const Crossover c = find_crossover(pts);
  ASSERT_TRUE(c.found) << c.reason;
  // First point reaching 80 of 100: intensity 128 (64 gives only 64).
  EXPECT_DOUBLE_EQ(c.intensity, 128.0);
  EXPECT_DOUBLE_EQ(c.plateau, 100.0);
  EXPECT_DOUBLE_EQ(c.implied_bandwidth, 1.0);
  EXPECT_DOUBLE_EQ(c.implied_ridge, 100.0);
  // A looser share finds it earlier.
  EXPECT_DOUBLE_EQ(find_crossover(pts, 0.5).intensity, 64.0);
}

TEST(RooflineModel, CrossoverIgnoresOrderAndBadPoints) {
  std::vector<RooflinePoint> pts{{512, 95}, {1, 1}, {NAN, 5}, {16, 16}, {256, 90}, {64, 60}, {-3, 2}, {1024, 100}};
  const Crossover c = find_crossover(pts);
  ASSERT_TRUE(c.found) << c.reason;
  EXPECT_DOUBLE_EQ(c.intensity, 256.0);  // 60 < 80, 90 >= 80
  EXPECT_EQ(c.index, 3u);                // 1, 16, 64, 256, ...
  EXPECT_DOUBLE_EQ(c.plateau, 100.0);
}

TEST(RooflineModel, CrossoverNotFoundCases) {
  EXPECT_FALSE(find_crossover(std::vector<RooflinePoint>{{1, 1}, {2, 2}}).found);
  // Still rising: the maximum is the last point.
  const Crossover rising = find_crossover(std::vector<RooflinePoint>{{1, 1}, {2, 2}, {4, 4}, {8, 8}});
  EXPECT_FALSE(rising.found);
  EXPECT_FALSE(rising.reason.empty());
  // Flat from the start: no memory-bound region.
  const Crossover flat = find_crossover(std::vector<RooflinePoint>{{100, 50}, {200, 50}, {400, 50}});
  EXPECT_FALSE(flat.found);
  EXPECT_EQ(flat.index, 0u);
}

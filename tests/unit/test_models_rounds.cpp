#include "gpulab/models/rounds_model.hpp"

#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(RoundsModel, LessonLayerBatch32) {
  EXPECT_EQ(rounds(131'072, 8), 16'384);
  EXPECT_EQ(rounds(131'072, 4'096), 32);
}

TEST(RoundsModel, PracticeBatch1) {
  EXPECT_EQ(rounds(4'096, 8), 512);
  EXPECT_EQ(rounds(4'096, 4'096), 1);
}

TEST(RoundsModel, CeilAndEdges) {
  EXPECT_EQ(rounds(1, 4096), 1);
  EXPECT_EQ(rounds(4097, 4096), 2);
  EXPECT_EQ(rounds(0, 8), 0);
  EXPECT_EQ(rounds(10, 0), 0);
  EXPECT_EQ(rounds(-5, 8), 0);
  // No overflow near the top of the range.
  EXPECT_EQ(rounds(INT64_MAX, INT64_MAX), 1);
  EXPECT_EQ(rounds(INT64_MAX, 2), INT64_MAX / 2 + 1);
}

TEST(RoundsModel, Utilisation) {
  EXPECT_DOUBLE_EQ(round_utilisation(131'072, 4'096), 1.0);
  EXPECT_DOUBLE_EQ(round_utilisation(4'097, 4'096), 4097.0 / 8192.0);
  EXPECT_DOUBLE_EQ(round_utilisation(8, 4'096), 8.0 / 4096.0);
  EXPECT_DOUBLE_EQ(round_utilisation(0, 4'096), 0.0);
}

TEST(ClerkModel, FastClerkKeepsEveryoneBusy) {
  const auto r = clerk_model(100, 2.0, 1000.0);
  EXPECT_DOUBLE_EQ(r.demand_rate, 200.0);
  EXPECT_DOUBLE_EQ(r.effective_rate, 200.0);
  EXPECT_DOUBLE_EQ(r.idle_share, 0.0);
  EXPECT_FALSE(r.clerk_limited);
  EXPECT_DOUBLE_EQ(r.seconds_for(400), 2.0);
}

TEST(ClerkModel, SlowClerkLeavesStudentsIdle) {
  // 10,000 students at 1 cell/s, but the clerk hands out only 500 sheets/s: 95 % idle.
  const auto r = clerk_model(10'000, 1.0, 500.0);
  EXPECT_DOUBLE_EQ(r.effective_rate, 500.0);
  EXPECT_DOUBLE_EQ(r.idle_share, 0.95);
  EXPECT_TRUE(r.clerk_limited);
  EXPECT_DOUBLE_EQ(r.seconds_for(100'000), 200.0);
}

TEST(ClerkModel, NoLimitAndNoWorkers) {
  const auto unlimited = clerk_model(8, 3.0, 0.0);
  EXPECT_DOUBLE_EQ(unlimited.effective_rate, 24.0);
  EXPECT_FALSE(unlimited.clerk_limited);
  const auto nobody = clerk_model(0, 3.0, 10.0);
  EXPECT_DOUBLE_EQ(nobody.effective_rate, 0.0);
  EXPECT_DOUBLE_EQ(nobody.idle_share, 0.0);
  EXPECT_DOUBLE_EQ(nobody.seconds_for(10), 0.0);
}

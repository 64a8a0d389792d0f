#include "gpulab/models/amdahl_model.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(AmdahlModel, LessonPracticeTable) {
  EXPECT_DOUBLE_EQ(amdahl_speedup(0.0, 4096), 4096.0);
  // 1 / (0.05 + 0.95/4096) = 19.907...
  EXPECT_NEAR(amdahl_speedup(0.05, 4096), 19.9, 0.05);
  EXPECT_DOUBLE_EQ(amdahl_speedup(0.05, 4096), 1.0 / (0.05 + 0.95 / 4096));
  // 1 / (0.5 + 0.5/4096) = 1.9995...
  EXPECT_NEAR(amdahl_speedup(0.5, 4096), 2.0, 0.05);
}

TEST(AmdahlModel, Limit) {
  EXPECT_DOUBLE_EQ(amdahl_limit(0.05), 20.0);
  EXPECT_TRUE(std::isinf(amdahl_limit(0.0)));
  EXPECT_LT(amdahl_speedup(0.05, 1e12), 20.0);
  EXPECT_NEAR(amdahl_speedup(0.05, 1e12), 20.0, 1e-6);
}

TEST(AmdahlModel, EightWorkersExercise) {
  // 1 / (0.05 + 0.95/8) = 5.925...
  EXPECT_NEAR(amdahl_speedup(0.05, 8), 5.9, 0.05);
}

TEST(AmdahlModel, HalfDataLoadingTwiceFasterGpu) {
  EXPECT_DOUBLE_EQ(partial_speedup(0.5, 2.0), 1.0 / 0.75);
  EXPECT_NEAR(partial_speedup(0.5, 2.0), 1.33, 0.005);
  // The same thing as Amdahl with N = 2 and s = 0.5.
  EXPECT_DOUBLE_EQ(partial_speedup(0.5, 2.0), amdahl_speedup(0.5, 2.0));
}

TEST(AmdahlModel, EdgesAreClamped) {
  EXPECT_DOUBLE_EQ(amdahl_speedup(1.0, 4096), 1.0);
  EXPECT_DOUBLE_EQ(amdahl_speedup(-1.0, 8), 8.0);
  EXPECT_DOUBLE_EQ(amdahl_speedup(0.3, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(partial_speedup(0.5, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(partial_speedup(0.0, 100.0), 1.0);
  EXPECT_DOUBLE_EQ(amdahl_efficiency(0.0, 16), 1.0);
  EXPECT_NEAR(amdahl_efficiency(0.05, 4096), 19.907 / 4096, 1e-5);
}

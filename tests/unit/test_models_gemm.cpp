// Golden values: /work/shared/data/lesson-numbers.md (lesson 17.1).
#include "gpulab/models/gemm_model.hpp"

#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(GemmModel, PauseAndThinkTwoByThreeTimesThreeByFour) {
  EXPECT_DOUBLE_EQ(matmul_flops(2, 3, 4), 48.0);
  EXPECT_DOUBLE_EQ(output_cells(2, 4), 8.0);
}

TEST(GemmModel, OneDenseLayerBatch32) {
  EXPECT_DOUBLE_EQ(matmul_flops(32, 4096, 4096), 1'073'741'824.0);
  EXPECT_DOUBLE_EQ(output_cells(32, 4096), 131'072.0);
  // The lesson prints it as 1.1 GFLOPs.
  EXPECT_NEAR(matmul_flops(32, 4096, 4096) / 1e9, 1.1, 0.05);
}

TEST(GemmModel, BytesFollowTheLessonFormula) {
  // 2 · (B·d_in + d_in·d_out + B·d_out) for FP16.
  EXPECT_DOUBLE_EQ(layer_bytes(1, 4096, 4096, 2), 2.0 * (4096 + 4096.0 * 4096 + 4096));
  EXPECT_DOUBLE_EQ(layer_bytes(256, 4096, 4096, 2), 2.0 * (256.0 * 4096 + 4096.0 * 4096 + 256.0 * 4096));
  EXPECT_DOUBLE_EQ(layer_bytes(1, 4096, 4096, 4), 2 * layer_bytes(1, 4096, 4096, 2));
}

TEST(GemmModel, ArithmeticIntensityGolden) {
  const double i1 = arithmetic_intensity(1, 4096, 4096, 2);
  const double i256 = arithmetic_intensity(256, 4096, 4096, 2);
  // Exact: 2·4096² / (2·(2·4096 + 4096²)) = 4096 / 4098 = 0.99951...
  EXPECT_DOUBLE_EQ(i1, 4096.0 / 4098.0);
  // Exact: 256·4096² / (512·4096 + 4096²) = 256·4096 / 4608 = 227.555...
  EXPECT_DOUBLE_EQ(i256, 256.0 * 4096.0 / 4608.0);
  // As printed with one decimal: 1.0 and 227.6.
  EXPECT_NEAR(i1, 1.0, 0.05);
  EXPECT_NEAR(i256, 227.6, 0.05);
}

TEST(GemmModel, LayerCostBundlesTheSameNumbers) {
  const LayerCost c = layer_cost(32, 4096, 4096, 2);
  EXPECT_DOUBLE_EQ(c.flops, 1'073'741'824.0);
  EXPECT_DOUBLE_EQ(c.cells, 131'072.0);
  EXPECT_DOUBLE_EQ(c.bytes, layer_bytes(32, 4096, 4096, 2));
  EXPECT_DOUBLE_EQ(c.intensity, arithmetic_intensity(32, 4096, 4096, 2));
}

TEST(GemmModel, DegenerateInputsGiveZeroNotNaN) {
  EXPECT_EQ(arithmetic_intensity(0, 0, 0, 2), 0.0);
  EXPECT_EQ(layer_cost(0, 4096, 4096, 0).intensity, 0.0);
}

TEST(GemmModel, IntensityGrowsWithBatchTowardsHalfDin) {
  // With d_in = d_out = d, intensity -> B·d / (2B + d)·... bounded by d/2 for huge B in FP16 (2 bytes).
  double prev = 0;
  for (double b : {1.0, 2.0, 8.0, 64.0, 512.0, 1e6}) {
    const double i = arithmetic_intensity(b, 4096, 4096, 2);
    EXPECT_GT(i, prev);
    prev = i;
  }
  EXPECT_LT(prev, 4096.0 / 2.0);
}

// Precision names round-trip; sizes match the formats; tolerances are ordered and grow with k.
#include "gpulab/precision.hpp"

#include <gtest/gtest.h>

using namespace gpulab;

TEST(Precision, NamesRoundTrip) {
  for (Precision p : all_precisions) {
    EXPECT_EQ(precision_from_string(to_string(p)), p);
    EXPECT_EQ(precision_from_string(display_name(p)), p);
  }
  EXPECT_EQ(to_string(Precision::bf16), "bf16");
  EXPECT_EQ(display_name(Precision::tf32), "TF32");
  EXPECT_EQ(precision_from_string("Fp16"), Precision::fp16);
  EXPECT_FALSE(precision_from_string("fp4").has_value());
  EXPECT_FALSE(precision_from_string("").has_value());
}

TEST(Precision, BytesPerElement) {
  EXPECT_EQ(bytes_per_element(Precision::fp64), 8);
  EXPECT_EQ(bytes_per_element(Precision::fp32), 4);
  EXPECT_EQ(bytes_per_element(Precision::tf32), 4);  // stored as FP32
  EXPECT_EQ(bytes_per_element(Precision::fp16), 2);
  EXPECT_EQ(bytes_per_element(Precision::bf16), 2);
  EXPECT_EQ(bytes_per_element(Precision::int8), 1);
  EXPECT_EQ(bytes_per_element(Precision::fp8), 1);
}

TEST(Precision, ToleranceOrderedByFormat) {
  for (long long k : {1LL, 64LL, 4096LL}) {
    EXPECT_LT(default_rtol(Precision::fp64, k), default_rtol(Precision::fp32, k));
    EXPECT_LT(default_rtol(Precision::fp32, k), default_rtol(Precision::tf32, k));
    EXPECT_LT(default_rtol(Precision::fp16, k), default_rtol(Precision::bf16, k));
    EXPECT_LT(default_rtol(Precision::bf16, k), default_rtol(Precision::fp8, k));
    for (Precision p : all_precisions) {
      EXPECT_GT(default_rtol(p, k), 0);
      EXPECT_GT(default_atol(p, k), 0);
      EXPECT_LT(default_rtol(p, k), 1.0);
    }
  }
}

TEST(Precision, ToleranceGrowsWithK) {
  for (Precision p : {Precision::fp64, Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16}) {
    EXPECT_LT(default_rtol(p, 16), default_rtol(p, 4096));
  }
  EXPECT_EQ(default_rtol(Precision::fp32, 0), default_rtol(Precision::fp32, 1));  // k < 1 clamps
}

TEST(Precision, ToleranceIsHonest) {
  // Loose enough to cover a long serial FP32 sum, yet far below what TF32 rounding would produce, so a
  // "FP32" result that silently ran in TF32 (errors ~5e-4) fails.
  EXPECT_GT(default_rtol(Precision::fp32, 4096), 1e-5);
  EXPECT_LT(default_rtol(Precision::fp32, 4096), 5e-4);
  EXPECT_LT(default_rtol(Precision::fp64, 4096), 1e-10);
  EXPECT_GT(default_rtol(Precision::fp64, 4096), 1e-14);
}

// Software FP16/BF16 rounding against known values, and the underflow demo's counts.
#include "gpulab/underflow_demo.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace gpulab;

TEST(HalfRounding, KnownValues) {
  EXPECT_EQ(round_to_half(1.0), 1.0);
  EXPECT_EQ(round_to_half(65504.0), 65504.0);  // the largest finite half
  EXPECT_TRUE(std::isinf(round_to_half(65520.0)));  // the tie above it goes to 2^16: overflow
  EXPECT_EQ(round_to_half(65519.0), 65504.0);  // just below the tie rounds down
  EXPECT_TRUE(std::isinf(round_to_half(-1e6)) && round_to_half(-1e6) < 0);
  EXPECT_EQ(round_to_half(1e-8), 0.0);  // below half the smallest subnormal: gone
  EXPECT_NEAR(round_to_half(6e-8), 5.960464477539063e-8, 1e-20);  // the smallest subnormal, 2^-24
  EXPECT_EQ(round_to_half(std::ldexp(1.0, -25)), 0.0);  // exactly half of 2^-24: tie to even (0)
  EXPECT_EQ(round_to_half(std::ldexp(1.5, -25)), std::ldexp(1.0, -24));
  EXPECT_EQ(round_to_half(std::ldexp(3.0, -25)), std::ldexp(1.0, -23));  // 1.5 quanta: tie to even (2)
  EXPECT_EQ(round_to_half(6.103515625e-5), 6.103515625e-5);  // smallest normal, 2^-14
  EXPECT_EQ(round_to_half(0.1), 0.0999755859375);
  EXPECT_EQ(round_to_half(1.0 + std::ldexp(1.0, -11)), 1.0);  // tie between 1 and 1+2^-10: even (1)
  EXPECT_EQ(round_to_half(1.0 + 3 * std::ldexp(1.0, -11)), 1.0 + std::ldexp(1.0, -9));
  EXPECT_TRUE(std::signbit(round_to_half(-1e-9)));  // the sign of zero survives
  EXPECT_TRUE(std::isnan(round_to_half(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_DOUBLE_EQ(smallest_subnormal(fp16_format), 5.960464477539063e-8);
  EXPECT_DOUBLE_EQ(smallest_normal(fp16_format), 6.103515625e-5);
}

TEST(HalfRounding, BitPatterns) {
  EXPECT_EQ(half_bits(1.0), 0x3C00);
  EXPECT_EQ(half_bits(-2.0), 0xC000);
  EXPECT_EQ(half_bits(65504.0), 0x7BFF);
  EXPECT_EQ(half_bits(65520.0), 0x7C00);  // +inf
  EXPECT_EQ(half_bits(6e-8), 0x0001);
  EXPECT_EQ(half_bits(1e-8), 0x0000);
  EXPECT_EQ(half_bits(0.1), 0x2E66);
  for (unsigned b : {0x0001u, 0x03FFu, 0x0400u, 0x3C00u, 0x7BFFu, 0x8001u, 0xC000u})
    EXPECT_EQ(half_bits(half_from_bits(static_cast<std::uint16_t>(b))), b) << std::hex << b;
  EXPECT_TRUE(std::isinf(half_from_bits(0x7C00)));
  EXPECT_TRUE(std::isnan(half_from_bits(0x7E00)));
}

TEST(Bf16Rounding, KnownValues) {
  EXPECT_EQ(round_to_bf16(1.0), 1.0);
  EXPECT_EQ(bf16_bits(1.0), 0x3F80);
  EXPECT_EQ(bf16_bits(0.1), 0x3DCD);  // 0.10009765625
  EXPECT_DOUBLE_EQ(round_to_bf16(0.1), 0.10009765625);
  // FP32's exponent range: 1e-8 is an ordinary normal number in BF16, with 3 significant digits.
  EXPECT_NEAR(round_to_bf16(1e-8), 1e-8, 1e-8 * 0x1p-8);
  EXPECT_EQ(round_to_bf16(1.0 + 0x1p-8), 1.0);            // tie to even
  EXPECT_EQ(round_to_bf16(1.0 + 3 * 0x1p-8), 1.0 + 0x1p-6);
  EXPECT_EQ(bf16_bits(bf16_from_bits(0x0001)), 0x0001);   // subnormals exist
  EXPECT_TRUE(std::isinf(round_to_bf16(3.5e38)));
}

TEST(UnderflowDemo, Fp16LosesTinyUpdatesBf16AndScalingKeepThem) {
  UnderflowSpec spec;  // 1e-8 … 1e-4, log-uniform, ×1024
  const UnderflowResult r = run_underflow_demo(spec);
  ASSERT_EQ(r.methods.size(), 5u);
  const auto* plain = r.find(UnderflowMethod::fp16_plain);
  const auto* scaled = r.find(UnderflowMethod::fp16_static_scale);
  const auto* dynamic = r.find(UnderflowMethod::fp16_dynamic_scale);
  const auto* bf16 = r.find(UnderflowMethod::bf16_plain);
  const auto* fp32 = r.find(UnderflowMethod::fp32_reference);
  ASSERT_TRUE(plain && scaled && dynamic && bf16 && fp32);
  // Gradients below 2^-25 ≈ 2.98e-8 round to zero: log10(2.98e-8/1e-8)/4 ≈ 11.9 % of a log-uniform 1e-8…1e-4.
  const double share = static_cast<double>(plain->total_lost) / static_cast<double>(spec.count);
  EXPECT_NEAR(share, std::log10(std::ldexp(1.0, -25) / 1e-8) / 4.0, 0.01);
  // The smallest bin (1e-8 … 1.47e-8) is lost entirely; the largest keeps everything.
  EXPECT_EQ(plain->lost.front(), r.per_bin.front());
  EXPECT_EQ(plain->lost.back(), 0);
  // The survivors just above the cliff are badly rounded subnormals.
  EXPECT_GT(plain->total_damaged, 0);
  EXPECT_EQ(scaled->total_lost, 0);
  EXPECT_EQ(dynamic->total_lost, 0);
  EXPECT_EQ(bf16->total_lost, 0);
  EXPECT_EQ(fp32->total_lost, 0);
  EXPECT_EQ(bf16->total_damaged, 0);
  EXPECT_LT(scaled->mean_rel_error, 1e-3);   // ×1024 lifts most of them out of the subnormal range too
  EXPECT_LT(bf16->mean_rel_error, 0x1p-8);   // half an ulp of an 8-bit mantissa
  EXPECT_DOUBLE_EQ(scaled->final_scale, 1024);
  long long binned = 0;
  for (long long c : r.per_bin) binned += c;
  EXPECT_EQ(binned, spec.count);
}

TEST(UnderflowDemo, DynamicScalingBacksOffOnOverflow) {
  UnderflowSpec spec;
  spec.max_grad = 10;  // large gradients: 10 × 65536 overflows FP16
  spec.min_grad = 1e-9;
  spec.count = 20000;
  spec.steps = 100;
  const UnderflowResult r = run_underflow_demo(spec);
  const auto* dynamic = r.find(UnderflowMethod::fp16_dynamic_scale);
  ASSERT_TRUE(dynamic);
  EXPECT_GT(dynamic->skipped_steps, 0);
  EXPECT_LT(dynamic->final_scale, spec.dynamic_initial_scale);
  // With ×1024 fixed, gradients above 65504/1024 = 64 would overflow; none here, but 10 × 1024 is fine.
  const auto* scaled = r.find(UnderflowMethod::fp16_static_scale);
  EXPECT_LT(scaled->total_lost, r.find(UnderflowMethod::fp16_plain)->total_lost);
}

TEST(UnderflowDemo, RejectsBadSpecs) {
  UnderflowSpec s;
  s.min_grad = 0;
  EXPECT_THROW(run_underflow_demo(s), std::invalid_argument);
  s = {};
  s.max_grad = s.min_grad / 2;
  EXPECT_THROW(run_underflow_demo(s), std::invalid_argument);
  s = {};
  s.count = 0;
  EXPECT_THROW(run_underflow_demo(s), std::invalid_argument);
  s = {};
  s.bins = 0;
  EXPECT_THROW(run_underflow_demo(s), std::invalid_argument);
}

TEST(UnderflowDemo, AsAResultForRecordings) {
  const Result r = underflow_result(UnderflowSpec{});
  EXPECT_EQ(r.experiment, "underflow");
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_GT(r.param("lost_fp16_plain"), 0);
  EXPECT_EQ(r.param("lost_fp16_static", -1), 0);
  EXPECT_EQ(r.param("lost_bf16", -1), 0);
  EXPECT_EQ(r.param("count"), 200000);
  EXPECT_FALSE(r.check.message.empty());
}

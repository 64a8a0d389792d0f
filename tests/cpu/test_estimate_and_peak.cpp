// Honest estimates and a stable peak (issue 13). No timing thresholds: the estimate's arithmetic (every run the
// measurement makes is counted, the check included), its basis (a probe of the same product, never a rate from
// another size), and the peak's rules (best of several bursts, the model beside it, never below a measured rate).
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace gpulab;

TEST(Estimate, CountsTheCheckTheWarmUpAndEverySample) {
  GemmSpec s;
  s.m = s.n = s.k = 2048;
  s.variant = "naive";
  MeasurePolicy p;
  p.warmup_runs = 1;
  p.min_samples = 3;
  p.time_budget_s = 2.0;
  const RunEstimate e = estimate_gemm_from_rate(s, p, 0.5, "given");
  EXPECT_NEAR(e.run_s, 2.0 * 2048 * 2048 * 2048 / 0.5e9, 1e-6);
  EXPECT_GT(e.check_s, e.run_s);  // the kernel once, plus the FP64 reference
  EXPECT_EQ(e.samples, 3);        // a 34 s run: the budget is spent after the minimum
  EXPECT_NEAR(e.total_s, e.check_s + e.warmup_s + 3 * e.run_s, 1e-9);
  EXPECT_GT(e.total_s, 5 * e.run_s);
  EXPECT_EQ(e.basis, "given");

  // One check and one timed run (the matmul page's policy for a big size).
  p.warmup_runs = 0;
  p.min_samples = p.max_samples = 1;
  const RunEstimate once = estimate_gemm_from_rate(s, p, 0.5, "given");
  EXPECT_EQ(once.samples, 1);
  EXPECT_NEAR(once.total_s, once.check_s + once.run_s, 1e-9);

  // Fast runs: as many samples as fit the budget, never above max_samples.
  s.m = s.n = s.k = 64;
  p = MeasurePolicy{};
  const RunEstimate fast = estimate_gemm_from_rate(s, p, 1.0, "given");
  EXPECT_EQ(fast.samples, p.max_samples);
  // No rate, no estimate.
  EXPECT_EQ(estimate_gemm_from_rate(s, p, 0, "none").total_s, 0);
}

TEST(Estimate, ProbesTheSameProductAndSaysSo) {
  GemmSpec s;
  s.m = 640;
  s.n = s.k = 512;
  s.variant = "naive";
  const RunEstimate e = estimate_cpu_gemm(s, MeasurePolicy{}, 0.01);
  EXPECT_GT(e.gflops, 0);
  EXPECT_GT(e.total_s, e.check_s);
  EXPECT_NE(e.basis.find("timed just now"), std::string::npos) << e.basis;
  EXPECT_NE(e.basis.find("of 640 rows of this product"), std::string::npos) << e.basis;
  // BLAS has no probe: no rate, and a basis that says why.
  s.variant = "blas";
  const RunEstimate b = estimate_cpu_gemm(s, MeasurePolicy{});
  EXPECT_EQ(b.gflops, 0);
  EXPECT_NE(b.basis.find("no probe"), std::string::npos);
}

TEST(Estimate, TheNaiveRunKeepsItsPredictionBesideWhatItTook) {
  auto backend = make_cpu_backend();
  GemmSpec s;
  s.m = s.n = s.k = 128;
  s.variant = "naive";
  RunContext ctx;
  ctx.policy.min_samples = 1;
  ctx.policy.max_samples = 2;
  const Result r = run_gemm(*backend, s, ctx);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_TRUE(r.provenance.count("predicted_s"));
  ASSERT_TRUE(r.provenance.count("actual_s"));
  EXPECT_NE(r.provenance.at("predicted_basis").find("timed just now"), std::string::npos);
  // Plain numbers a program reads back (bench prints predicted beside actual): no thousands separator.
  for (const char* key : {"predicted_s", "actual_s"})
    EXPECT_EQ(r.provenance.at(key).find(','), std::string::npos) << r.provenance.at(key);
}

TEST(Peak, BestOfSeveralBurstsWithTheModelBeside) {
  const CpuPeak p = cpu_peak();
  ASSERT_GE(p.bursts_fp32.size(), 5u);
  ASSERT_GE(p.bursts_fp64.size(), 5u);
  EXPECT_DOUBLE_EQ(p.gflops_fp32, *std::max_element(p.bursts_fp32.begin(), p.bursts_fp32.end()));
  EXPECT_GT(p.model_fp32, 0);
  EXPECT_FALSE(p.model_formula.empty());
  EXPECT_NE(p.source_fp32.find("best of"), std::string::npos) << p.source_fp32;
  // The backend's device info carries the same peak and says where it came from.
  const DeviceInfo d = make_cpu_backend()->device_info();
  EXPECT_DOUBLE_EQ(d.peak_gflops_fp32, p.gflops_fp32);
  EXPECT_NE(d.peak_source.find("bursts"), std::string::npos);
}

TEST(Peak, NeverBelowARateMeasuredHere) {
  const CpuPeak before = cpu_peak();
  raise_cpu_peak_floor(before.gflops_fp32 * 0.5, false, "a slower GEMM");  // below: ignored
  EXPECT_DOUBLE_EQ(cpu_peak().gflops_fp32, before.gflops_fp32);
  raise_cpu_peak_floor(before.gflops_fp32 * 1.5, false, "GEMM 512³ FP32 blas measured here");
  const CpuPeak after = cpu_peak();
  EXPECT_DOUBLE_EQ(after.gflops_fp32, before.gflops_fp32 * 1.5);
  EXPECT_NE(after.source_fp32.find("GEMM 512³ FP32 blas measured here"), std::string::npos);
  EXPECT_DOUBLE_EQ(after.gflops_fp64, before.gflops_fp64);  // FP64 untouched
  // More bursts cannot lower it again.
  (void)retake_cpu_peak_if_quiet();
  EXPECT_GE(cpu_peak().gflops_fp32, before.gflops_fp32 * 1.5);
}

// Every precision path the CPU can take, against an FP64 reference: the backend's own GEMMs (FP32, FP64 through
// each variant) and the software emulation of the formats the Precision page reports errors for.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/precision_error.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace gpulab;

namespace {
RunContext quick() {
  RunContext ctx;
  ctx.policy.min_samples = 1;
  ctx.policy.max_samples = 2;
  ctx.policy.time_budget_s = 0.05;
  ctx.policy.warmup_runs = 0;
  return ctx;
}
}  // namespace

TEST(CpuPrecisionPaths, BackendGemmMatchesFp64WithinTolerance) {
  auto cpu = make_cpu_backend();
  for (Precision p : {Precision::fp32, Precision::fp64}) {
    for (const std::string& variant : cpu->gemm_variants()) {
      GemmSpec spec;
      spec.m = 48;
      spec.n = 40;
      spec.k = 300;
      spec.precision = p;
      spec.variant = variant;
      if (!cpu->supports(spec).ok) continue;  // e.g. a build without OpenBLAS
      const Result r = run_gemm(*cpu, spec, quick());
      EXPECT_TRUE(r.ok()) << variant << " " << display_name(p) << ": " << r.error;
      EXPECT_TRUE(r.check.passed);
      EXPECT_EQ(r.check.checked, spec.m * spec.n);
      EXPECT_LE(r.check.max_abs_err, default_atol(p, spec.k) + default_rtol(p, spec.k) * 20);
      // The lesson's traffic count, per element size.
      EXPECT_DOUBLE_EQ(r.bytes, models::layer_bytes(48, 300, 40, bytes_per_element(p)));
    }
  }
}

TEST(CpuPrecisionPaths, UnsupportedFormatsSayWhy) {
  auto cpu = make_cpu_backend();
  for (Precision p : {Precision::tf32, Precision::fp16, Precision::bf16, Precision::int8, Precision::fp8}) {
    GemmSpec spec;
    spec.precision = p;
    const Support s = cpu->supports(spec);
    if (s.ok) continue;  // a future CPU backend may add one
    EXPECT_FALSE(s.reason.empty()) << display_name(p);
    const Result r = run_gemm(*cpu, spec, quick());
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.error, s.reason);
  }
}

TEST(CpuPrecisionPaths, EmulatedFormatsAgainstFp64) {
  // Expected relative Frobenius errors at k = 1024, from the unit roundoff of each format: inputs rounded
  // (two factors, each ~u/sqrt(3) rms) dominate; FP32 summation adds ~u·sqrt(k)/few.
  struct Case {
    Precision p;
    double lo, hi;
  };
  const Case cases[] = {
      {Precision::fp64, 1e-18, 1e-14},     {Precision::fp32, 1e-8, 2e-6},  {Precision::tf32, 1e-4, 2e-3},
      {Precision::fp16, 1e-4, 2e-3},   {Precision::bf16, 1e-3, 1e-2},  {Precision::fp8, 1e-2, 1.5e-1},
      {Precision::int8, 1e-3, 2e-2},
  };
  double fp16_err = 0, tf32_err = 0, bf16_err = 0;
  for (const Case& c : cases) {
    PrecisionErrorSpec spec;
    spec.m = 32;
    spec.n = 32;
    spec.k = 1024;
    spec.precision = c.p;
    const PrecisionError e = emulated_gemm_error(spec);
    EXPECT_GE(e.rel_frobenius, c.lo) << display_name(c.p);
    EXPECT_LE(e.rel_frobenius, c.hi) << display_name(c.p);
    EXPECT_LE(e.max_abs, 10 * e.rel_frobenius * e.ref_rms + 1e-12) << display_name(c.p);
    EXPECT_EQ(e.cells, 32 * 32);
    EXPECT_FALSE(e.method.empty());
    if (c.p == Precision::fp16) fp16_err = e.rel_frobenius;
    if (c.p == Precision::tf32) tf32_err = e.rel_frobenius;
    if (c.p == Precision::bf16) bf16_err = e.rel_frobenius;
  }
  // TF32 has FP16's mantissa; FP16 also rounds its output, so it is a little worse. BF16 has 3 bits fewer: ~8×.
  EXPECT_GE(fp16_err, tf32_err * 0.9);
  EXPECT_GT(bf16_err, 4 * tf32_err);
}

TEST(CpuPrecisionPaths, RelativeFrobenius) {
  const double ref[] = {3, 4};
  const double same[] = {3, 4};
  const double off[] = {3, 4.5};
  const float nan_out[] = {3, NAN};
  EXPECT_EQ(relative_frobenius(same, ref, 2), 0.0);
  EXPECT_DOUBLE_EQ(relative_frobenius(off, ref, 2), 0.1);  // 0.5 / 5
  EXPECT_TRUE(std::isinf(relative_frobenius(nan_out, ref, 2)));
  EXPECT_THROW(emulated_gemm_error(PrecisionErrorSpec{0, 1, 1}), std::invalid_argument);
}

TEST(CpuPrecisionPaths, RoundToPrecision) {
  EXPECT_EQ(round_to_precision(1e-8, Precision::fp16), 0.0);
  EXPECT_NE(round_to_precision(1e-8, Precision::bf16), 0.0);
  EXPECT_EQ(round_to_precision(500.0, Precision::fp8), 448.0);  // E4M3 saturates
  EXPECT_EQ(round_to_precision(0.0625, Precision::fp8), 0.0625);
  EXPECT_DOUBLE_EQ(round_to_precision(0.5, Precision::int8, 1.0), 64.0 / 127.0);
  EXPECT_EQ(round_to_precision(1.0 + 0x1p-12, Precision::tf32), 1.0);
}

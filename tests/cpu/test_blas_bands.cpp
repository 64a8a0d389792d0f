// A BLAS product is cut into row bands only when one OpenBLAS call would keep a cancel waiting (issue 39). Cut at a
// fixed 2 GFLOP, 1024³ (2.1 GFLOP, ~11 ms on the 2-core CI machine) ran as three calls and lost 3–14 % against the
// same OpenBLAS called once through numpy. The decision is made by time, from the CPU's measured FMA peak: work
// that one call finishes in milliseconds is one call, work estimated at a second is cut. (How fast a cut product
// answers a cancel is test_cancel_latency's.)
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace gpulab;

namespace {

// The OpenBLAS calls the op's last run made, as the op reports them.
double blasCallsOfOneRun(TimedOp& op) {
  op.run_once();
  Params params;
  Provenance provenance;
  op.describe(params, provenance);
  return params.count("blas_calls_per_run") ? params.at("blas_calls_per_run") : -1;
}

}  // namespace

TEST(BlasBands, A1024CubeIsOneCall) {
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = spec.n = spec.k = 1024;
  spec.variant = "blas";
  if (!backend->supports(spec).ok) GTEST_SKIP() << backend->supports(spec).reason;
  auto op = backend->make_gemm(spec);
  ASSERT_TRUE(op->verify().passed);  // the check's run is the warm-up, as in the app
  EXPECT_EQ(blasCallsOfOneRun(*op), 1) << "1024³ (" << 2.0 * 1024 * 1024 * 1024 / 1e9 << " GFLOP) at a measured peak of "
                                       << cpu_peak().gflops_fp32 << " GFLOP/s on " << cpu_peak().threads
                                       << " threads was cut into bands";
}

TEST(BlasBands, WorkOfHalfASecondOnOneThreadIsCut) {
  // Rows for about 0.6 s on one thread at the measured peak (B 2048×2048): a call that long would hold a cancel past
  // the window, so it runs in bands of ~0.1 s.
  const CpuPeak peak = cpu_peak();
  ASSERT_GT(peak.gflops_fp32, 0);
  const double perThread = peak.gflops_fp32 * 1e9 / std::max(1, peak.threads);
  GemmSpec spec;
  spec.n = spec.k = 2048;
  spec.m = std::clamp<long long>(static_cast<long long>(0.6 * perThread / (2.0 * spec.n * spec.k)), 256, 65536);
  spec.variant = "blas";
  spec.threads = 1;
  auto backend = make_cpu_backend();
  if (!backend->supports(spec).ok) GTEST_SKIP() << backend->supports(spec).reason;
  auto op = backend->make_gemm(spec);
  EXPECT_GE(blasCallsOfOneRun(*op), 4) << spec.m << "×2048×2048 on one thread";
}

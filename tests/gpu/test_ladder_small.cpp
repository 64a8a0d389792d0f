// The GPU kernel ladder at small, awkward sizes only: small enough to run under compute-sanitizer's memcheck and
// racecheck in seconds (tests/gpu/device-check.sh runs this binary under both), and a cheap first check in
// `ctest -L gpu`. Every size has edges that a tile does not cover, so out-of-bounds loads and stores, missing
// barriers and partial tiles are exercised. Without a device every test skips with the factory's reason.
//   CudaLadderSmall.OwnKernels  the hand-written ladder (naive ... warptile), FP32 — racecheck runs this one
//   CudaLadderSmall.Cublas      cuBLAS in every precision the device offers
//   CudaLadderSmall.Helpers     layer chain, launch-overhead and device-to-device copy at tiny sizes
#include "gpu/load_module.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using gpulab::GemmSpec;
using gpulab::Precision;

class CudaLadderSmall : public gpulab_test::ModuleTest {};

struct Shape {
  long long m, n, k;
};
// 1³ (one thread does everything), primes and off-by-one sizes around the 32/64/128 tiles; at most ~1 MFLOP each.
const std::vector<Shape> kShapes{{1, 1, 1}, {17, 17, 17}, {33, 31, 5}, {64, 64, 64}, {127, 65, 33}, {130, 129, 67}};

std::string shape_text(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

void check_variant(gpulab::Backend& b, const std::string& variant, Precision p, const Shape& s) {
  GemmSpec spec;
  spec.m = s.m;
  spec.n = s.n;
  spec.k = s.k;
  spec.variant = variant;
  spec.precision = p;
  spec.seed = 11;
  const auto sup = b.supports(spec);
  if (!sup.ok) return;  // the caller decides what must be supported
  auto op = b.make_gemm(spec);
  const auto check = op->verify();
  EXPECT_TRUE(check.passed) << variant << " " << gpulab::to_string(p) << " " << shape_text(s) << ": " << check.message;
  EXPECT_GT(check.checked, 0);
  EXPECT_GT(op->run_once(), 0) << variant;
  // Again after a timed run: the poison written before each run must be overwritten every time.
  EXPECT_TRUE(op->verify().passed) << variant << " " << shape_text(s) << " (second verify)";
}

TEST_F(CudaLadderSmall, OwnKernels) {
  int ran = 0;
  for (const auto& variant : backend().gemm_variants()) {
    if (variant == "cublas") continue;
    for (const auto& s : kShapes) {
      GemmSpec spec;
      spec.m = s.m;
      spec.n = s.n;
      spec.k = s.k;
      spec.variant = variant;
      ASSERT_TRUE(backend().supports(spec).ok) << variant << ": " << backend().supports(spec).reason;
      check_variant(backend(), variant, Precision::fp32, s);
      ++ran;
    }
  }
  EXPECT_GT(ran, 0) << "the ladder lists no kernels of its own";
}

TEST_F(CudaLadderSmall, Cublas) {
  int ran = 0;
  for (const Precision p : gpulab::all_precisions)
    for (const auto& s : {Shape{64, 64, 64}, Shape{127, 65, 33}}) {
      GemmSpec spec{s.m, s.n, s.k, p, "cublas", 0, 11};
      if (!backend().supports(spec).ok) continue;
      check_variant(backend(), "cublas", p, s);
      ++ran;
    }
  EXPECT_GT(ran, 0) << "cuBLAS ran in no precision";
}

TEST_F(CudaLadderSmall, Helpers) {
  gpulab::LayerChainSpec chain;
  chain.matrices = {{64, 96}, {64, 64}, {96, 64}};
  chain.layers = 2;
  for (const Precision p : {Precision::fp32, Precision::fp16}) {
    for (long long batch : {1LL, 5LL}) {
      chain.precision = p;
      chain.batch = batch;
      if (!backend().supports(chain).ok) continue;
      auto op = backend().make_layer_chain(chain);
      ASSERT_TRUE(op);
      EXPECT_TRUE(op->verify().passed) << gpulab::to_string(p) << " batch " << batch;
      EXPECT_GT(op->run_once(), 0);
    }
  }
  gpulab::LaunchOverheadSpec launch;
  launch.kernels = 20;
  launch.elements = 1000;
  auto lo = backend().make_launch_overhead(launch);
  ASSERT_TRUE(lo);
  EXPECT_TRUE(lo->verify().passed);
  gpulab::TransferSpec d2d;
  d2d.direction = "d2d";
  d2d.bytes = (1u << 20) + 3;
  auto copy = backend().make_transfer(d2d);
  EXPECT_TRUE(copy->verify().passed);
}

}  // namespace

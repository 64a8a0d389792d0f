// A GEMM's share of its own device's measured FMA peak (issue 27; models/measured_peak.h, matmul_model's shares and
// the ladder's best step): only a passed "peak" result of the same backend, device name and source counts; a
// tensor-core format gets none; no peak measured means no share, never a datasheet figure in its place.
#include "pages/matmul/model/matmul_model.h"
#include "models/measured_peak.h"

#include "gpulab/backend.hpp"
#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace {

const char* kLavapipe = "llvmpipe (LLVM 15.0.6, 256 bits)";

gpulab::Result gemm(const std::string& backend, const std::string& variant, double gflops, const std::string& device,
                    long long n = 256) {
  gpulab::Result r;
  r.experiment = "gemm";
  r.plan = gpulab::plan_name::matmul;
  r.backend = backend;
  r.variant = variant;
  r.provenance["device"] = device;
  if (backend == "vulkan") r.provenance["device_type"] = "CPU (not a GPU)";
  r.params = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"threads", 0.0}};
  r.check.passed = true;
  r.check.checked = 10;
  r.flops = 2.0 * n * n * n;
  r.stats.median_s = r.flops / (gflops * 1e9);
  r.stats.n = 5;
  r.gflops = gflops;
  return r;
}

gpulab::Result peak(const std::string& backend, double gflops, const std::string& device,
                    gpulab::Precision p = gpulab::Precision::fp32, bool passed = true) {
  gpulab::Result r;
  r.experiment = gpulab::experiment_name::peak;
  r.plan = "roofs";
  r.backend = backend;
  r.variant = "fma";
  r.precision = p;
  r.provenance["device"] = device;
  r.check.passed = passed;
  r.check.checked = 1024;
  r.flops = gflops * 1e9 * 0.01;
  r.stats.median_s = 0.01;
  r.stats.min_s = 0.01;
  r.stats.n = 3;
  r.gflops = gflops;
  return r;
}

using matmul_model::Input;

}  // namespace

TEST(MeasuredPeak, OnlyTheSameDeviceSourceAndPrecisionCount) {
  const gpulab::Result g = gemm("vulkan", "smem", 3, kLavapipe);
  const gpulab::Result own = peak("vulkan", 60, kLavapipe);
  const gpulab::Result faster = peak("vulkan", 75, kLavapipe);
  const gpulab::Result otherDevice = peak("vulkan", 900, "Intel(R) Iris(R) Xe Graphics");
  const gpulab::Result otherBackend = peak("cpu", 230, kLavapipe);
  const gpulab::Result fp64 = peak("vulkan", 500, kLavapipe, gpulab::Precision::fp64);
  const gpulab::Result failed = peak("vulkan", 1000, kLavapipe, gpulab::Precision::fp32, false);
  const std::vector<Input> results{{&g, -1},           {&own, -1},  {&faster, -1}, {&otherDevice, -1},
                                   {&otherBackend, -1}, {&fp64, -1}, {&failed, -1}};
  EXPECT_DOUBLE_EQ(matmul_model::measuredPeakGflops(results, g, -1), 75);  // the best of its own two
  // A recording's peak of the same device is another source: it never stands in for this session's.
  const std::vector<Input> recorded{{&g, -1}, {&own, 0}};
  EXPECT_DOUBLE_EQ(matmul_model::measuredPeakGflops(recorded, g, -1), 0);
  EXPECT_DOUBLE_EQ(matmul_model::measuredPeakGflops(recorded, g, 0), 60);
  // None measured: no share (the page then says nothing of it).
  EXPECT_DOUBLE_EQ(matmul_model::measuredPeakGflops({{&g, -1}}, g, -1), 0);
}

TEST(MeasuredPeak, TensorCoreFormatsGetNoShareOfTheSimtPeak) {
  const gpulab::Result half = peak("cuda", 120000, "NVIDIA H200", gpulab::Precision::fp16);
  const std::vector<Input> results{{&half, -1}};
  EXPECT_DOUBLE_EQ(
      measured_peak::bestPeakGflops(results, -1, {gpulab::BackendKind::cuda, "NVIDIA H200"}, gpulab::Precision::fp16), 0);
  const gpulab::Result cpu64 = peak("cpu", 110, "AMD EPYC 7R13", gpulab::Precision::fp64);
  const std::vector<Input> cpu{{&cpu64, -1}};
  EXPECT_DOUBLE_EQ(measured_peak::bestPeakGflops(cpu, -1, {gpulab::BackendKind::cpu, "AMD EPYC 7R13"}, gpulab::Precision::fp64), 110);
}

TEST(MeasuredPeak, SharesSayAboveOnlyPastTheNoise) {
  matmul_model::Row row;
  row.gpu_side = true;
  row.way.kind = gpulab::MatmulWayKind::gpu_step;
  const matmul_model::Refs refs;
  const auto s = matmul_model::shares(row, 30, refs, 0, 1000, 60);
  EXPECT_DOUBLE_EQ(s.ofMeasuredPeak, 0.5);
  EXPECT_FALSE(s.aboveMeasuredPeak);
  EXPECT_DOUBLE_EQ(s.ofPeak, 0.03);  // the datasheet line's share stays beside it
  EXPECT_FALSE(matmul_model::shares(row, 65, refs, 0, 0, 60).aboveMeasuredPeak);  // within 10 %
  EXPECT_TRUE(matmul_model::shares(row, 67, refs, 0, 0, 60).aboveMeasuredPeak);
  EXPECT_DOUBLE_EQ(matmul_model::shares(row, 30, refs, 0, 0, 0).ofMeasuredPeak, 0);
}

TEST(MeasuredPeak, TheLaddersBestStepAgainstItsOwnPeak) {
  auto cpu = gpulab::make_cpu_backend();
  const gpulab::Result naive = gemm("vulkan", "naive", 1, kLavapipe);
  const gpulab::Result smem = gemm("vulkan", "smem", 6, kLavapipe);
  const gpulab::Result wrong = gemm("vulkan", "coalesced", 50, kLavapipe);  // fast but wrong: never the best
  gpulab::Result wrongChecked = wrong;
  wrongChecked.check.passed = false;
  const gpulab::Result own = peak("vulkan", 60, kLavapipe);
  const std::vector<Input> results{{&naive, 0}, {&smem, 0}, {&wrongChecked, 0}, {&own, 0}};
  const auto rows = matmul_model::buildRows({cpu.get(), nullptr, "none"}, {}, results);
  const matmul_model::Shape at{256, 256, 256};
  // Nothing measured here: no step.
  EXPECT_EQ(matmul_model::bestGpuStep(results, rows, at).result, nullptr);
  const auto best = matmul_model::bestGpuStep(results, rows, at, 0);
  ASSERT_EQ(best.result, &smem);
  EXPECT_EQ(rows[std::size_t(best.row)].key, "vulkan/smem/-1");
  EXPECT_DOUBLE_EQ(best.measuredPeak, 60);
  EXPECT_DOUBLE_EQ(best.ofMeasuredPeak, 0.1);
  // The same ladder in a recording without roofs: a step, no share.
  const std::vector<Input> noPeak{{&naive, 1}, {&smem, 1}};
  const auto rows1 = matmul_model::buildRows({cpu.get(), nullptr, "none"}, {}, noPeak);
  const auto bare = matmul_model::bestGpuStep(noPeak, rows1, at, 1);
  ASSERT_EQ(bare.result, &smem);
  EXPECT_DOUBLE_EQ(bare.ofMeasuredPeak, 0);
}

// The kernel page's recorded speed of a ladder step: the CUDA module's GEMM of the matmul plan, largest size.
#include "pages/kernel/model/kernel_recorded.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace kernel_recorded;

namespace {
gpulab::Result gemm(const char* backend, const char* variant, long long n, double gflops,
                    std::string plan = gpulab::plan_name::matmul) {
  gpulab::Result r;
  r.experiment = "gemm";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = variant;
  r.params = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}};
  r.check.passed = true;
  r.gflops = gflops;
  r.provenance["device"] = "NVIDIA H200";
  return r;
}
}  // namespace

TEST(KernelRecorded, TheLargestRecordedSizeOfThatCudaKernel) {
  const auto small = gemm("cuda", "naive", 1024, 900), big = gemm("cuda", "naive", 4096, 1200),
             here = gemm("cuda", "naive", 8192, 1500), other = gemm("cuda", "smem", 8192, 3000);
  const auto s = recordedSpeed({{&small, 0}, {&big, 0}, {&here, -1}, {&other, 0}}, "naive");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->flops, 1200e9);
  EXPECT_EQ(s->n, 4096);
  EXPECT_EQ(s->device, "NVIDIA H200");
  EXPECT_FALSE(recordedSpeed({{&small, 0}}, ""));
}

TEST(KernelRecorded, AnotherPlansResultIsNotDrawn) {
  const auto batch = gemm("cuda", "naive", 4096, 1200, gpulab::plan_name::batch);
  const auto vulkan = gemm("vulkan", "naive", 2048, 50);  // another kernel with the same name
  EXPECT_FALSE(recordedSpeed({{&batch, 0}, {&vulkan, 0}}, "naive"));
  const auto legacy = gemm("cuda", "naive", 2048, 1000, "");  // before plans: drawn as before
  EXPECT_TRUE(recordedSpeed({{&legacy, 0}}, "naive"));
}

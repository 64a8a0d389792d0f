// The stadium's pace: the professor and the stadium from the stadium plan's GEMMs, per source.
#include "pages/stadium/model/stadium_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace stadium_model;

namespace {
gpulab::Result gemm(const std::string& backend, const std::string& variant, long long n, double gflops,
                    std::string plan = gpulab::plan_name::stadium, double threads = 0) {
  gpulab::Result r;
  r.experiment = "gemm";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = variant;
  r.params = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"threads", threads}};
  r.check.passed = true;
  r.gflops = gflops;
  return r;
}
}  // namespace

TEST(StadiumModel, ProfessorAgainstCpuAndGpuStadiums) {
  const auto naive = gemm("cpu", "naive", 512, 1), blas = gemm("cpu", "blas", 512, 50),
             gpu = gemm("cuda", "cublas", 2048, 40000);
  const auto p = paces({{&naive, -1}, {&blas, -1}, {&gpu, -1}}, 0);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].stadium, Pace::Stadium::cpuBlas);
  EXPECT_EQ(p[1].stadium, Pace::Stadium::gpu);
  EXPECT_EQ(p[1].crowd.api, Api::cuda);
  EXPECT_EQ(p[1].crowd.n, 2048);
  // One cell is a 4,096-long dot product: 8,192 FLOPs; a student is the stadium's rate shared by 4,096.
  EXPECT_DOUBLE_EQ(p[0].professorCellS(), 8192 / 1e9);
  EXPECT_DOUBLE_EQ(p[1].studentCellS(), 4096 * 8192 / 40000e9);
}

TEST(StadiumModel, AnotherPlansResultIsNotDrawn) {
  const auto naive = gemm("cpu", "naive", 512, 1), blas = gemm("cpu", "blas", 512, 50);
  const auto matmulNaive = gemm("cpu", "naive", 1024, 0.3, gpulab::plan_name::matmul);  // newer, another plan's
  const auto matmulGpu = gemm("cuda", "cublas", 8192, 50000, gpulab::plan_name::matmul);
  const auto p = paces({{&naive, 0}, {&blas, 0}, {&matmulNaive, 0}, {&matmulGpu, 0}}, 1);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].source, 0);
  EXPECT_EQ(p[0].professor.n, 512);
  EXPECT_EQ(p[0].stadium, Pace::Stadium::cpuBlas);
}

TEST(StadiumModel, ARecordingFromBeforePlansRacesItsNaiveLoopBlasAndCublasOnly) {
  const auto naive = gemm("cpu", "naive", 512, 1, ""), oneThread = gemm("cpu", "blas", 512, 9, "", 1),
             gpuNaive = gemm("cuda", "naive", 2048, 900, ""), cublas = gemm("cuda", "cublas", 2048, 40000, "");
  const auto p = paces({{&naive, 0}, {&oneThread, 0}, {&gpuNaive, 0}, {&cublas, 0}}, 1);
  ASSERT_EQ(p.size(), 1u);  // one-thread BLAS is no stadium
  EXPECT_EQ(p[0].stadium, Pace::Stadium::gpu);
  EXPECT_DOUBLE_EQ(p[0].crowd.gflops, 40000);
}

TEST(StadiumModel, AVulkanCpuDeviceIsMarkedAndNoSourceWithoutTheProfessor) {
  auto lava = gemm("vulkan", "vectorized", 512, 3);
  lava.provenance["device_type"] = "CPU (not a GPU)";
  lava.provenance["device"] = "Vulkan on the CPU (llvmpipe) — not a GPU";
  const auto naive = gemm("cpu", "naive", 512, 1);
  auto p = paces({{&naive, -1}, {&lava, -1}}, 0);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].crowd.api, Api::vulkan);
  EXPECT_TRUE(p[0].crowd.cpuDevice);
  EXPECT_TRUE(paces({{&lava, -1}}, 0).empty());
}

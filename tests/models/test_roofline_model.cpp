// The roofline page's model: the ceilings each device showed in each source and the points at their intensity,
// read through typed views. The roofline deliberately draws every plan's GEMMs and streams (it is where the
// session meets), so what is tested is exactly what it takes: GEMM and bandwidth results that ran, from any plan;
// no other kind of result, no failed run, recordings only when asked; and device words, so lavapipe's Vulkan
// device never gets a GPU's datasheet roof.
#include "pages/roofline/model/roofline_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace roofline_model;
using gpulab::Precision;

namespace {
gpulab::Result gemm(long long n, double gflops, Precision p = Precision::fp32, const std::string& backend = "cpu",
                    const std::string& device = "AMD EPYC 7R13 Processor", std::string plan = "roofline") {
  gpulab::Result r;
  r.experiment = "gemm";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = backend == "cpu" ? "blas" : "cublas";
  r.precision = p;
  r.provenance["device"] = device;
  r.params = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"threads", 0.0}};
  r.check.passed = true;
  r.gflops = gflops;
  r.flops = 2.0 * n * n * n;
  r.bytes = 4.0 * 3 * n * n;
  r.stats.median_s = r.flops / (gflops * 1e9);
  r.stats.n = 3;
  r.gbps = r.bytes / r.stats.median_s / 1e9;
  return r;
}
gpulab::Result triad(double gbps, double bytesPerArray, const std::string& backend = "cpu",
                     const std::string& device = "AMD EPYC 7R13 Processor", std::string plan = "bandwidth") {
  gpulab::Result r;
  r.experiment = "bandwidth";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = "triad";
  r.provenance["device"] = device;
  r.params = {{"bytes", bytesPerArray}, {"threads", 0.0}};
  r.check.passed = true;
  r.gbps = gbps;
  r.bytes = 3 * bytesPerArray;
  r.flops = 2 * bytesPerArray / 4;
  r.stats.median_s = r.bytes / (gbps * 1e9);
  return r;
}
std::vector<Input> here(const std::vector<gpulab::Result>& rs, int source = -1) {
  std::vector<Input> in;
  for (const auto& r : rs) in.push_back({&r, source});
  return in;
}
}  // namespace

TEST(RooflineModel, TheMemoryRoofIsTheLargestArraysAndTheComputeRoofTheBestGemm) {
  const std::vector<gpulab::Result> rs{triad(150, 1 << 20), triad(35, 64 << 20), triad(30, 64 << 20),
                                       gemm(2048, 80), gemm(1024, 60), gemm(2048, 30, Precision::fp64)};
  const Model m = build(here(rs), true);
  ASSERT_EQ(m.devices.size(), 1u);
  // The cache-sized triad is faster, but a memory roof on it would promise what no large kernel sees.
  EXPECT_DOUBLE_EQ(m.devices[0].bandwidth, 35e9);
  EXPECT_DOUBLE_EQ(measuredCpuBandwidth(m), 35e9);
  EXPECT_DOUBLE_EQ(measuredCpuPeak(m, Precision::fp32), 80e9);
  EXPECT_DOUBLE_EQ(measuredCpuPeak(m, Precision::fp64), 30e9);
  EXPECT_DOUBLE_EQ(measuredCpuPeak(m, Precision::fp16), 0);
  ASSERT_EQ(m.points.size(), rs.size());
  EXPECT_TRUE(m.points[0].stream);
  EXPECT_DOUBLE_EQ(m.points[3].intensity, rs[3].flops / rs[3].bytes);
  EXPECT_DOUBLE_EQ(m.points[3].flopsPerS, 80e9);
  EXPECT_EQ(m.points[3].m, 2048);
  EXPECT_DOUBLE_EQ(m.points[1].bytesPerArray, double(64 << 20));
}

// Every plan's GEMMs and streams are drawn on purpose (the roofline gathers the session); nothing else is.
TEST(RooflineModel, TakesGemmsAndStreamsOfEveryPlanAndNothingElse) {
  gpulab::Result failed = gemm(2048, 999);
  failed.check.passed = false;
  failed.error = "out of memory";
  gpulab::Result transfer = triad(12, 64 << 20);
  transfer.experiment = "transfer";
  transfer.variant = "h2d";
  transfer.params = {{"bytes", double(64 << 20)}, {"pinned", 1.0}};
  gpulab::Result chain = gemm(64, 50);
  chain.experiment = "layer_chain";
  const std::vector<gpulab::Result> rs{gemm(512, 40, Precision::fp32, "cpu", "AMD EPYC 7R13 Processor", "matmul"),
                                       gemm(64, 20, Precision::fp32, "cpu", "AMD EPYC 7R13 Processor", "batch"),
                                       triad(30, 64 << 20, "cpu", "AMD EPYC 7R13 Processor", "decode"),
                                       failed, transfer, chain};
  const Model m = build(here(rs), true);
  ASSERT_EQ(m.points.size(), 3u);
  EXPECT_DOUBLE_EQ(measuredCpuPeak(m, Precision::fp32), 40e9);  // the failed 999 GFLOP/s is no roof
  EXPECT_DOUBLE_EQ(measuredCpuBandwidth(m), 30e9);               // the host→device copy is not a memory roof
}

TEST(RooflineModel, RecordingsAreTheirOwnDevicesAndLeftOutWhenHidden) {
  const std::vector<gpulab::Result> mine{gemm(2048, 80), triad(35, 64 << 20)};
  const std::vector<gpulab::Result> rec{gemm(8192, 50000, Precision::fp16, "cuda", "NVIDIA H200"),
                                        triad(4000, 1 << 30, "cuda", "NVIDIA H200"), gemm(2048, 60)};
  std::vector<Input> in = here(mine);
  for (const auto& i : here(rec, 0)) in.push_back(i);
  const Model all = build(in, true);
  ASSERT_EQ(all.devices.size(), 3u);  // the CPU here, the H200 recorded, the recorded CPU: never merged
  EXPECT_EQ(all.points.size(), 5u);
  EXPECT_DOUBLE_EQ(measuredCpuPeak(all, Precision::fp32), 80e9);  // the recorded CPU is not this one
  EXPECT_EQ(measuredGpuNames(all), std::vector<std::string>{"NVIDIA H200"});
  const Model mineOnly = build(in, false);
  EXPECT_EQ(mineOnly.devices.size(), 1u);
  EXPECT_EQ(mineOnly.points.size(), 2u);
  EXPECT_TRUE(measuredGpuNames(mineOnly).empty());
}

TEST(RooflineModel, LavapipeIsNeverAGpuForTheDatasheet) {
  gpulab::Result lava = triad(20, 64 << 20, "vulkan", "llvmpipe (LLVM 15.0.7, 256 bits)");
  lava.provenance["device_type"] = "CPU (not a GPU)";
  gpulab::Result named = gemm(1024, 30, Precision::fp32, "vulkan", "NVIDIA H100 SXM");  // a name that would match
  named.provenance["device_type"] = "CPU (not a GPU)";
  gpulab::Result emu = gemm(256, 1, Precision::fp32, "cuda", "CUDA emulator");
  emu.provenance["device_type"] = "emulator";
  const std::vector<gpulab::Result> rs{lava, named};
  const Model m = build(here(rs), true);
  ASSERT_EQ(m.devices.size(), 2u);
  for (const auto& d : m.devices) EXPECT_FALSE(d.words.is_gpu) << d.device;
  EXPECT_TRUE(measuredGpuNames(m).empty());
  EXPECT_EQ(measuredCpuBandwidth(m), 0);  // lavapipe runs on the CPU, but it is not the CPU backend's roof
  for (const auto& p : m.points) EXPECT_EQ(p.words.label.find("GPU ("), std::string::npos) << p.words.label;
}

TEST(RooflineModel, TheRoofAsksTheLargerArraysFirst) {
  EXPECT_TRUE(betterDramBandwidth(64 << 20, 30, 1 << 20, 150));
  EXPECT_FALSE(betterDramBandwidth(1 << 20, 150, 64 << 20, 30));
  EXPECT_TRUE(betterDramBandwidth(64 << 20, 35, 64 << 20, 30));
}

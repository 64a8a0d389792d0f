// The batch page's model: its own sweep's points from the batch plan's results, recorded sweeps of the same layer
// shape (and nothing from another plan, nor another suite's GEMMs in a recording from before plans), device words.
#include "pages/batch/model/batch_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace batch_model;

namespace {
gpulab::Result gemm(long long m, double gflops, std::string plan = gpulab::plan_name::batch,
                    const std::string& variant = "blas", double threads = 0, const std::string& backend = "cpu") {
  gpulab::Result r;
  r.experiment = "gemm";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = variant;
  r.params = {{"m", double(m)}, {"n", 4096.0}, {"k", 4096.0}, {"threads", threads}};
  r.check.passed = true;
  r.gflops = gflops;
  r.flops = 2.0 * m * 4096 * 4096;
  r.bytes = 4.0 * (m * 4096 + 4096.0 * 4096 + m * 4096);
  r.stats.median_s = r.flops / (gflops * 1e9);
  r.stats.min_s = r.stats.median_s * 0.9;
  r.stats.max_s = r.stats.median_s * 1.2;
  r.samples_s = {r.stats.min_s, r.stats.median_s, r.stats.max_s};
  r.stats.n = 3;
  r.gbps = r.bytes / r.stats.median_s / 1e9;
  return r;
}
gpulab::Result triad(double gbps, double bytesPerArray, std::string plan = gpulab::plan_name::batch) {
  gpulab::Result r;
  r.experiment = "bandwidth";
  r.plan = std::move(plan);
  r.backend = "cpu";
  r.variant = "triad";
  r.params = {{"bytes", bytesPerArray}, {"threads", 0.0}};  // as run_bandwidth writes it
  r.check.passed = true;
  r.gbps = gbps;
  r.stats.median_s = 0.01;
  return r;
}
std::vector<Input> recorded(const std::vector<gpulab::Result>& rs, int source = 0) {
  std::vector<Input> in;
  for (const auto& r : rs) in.push_back({&r, source});
  return in;
}
}  // namespace

TEST(BatchModel, ReadsItsOwnSweepPointByPoint) {
  const Reading bw = read(triad(20, 64 << 20));
  ASSERT_EQ(bw.kind, Reading::Kind::bandwidth);
  EXPECT_DOUBLE_EQ(bw.bandwidth, 20e9);
  const auto r = gemm(64, 150);
  const Reading p = read(r);
  ASSERT_EQ(p.kind, Reading::Kind::point);
  EXPECT_EQ(p.point.batch, 64);
  EXPECT_DOUBLE_EQ(p.point.flopsPerS, 150e9);
  EXPECT_DOUBLE_EQ(p.point.intensity, r.flops / r.bytes);
  EXPECT_NEAR(p.point.lowFlopsPerS, 150e9 / 1.2, 1e3);  // the slowest sample
  EXPECT_NEAR(p.point.highFlopsPerS, 150e9 / 0.9, 1e3);
  auto failed = gemm(1024, 1);
  failed.check.passed = false;
  failed.error = "out of memory";
  const Reading f = read(failed);
  EXPECT_EQ(f.kind, Reading::Kind::pointFailed);
  EXPECT_EQ(f.batch, 1024);
  EXPECT_EQ(f.error, "out of memory");
}

TEST(BatchModel, AnotherPlansResultIsNotDrawn) {
  // The matmul plan's GEMM of the same shape is no point of this sweep, live or recorded.
  EXPECT_EQ(read(gemm(32, 0.26, gpulab::plan_name::matmul, "naive")).kind, Reading::Kind::other);
  EXPECT_EQ(read(triad(30, 1 << 30, gpulab::plan_name::bandwidth)).kind, Reading::Kind::other);
  std::vector<gpulab::Result> rs;
  for (long long b = 1; b <= 8; b *= 2) rs.push_back(gemm(b, 10.0 * b));
  for (long long b = 1; b <= 8; b *= 2) rs.push_back(gemm(b, 1, gpulab::plan_name::matmul));
  const auto sweeps = recordedSweeps(recorded(rs), 4096, 4096);
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_EQ(sweeps[0].flopsPerS, (std::vector<double>{10e9, 20e9, 40e9, 80e9}));
}

TEST(BatchModel, ARecordingFromBeforePlansKeepsOnlyTheBatchSuitesGemms) {
  // The bundled recording: the batch suite's all-thread BLAS sweep, plus, at B = 32, the matmul suite's naive loop
  // (0.26 GFLOP/s), its reordered loop and one-thread BLAS — once drawn as a 300× dip in the sweep.
  std::vector<gpulab::Result> rs;
  for (long long b = 1; b <= 1024; b *= 2) rs.push_back(gemm(b, b < 64 ? 7.0 * b : 200, ""));
  rs.push_back(gemm(32, 0.26, "", "naive"));
  rs.push_back(gemm(32, 7.9, "", "reordered"));
  rs.push_back(gemm(32, 59.6, "", "blas", 1));
  rs.push_back(gemm(32, 60, "", "blas-direct", 1));
  const auto sweeps = recordedSweeps(recorded(rs), 4096, 4096);
  ASSERT_EQ(sweeps.size(), 1u);
  ASSERT_EQ(sweeps[0].batches.size(), 11u);
  EXPECT_DOUBLE_EQ(sweeps[0].batches[5], 32);
  EXPECT_DOUBLE_EQ(sweeps[0].flopsPerS[5], 224e9);  // the sweep's own B = 32
  EXPECT_EQ(sweeps[0].device.device_class, gpulab::DeviceClass::cpu);
  EXPECT_EQ(sweeps[0].source, 0);
}

TEST(BatchModel, RecordedSweepsBySourceShapeAndDevice) {
  std::vector<gpulab::Result> a, b;
  for (long long m = 1; m <= 4; m *= 2) a.push_back(gemm(m, 10.0 * m));
  for (long long m = 1; m <= 4; m *= 2) b.push_back(gemm(m, 20.0 * m));
  b.push_back(gemm(8, 1000, gpulab::plan_name::batch, "cublas", 0, "cuda"));  // one GPU point: no sweep
  std::vector<Input> in = recorded(a, 0);
  for (const Input& i : recorded(b, 1)) in.push_back(i);
  const auto sweeps = recordedSweeps(in, 4096, 4096);
  ASSERT_EQ(sweeps.size(), 2u);  // two recordings side by side, never merged
  EXPECT_EQ(sweeps[0].source, 0);
  EXPECT_EQ(sweeps[1].source, 1);
  EXPECT_TRUE(recordedSweeps(in, 1024, 1024).empty());  // another layer's shape
  // Measured here is the page's own sweep (read()), not a recorded one.
  EXPECT_TRUE(recordedSweeps(recorded(a, -1), 4096, 4096).empty());
}

TEST(BatchModel, ACpuTypeVulkanDeviceIsNotAGpu) {
  std::vector<gpulab::Result> rs;
  for (long long m = 1; m <= 4; m *= 2) {
    auto r = gemm(m, 2.0 * m, gpulab::plan_name::batch, "vectorized", 0, "vulkan");
    r.provenance["device"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
    r.provenance["device_type"] = "CPU (not a GPU)";
    rs.push_back(r);
  }
  const auto sweeps = recordedSweeps(recorded(rs), 4096, 4096);
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_FALSE(sweeps[0].device.is_gpu);
  EXPECT_EQ(sweeps[0].device.device_class, gpulab::DeviceClass::vulkan_on_cpu);
  EXPECT_EQ(sweeps[0].deviceName, "llvmpipe");
}

TEST(BatchModel, SessionBandwidthFromTheLargestCpuArrays) {
  const auto cache = triad(150, 1 << 20, gpulab::plan_name::bandwidth), dram = triad(35, 256 << 20, "");
  auto gpu = triad(3000, 1 << 30);
  gpu.backend = "cuda";
  const auto recordedOne = triad(500, 1 << 30);
  std::vector<Input> in{{&cache, -1}, {&dram, -1}, {&gpu, -1}, {&recordedOne, 0}};
  EXPECT_DOUBLE_EQ(sessionCpuBandwidth(in), 35e9);  // not the cache-sized 150, the GPU's or the recording's
  EXPECT_DOUBLE_EQ(sessionCpuBandwidth({}), 0);
}

// The page's shown state: before a sweep has a point the views draw what the controls say; once it has one, what
// the sweep ran with, even after the controls moved on (the page keeps no copy of its controls for this).
TEST(BatchModel, TheShownSetUpIsTheControlsUntilTheSweepHasAPoint) {
  SweepSetup controls;
  controls.precision = gpulab::Precision::fp16;
  controls.dIn = controls.dOut = 1024;
  SweepSetup ran;
  ran.precision = gpulab::Precision::fp32;
  ran.dIn = ran.dOut = 4096;
  ran.onGpu = ran.isGpu = true;
  ran.device = "NVIDIA H200";
  SweepState state = startSweep(ran);
  EXPECT_EQ(state.shown(controls).dIn, 1024);
  EXPECT_EQ(state.shown(controls).precision, gpulab::Precision::fp16);
  SweepPoint p;
  p.batch = 1;
  apply(state, p, 51.6);
  ASSERT_EQ(state.points.size(), 1u);
  EXPECT_DOUBLE_EQ(state.measuredPeakGflops, 51.6);
  EXPECT_EQ(state.shown(controls).dIn, 4096);
  EXPECT_EQ(state.shown(controls).precision, gpulab::Precision::fp32);
  EXPECT_TRUE(state.shown(controls).isGpu);
  EXPECT_EQ(state.shown(controls).device, "NVIDIA H200");
  // A new sweep starts empty: the controls are shown again until its first point.
  state = startSweep(ran);
  EXPECT_TRUE(state.points.empty());
  EXPECT_EQ(state.shown(controls).dIn, 1024);
}

// Issue 40: a recorded sweep is read against its recording's memory roof, the triad its plan ran at its start.
TEST(BatchModel, ARecordedSweepCarriesItsOwnTriadAndIntensities) {
  std::vector<gpulab::Result> rs;
  rs.push_back(triad(150, 1 << 20, gpulab::plan_name::bandwidth));  // another suite's cache-sized arrays
  rs.push_back(triad(31, 64 << 20));                                 // the sweep's own, at its start
  for (long long b = 1; b <= 8; b *= 2) rs.push_back(gemm(b, 10.0 * b));
  const auto sweeps = recordedSweeps(recorded(rs), 4096, 4096);
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_DOUBLE_EQ(sweeps[0].bandwidth, 31e9);
  EXPECT_DOUBLE_EQ(sweeps[0].bandwidthArrayBytes, double(64 << 20));
  EXPECT_TRUE(sweeps[0].bandwidthOfTheSweep);
  ASSERT_EQ(sweeps[0].intensities.size(), 4u);
  EXPECT_DOUBLE_EQ(sweeps[0].intensities[3], rs.back().flops / rs.back().bytes);
  EXPECT_DOUBLE_EQ(sweeps[0].peakFlops, 0);  // no roofs suite in it: the memory roof alone
  // Another recording's triad is never this one's roof.
  const std::vector<gpulab::Result> gemms(rs.begin() + 2, rs.end());
  std::vector<Input> in = recorded(gemms, 0);
  const gpulab::Result other = triad(99, 64 << 20);
  in.push_back({&other, 1});
  const auto alone = recordedSweeps(in, 4096, 4096);
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_DOUBLE_EQ(alone[0].bandwidth, 0);
}

TEST(BatchModel, BeforePlansTheTriadThePlanRunsThereIsTheRoof) {
  // The bundled recording has no plan names: the bandwidth suite's triads from 1 MiB to 256 MiB, on one thread and
  // on all. The batch plan runs the all-thread 64 MiB triad on a CPU: that one, not the faster cache-sized arrays.
  std::vector<gpulab::Result> rs;
  for (double mib : {1.0, 64.0, 256.0}) {
    auto one = triad(mib < 2 ? 99 : 22, mib * (1 << 20), "");
    one.params["threads"] = 1;
    rs.push_back(one);
    rs.push_back(triad(mib < 2 ? 81 : mib < 100 ? 35.82 : 34.83, mib * (1 << 20), ""));
  }
  for (long long b = 1; b <= 8; b *= 2) rs.push_back(gemm(b, 10.0 * b, ""));
  const auto sweeps = recordedSweeps(recorded(rs), 4096, 4096);
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_DOUBLE_EQ(sweeps[0].bandwidth, 35.82e9);
  EXPECT_FALSE(sweeps[0].bandwidthOfTheSweep);
}

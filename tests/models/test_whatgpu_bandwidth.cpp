// "What a GPU is" names the CPU's memory bandwidth from a triad when there is one (issue 39: it said "tens of GB/s
// (typical desktop, not measured)" beside a measured triad): this machine's first, by the DRAM rule; else a
// recording of a CPU with this one's name; never another machine's or a GPU's.
#include "pages/whatgpu/model/cpu_bandwidth.h"

#include <gtest/gtest.h>

using whatgpu_model::cpuBandwidth;

namespace {
gpulab::Result triad(double gbps, double bytes, const std::string& device, const std::string& backend = "cpu") {
  gpulab::Result r;
  r.experiment = "bandwidth";
  r.backend = backend;
  r.variant = "triad";
  r.params = {{"bytes", bytes}};
  r.provenance = {{"device", device}};
  r.check.passed = true;
  r.gbps = gbps;
  r.stats.median_s = 0.01;
  return r;
}
const std::string kCpu = "AMD EPYC 7R13";
}  // namespace

TEST(WhatGpuBandwidth, NoneWithoutATriad) {
  EXPECT_FALSE(cpuBandwidth({}, kCpu).found());
}

TEST(WhatGpuBandwidth, MeasuredHereByTheDramRule) {
  const auto dram = triad(21, 64 << 20, kCpu), cache = triad(95, 1 << 20, kCpu), gpu = triad(3000, 1 << 30, "H100", "cuda");
  const auto b = cpuBandwidth({{&cache, -1}, {&dram, -1}, {&gpu, -1}}, kCpu);
  ASSERT_TRUE(b.found());
  EXPECT_DOUBLE_EQ(b.bytesPerS, 21e9);  // the DRAM-sized arrays, not the cache-sized 95 GB/s
  EXPECT_EQ(b.source, -1);
}

TEST(WhatGpuBandwidth, ARecordingOfThisCpuOnlyWhenNothingWasMeasuredHere) {
  const auto same = triad(30, 64 << 20, kCpu), other = triad(200, 1 << 30, "Intel Xeon Platinum 8480"),
             here = triad(21, 64 << 20, kCpu);
  const auto recorded = cpuBandwidth({{&other, 0}, {&same, 1}}, kCpu);
  ASSERT_TRUE(recorded.found());
  EXPECT_DOUBLE_EQ(recorded.bytesPerS, 30e9);
  EXPECT_EQ(recorded.source, 1);
  EXPECT_FALSE(cpuBandwidth({{&other, 0}}, kCpu).found()) << "another machine's CPU is not this one";
  EXPECT_EQ(cpuBandwidth({{&same, 1}, {&here, -1}}, kCpu).source, -1);
}

// The roofline model's measured roofs (issue 27): "peak" results become each device's FMA roof per precision, the
// empty "overhead" result its floor (a CUDA graph's kept apart), the sweep its own list; none of them is a point
// (they move no bytes to place them by). A device with nothing but these (lavapipe, no datasheet) still has roofs.
#include "pages/roofline/model/roofline_model.h"

#include "gpulab/result_views.hpp"
#include "gpulab/roofs.hpp"

#include <gtest/gtest.h>

using namespace roofline_model;
using gpulab::Precision;

namespace {
gpulab::Result peak(double gflops, Precision p, const std::string& backend, const std::string& device, bool ok = true) {
  gpulab::Result r;
  r.experiment = gpulab::experiment_name::peak;
  r.backend = backend;
  r.variant = "fma";
  r.precision = p;
  r.provenance["device"] = device;
  r.check.passed = ok;
  if (!ok) r.error = "check failed";
  r.gflops = gflops;
  r.flops = 1e9;
  r.bytes = 4;
  r.stats.median_s = 1 / gflops;
  return r;
}
gpulab::Result overhead(double elements, double seconds, const std::string& backend, const std::string& device,
                        bool graph = false) {
  gpulab::Result r;
  r.experiment = gpulab::experiment_name::overhead;
  r.backend = backend;
  r.variant = graph ? "graph" : elements == 0 ? "empty" : "elementwise";
  r.provenance["device"] = device;
  r.params = {{"elements", elements}, {"graph", graph ? 1.0 : 0.0}, {"per_op_s", seconds}};
  r.check.passed = true;
  r.flops = 2 * elements;
  r.bytes = 12 * elements;
  r.stats.median_s = seconds;
  return r;
}
const std::string lavapipe = "Vulkan on the CPU (llvmpipe) — not a GPU";
}  // namespace

TEST(RooflineRoofs, PeaksAndFloorsBecomeEachDevicesRoofs) {
  const std::vector<gpulab::Result> rs{
      peak(200, Precision::fp32, "cpu", "AMD EPYC"),
      peak(240, Precision::fp32, "cpu", "AMD EPYC"),  // the best run is the roof
      peak(100, Precision::fp64, "cpu", "AMD EPYC"),
      peak(999, Precision::fp32, "cpu", "AMD EPYC", false),  // a failed check is never a roof
      overhead(0, 4e-6, "cpu", "AMD EPYC"),
      overhead(0, 3e-6, "cpu", "AMD EPYC"),
      overhead(4096, 9e-6, "cpu", "AMD EPYC"),
      overhead(16, 5e-6, "cpu", "AMD EPYC"),
      peak(60, Precision::fp32, "vulkan", lavapipe),
      overhead(0, 30e-6, "vulkan", lavapipe),
  };
  std::vector<Input> in;
  for (const auto& r : rs) in.push_back({&r, -1});
  const Model m = build(in, true);
  ASSERT_EQ(m.devices.size(), 2u);
  const DeviceCeilings& cpu = m.devices[0];
  EXPECT_DOUBLE_EQ(cpu.fmaPeak.at(Precision::fp32), 240e9);
  EXPECT_DOUBLE_EQ(cpu.fmaPeak.at(Precision::fp64), 100e9);
  EXPECT_TRUE(cpu.peak.empty());  // the GEMM roofs stay GEMMs' own
  EXPECT_DOUBLE_EQ(cpu.overheadFloorS, 3e-6);
  ASSERT_EQ(cpu.sweep.size(), 2u);
  EXPECT_EQ(cpu.sweep.front().first, 16);  // smallest first
  const DeviceCeilings& vk = m.devices[1];
  EXPECT_TRUE(vk.hasMeasuredRoofs());
  EXPECT_DOUBLE_EQ(vk.fmaPeak.at(Precision::fp32), 60e9);
  EXPECT_DOUBLE_EQ(vk.overheadFloorS, 30e-6);
  EXPECT_TRUE(m.points.empty());  // roofs, not points
  EXPECT_TRUE(measuredGpuNames(m).empty());  // lavapipe never gets a GPU's datasheet
}

TEST(RooflineRoofs, GraphFloorIsKeptApartFromTheLaunchFloor) {
  const std::vector<gpulab::Result> rs{overhead(0, 5e-6, "cuda", "NVIDIA H200"),
                                       overhead(0, 2e-6, "cuda", "NVIDIA H200", true)};
  std::vector<Input> in;
  for (const auto& r : rs) in.push_back({&r, 0});
  EXPECT_TRUE(build(in, false).devices.empty());  // recorded results only when asked
  const Model m = build(in, true);
  ASSERT_EQ(m.devices.size(), 1u);
  EXPECT_DOUBLE_EQ(m.devices[0].overheadFloorS, 5e-6);
  EXPECT_DOUBLE_EQ(m.devices[0].graphFloorS, 2e-6);
}

// Issue 36: launches issued back to back (experiment "launch_overhead") are kept beside the launch + wait, and the floor a
// stream of small ops meets is that pace, not the launch + wait: asynchronous launches overlap.
TEST(RooflineRoofs, BackToBackPaceIsTheStreamsFloor) {
  gpulab::Result pace;
  pace.experiment = gpulab::experiment_name::launch_overhead;
  pace.backend = "cuda";
  pace.variant = "tiny_kernels";
  pace.provenance["device"] = "NVIDIA H200";
  pace.params = {{"kernels", 1000}, {"elements", 1}, {"per_launch_s", 2.5e-6}};
  pace.check.passed = true;
  pace.stats.median_s = 2.5e-3;
  const std::vector<gpulab::Result> rs{overhead(0, 9e-6, "cuda", "NVIDIA H200"), pace};
  std::vector<Input> in;
  for (const auto& r : rs) in.push_back({&r, -1});
  const Model m = build(in, true);
  ASSERT_EQ(m.devices.size(), 1u);
  EXPECT_DOUBLE_EQ(m.devices[0].overheadFloorS, 9e-6);  // the launch + wait stays as it was measured
  EXPECT_DOUBLE_EQ(m.devices[0].issueS, 2.5e-6);
  EXPECT_DOUBLE_EQ(m.devices[0].streamFloorS(), 2.5e-6);  // was the launch + wait, 9 µs
  EXPECT_TRUE(m.points.empty());
  // Without the pace, the stream's floor falls back on the launch + wait.
  const std::vector<Input> only{{&rs[0], -1}};
  EXPECT_DOUBLE_EQ(build(only, true).devices[0].streamFloorS(), 9e-6);
}

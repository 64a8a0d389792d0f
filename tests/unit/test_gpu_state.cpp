// The GPU's state from NVML (gpulab/gpu_state.hpp) and a suite's record of it (suite_gpu_state.hpp): read through a
// fake libnvidia-ml (tests/unit/fake_nvml), said to be absent when there is none, and a result taken while the GPU
// throttled says so.
#include "gpulab/gpu_state.hpp"
#include "suite_gpu_state.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace gpulab;

namespace {

TEST(GpuState, ThrottleReasonsAreNamedAndOnlyLimitsCountAsThrottling) {
  EXPECT_EQ(describe_throttle_reasons(0), "none");
  EXPECT_EQ(describe_throttle_reasons(0x4 | 0x40), "SW power cap, HW thermal slowdown");
  EXPECT_EQ(describe_throttle_reasons(0x1 | 0x1000), "GPU idle, reason bits 0x1000");
  EXPECT_FALSE(is_throttled(0));
  EXPECT_FALSE(is_throttled(0x1));   // idle: nothing ran
  EXPECT_FALSE(is_throttled(0x2));   // application clocks: a setting someone chose
  EXPECT_TRUE(is_throttled(0x4));    // power cap
  EXPECT_TRUE(is_throttled(0x20));   // thermal
  EXPECT_TRUE(is_throttled(0x1 | 0x8));
}

TEST(GpuState, WithoutNvmlTheReasonSaysSo) {
  const NvmlSession nvml("/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(nvml.available());
  EXPECT_NE(nvml.reason().find("NVML is not available"), std::string::npos) << nvml.reason();
  const GpuState s = nvml.read("0000:01:00.0");
  EXPECT_FALSE(s.read);
  EXPECT_EQ(describe(s).rfind("not read: NVML is not available", 0), 0u) << describe(s);
}

TEST(GpuState, ReadsClocksPowerTemperatureAndReasonsThroughTheLibrary) {
  const NvmlSession nvml(GPULAB_FAKE_NVML);
  ASSERT_TRUE(nvml.available()) << nvml.reason();
  ::setenv("FAKE_NVML_REASONS", "0x4", 1);
  const GpuState s = nvml.read("0000:01:00.0");
  ASSERT_TRUE(s.read) << s.reason;
  EXPECT_EQ(s.sm_mhz, 1980u);
  EXPECT_EQ(s.memory_mhz, 2619u);
  EXPECT_DOUBLE_EQ(s.power_w, 312.5);
  EXPECT_EQ(s.temperature_c, 45);
  EXPECT_EQ(s.throttle_reasons, 0x4u);
  EXPECT_EQ(describe(s), "SM 1980 MHz, memory 2619 MHz, 312.5 W, 45 \u00b0C, throttle reasons: SW power cap, "
                        "PCIe Gen4 x16 (at most Gen5 x16)");
  // The link, current and most: a Gen5 card trained to Gen4 by its slot.
  EXPECT_EQ(s.pcie_gen, 4u);
  EXPECT_EQ(s.pcie_width, 16u);
  EXPECT_EQ(s.pcie_max_gen, 5u);
  EXPECT_EQ(describe_pcie_link(s), "Gen4 x16 (at most Gen5 x16)");
  EXPECT_EQ(describe_pcie_link(GpuState{}), "");
  const GpuState other = nvml.read("0000:02:00.0");
  EXPECT_FALSE(other.read);
  EXPECT_NE(other.reason.find("no GPU at PCI bus 0000:02:00.0"), std::string::npos) << other.reason;
  ::unsetenv("FAKE_NVML_REASONS");
}

// A CUDA device as the suite sees it: its PCI bus id in the provenance.
class FakeCudaBackend final : public Backend {
 public:
  std::string kind() const override { return "cuda"; }
  DeviceInfo device_info() const override {
    DeviceInfo d;
    d.name = "NVIDIA H200";
    return d;
  }
  Provenance provenance() const override { return {{"device", "NVIDIA H200"}, {"pci_bus_id", "0000:01:00.0"}}; }
  std::vector<std::string> gemm_variants() const override { return {}; }
  Support supports(const GemmSpec&) const override { return Support::yes(); }
  std::unique_ptr<TimedOp> make_gemm(const GemmSpec&) override { return nullptr; }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec&) override { return nullptr; }
  Support supports(const TransferSpec&) const override { return Support::yes(); }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec&) override { return nullptr; }
  MemoryInfo memory_info() const override { return {}; }
};

// One GPU job that hands its result over as it goes, with the throttle reasons NVML reports while it runs.
Recording run_one_job(Backend& gpu, const char* reasons_while_running) {
  Plan plan;
  plan.name = "roofs";
  PlanJob job;
  job.plan = "roofs";
  job.label = "GPU peak fp32";
  job.backend = &gpu;
  job.experiment = "peak";
  job.run = [reasons_while_running](const RunContext& ctx) {
    ::setenv("FAKE_NVML_REASONS", reasons_while_running, 1);
    Result r;
    r.experiment = "peak";
    r.backend = "cuda";
    if (ctx.on_result) ctx.on_result(r);
    return std::vector<Result>{};
  };
  plan.jobs.push_back(job);
  Backends backends{nullptr, &gpu, {}};
  Recording rec;
  ::setenv("FAKE_NVML_REASONS", "0x1", 1);  // idle before the job
  SuiteGpuState state(backends);
  state.watch(plan);
  const RunContext ctx;
  for (const Result& r : run_plan(plan, ctx)) rec.results.push_back(r);
  state.write(rec);
  ::unsetenv("FAKE_NVML_REASONS");
  return rec;
}

TEST(SuiteGpuState, NamesTheStateAtTheSuitesStartAndEndAndMarksAThrottledResult) {
  FakeCudaBackend gpu;
  ::setenv("GPULAB_NVML_LIBRARY", GPULAB_FAKE_NVML, 1);
  const Recording throttled = run_one_job(gpu, "0x4");
  ASSERT_EQ(throttled.results.size(), 1u);
  EXPECT_EQ(throttled.context.at("gpu_state_roofs_start"),
            "SM 1980 MHz, memory 2619 MHz, 312.5 W, 45 \u00b0C, throttle reasons: GPU idle, PCIe Gen4 x16 (at most "
            "Gen5 x16)");
  EXPECT_NE(throttled.context.at("gpu_state_roofs_end").find("throttle reasons: SW power cap"), std::string::npos);
  ASSERT_TRUE(throttled.results[0].provenance.count("gpu_throttled"));
  EXPECT_NE(throttled.results[0].provenance.at("gpu_throttled").find("at its end (SW power cap)"), std::string::npos)
      << throttled.results[0].provenance.at("gpu_throttled");

  // Each result names the link it ran over, read after it ran (an idle link trains down).
  EXPECT_EQ(throttled.results[0].provenance.at("pcie_link"), "Gen4 x16 (at most Gen5 x16)");

  const Recording cool = run_one_job(gpu, "0x0");
  ASSERT_EQ(cool.results.size(), 1u);
  EXPECT_EQ(cool.results[0].provenance.count("gpu_throttled"), 0u);
  EXPECT_NE(cool.context.at("gpu_state_roofs_end").find("throttle reasons: none"), std::string::npos);
  ::unsetenv("GPULAB_NVML_LIBRARY");
}

TEST(SuiteGpuState, WithoutNvmlTheRecordingSaysWhy) {
  FakeCudaBackend gpu;
  ::setenv("GPULAB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  const Recording rec = run_one_job(gpu, "0x4");
  ::unsetenv("GPULAB_NVML_LIBRARY");
  ASSERT_TRUE(rec.context.count("gpu_state"));
  EXPECT_EQ(rec.context.at("gpu_state").rfind("not read: NVML is not available", 0), 0u) << rec.context.at("gpu_state");
  EXPECT_EQ(rec.results.at(0).provenance.count("gpu_throttled"), 0u);
}

}  // namespace

// The plan estimate (gpulab/plan_estimate.hpp) and the sizing it keeps honest: every suite the device check runs
// plans against every NVIDIA catalogue card (the model backends answer whatever a plan asks), every job it plans is
// priced, and the work the device check spent its caps on stays fixed — the GPU bandwidth arrays below the floor
// run once, the vram suite neither pauses nor holds, and the precision suite sizes each library GEMM by time.
#include "gpulab/matmul_suite.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/page_plans.hpp"
#include "gpulab/plan_estimate.hpp"
#include "gpulab/suite_registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace gpulab;

namespace {

struct Modelled {
  Modelled(const std::string& card_name, ModelDevice device)
      : card(*models::find_gpu(card_name)), cpu(make_model_host_backend({})), gpu(make_model_gpu_backend(card, device)) {}
  Backends backends() { return {cpu.get(), gpu.get(), ""}; }
  models::GpuSpec card;
  std::unique_ptr<Backend> cpu, gpu;
};

const std::vector<std::string> kCheckSuites{"matmul", "precision", "transfer", "decode", "batch",
                                            "bandwidth", "vram", "amdahl", "roofs"};

}  // namespace

TEST(PlanEstimate, EverySuitePlansAndIsPricedOnEveryNvidiaCard) {
  for (const models::GpuSpec& card : models::catalogue()) {
    if (card.vendor != "NVIDIA") continue;
    for (ModelDevice device : {ModelDevice::cuda, ModelDevice::vulkan})
      for (const std::string& suite : kCheckSuites) {
        SCOPED_TRACE(card.name + " " + suite + (device == ModelDevice::cuda ? " cuda" : " vulkan"));
        SuiteEstimate e;
        ASSERT_NO_THROW(e = estimate_suite(suite, card, device, MeasurePolicy{}, device == ModelDevice::vulkan));
        EXPECT_GT(e.seconds, e.fixed_s);
        for (const JobEstimate& j : e.jobs) {
          EXPECT_GT(j.seconds, 0) << j.label;
          EXPECT_EQ(j.basis.find("unpriced"), std::string::npos) << j.label << " is an experiment the model does not price";
        }
      }
  }
}

TEST(PlanEstimate, GpuBandwidthSizesUnderTheFloorRunOnce) {
  // An H200's 4x L2 is 200 MiB: 4, 16 and 64 MiB would all run at 200 MiB, three times the same measurement.
  Modelled m("H200 SXM", ModelDevice::cuda);
  const Plan plan = suite_plan("bandwidth", m.backends());
  std::multiset<std::string> ran;
  const double floor = double(device_bandwidth_floor_bytes(*m.gpu));
  EXPECT_EQ(floor, 200.0 * kMiB);
  for (const PlanJob& j : plan.jobs)
    if (j.backend == m.gpu.get()) ran.insert(j.variant + " " + std::to_string(std::max(floor, j.params.at("bytes"))));
  for (const std::string& size : ran) EXPECT_EQ(ran.count(size), 1u) << size << " is measured more than once";
  EXPECT_EQ(ran.size(), 6u);  // copy and triad at the floor, 256 MiB and 1 GiB
}

TEST(PlanEstimate, TheVramSuiteNeitherPausesNorHolds) {
  Modelled m("H200 SXM", ModelDevice::cuda);
  const Plan plan = suite_plan("vram", m.backends());
  ASSERT_EQ(plan.jobs.size(), 1u);
  EXPECT_EQ(plan.jobs[0].estimate_hints.at("step_pause_s"), 0);
  EXPECT_EQ(plan.jobs[0].estimate_hints.at("hold_s"), 0);
  // The page keeps its pauses: a class watches those bars fill.
  const Plan page = vram_plan(m.backends(), VramControls{});
  EXPECT_GT(page.jobs[0].estimate_hints.at("step_pause_s"), 0);
}

TEST(PlanEstimate, EveryPrecisionGemmIsSizedByTimeOnEveryCudaCard) {
  // A DGEMM at 8192³ is 1.1 TFLOP: 3-12 s a run on a consumer card (RTX 4090: 1.29 TFLOP/s FP64), past the cancel
  // window. Each format's size keeps one run within kMatmulGpuMaxRunS at half its datasheet peak.
  for (const models::GpuSpec& card : models::catalogue()) {
    if (card.vendor != "NVIDIA") continue;
    SCOPED_TRACE(card.name);
    Modelled m(card.name, ModelDevice::cuda);
    for (const PlanJob& j : suite_plan("precision", m.backends()).jobs) {
      if (j.experiment != "gemm" || j.backend != m.gpu.get() || j.label.find("skipped") != std::string::npos) continue;
      const double n = j.params.at("n");
      const double peak = card.peak_flops_for(j.precision).value_or(card.fp32_tflops.value_or(1) * 1e12);
      EXPECT_LE(2 * n * n * n / (0.5 * peak), kMatmulGpuMaxRunS * 1.0001) << j.label;
      EXPECT_GE(n, double(kMatmulGpuMinN)) << j.label;
    }
  }
  // A data-centre card keeps the page's 8192³ in every format.
  Modelled h200("H200 SXM", ModelDevice::cuda);
  for (const PlanJob& j : suite_plan("precision", h200.backends()).jobs)
    if (j.experiment == "gemm" && j.backend == h200.gpu.get()) EXPECT_EQ(j.params.at("n"), 8192) << j.label;
}

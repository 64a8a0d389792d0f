// The decode chain on the Vulkan device here (lavapipe on CI, allowed on purpose), validation layer on: weights
// split over several buffers and dispatches match the reference, and the decode page's plan runs its chain on
// Vulkan — with the 7B model's default shape it used to fall back to the CPU on lavapipe, whose 128 MiB
// maxStorageBufferRange one layer's weights did not fit.
#include "vulkan_test_support.hpp"

#if GPULAB_TEST_HAVE_VULKAN
#include "backend_internal.hpp"
#include "chain_layout.hpp"
#include "gpulab/decode_experiments.hpp"
#include "gpulab/page_plans.hpp"
#include "vulkan_backend.hpp"

#include <memory>
#include <string>

namespace {

using namespace gpulab;

vk::BackendOptions allowing_cpu() {
  vk::BackendOptions options;
  options.allow_cpu = true;
  return options;
}

// The Vulkan device (lavapipe allowed) in the GPU slot beside the CPU backend, as the app pairs them for a plan.
struct VulkanBesideCpu {
  vk::Created vulkan = vk::create_backend(allowing_cpu());
  std::unique_ptr<Backend> cpu = make_cpu_backend();
  Backends backends{cpu.get(), vulkan.backend.get()};
};

// Weights in blocks of whole columns over several buffers (a binding made small on purpose: 64 KiB), checked
// against the FP64 reference through both shaders: streaming (3 rows) and tiles (12 rows).
TEST(VulkanDecodeChain, WeightsSplitOverSeveralBuffersMatchTheReference) {
  vk::BackendOptions options;
  options.allow_cpu = true;
  options.validation = true;
  vk::Created c = vk::list_only(options);
  if (!c.instance || c.devices.empty()) GTEST_SKIP() << c.reason;
  std::string why;
  const int index = vk::choose_device(c.devices, -1, true, why);
  if (index < 0) GTEST_SKIP() << why;
  vk::DeviceFacts f = c.devices[static_cast<std::size_t>(index)];
  f.props.max_storage_buffer_range = 64 * 1024;
  vk::Ctx ctx{std::make_shared<vk::Device>(c.instance, f)};
  for (Precision p : {Precision::fp32, Precision::fp16}) {
    if (p == Precision::fp16 && !ctx.device->fp16_enabled()) continue;
    for (long long batch : {3LL, 12LL}) {
      LayerChainSpec spec;
      spec.matrices = {{96, 200}, {200, 96}};  // 96×200 FP32 = 75 KiB: more than one 64 KiB buffer
      spec.layers = 3;
      spec.batch = batch;
      spec.precision = p;
      std::vector<long long> widths;
      const vk::ChainLayout layout =
          vk::plan_chain_layout(f.props, plan_layer_chain(spec, widths), batch, p == Precision::fp16 ? 2 : 4);
      EXPECT_GT(layout.buffer_bytes.size(), 2u);
      EXPECT_GT(layout.blocks[0].size() + layout.blocks[1].size(), 2u);
      auto op = vk::make_layer_chain_op(ctx, spec);
      const Check check = op->verify();
      EXPECT_TRUE(check.passed) << display_name(p) << ", batch " << batch << ": " << check.message;
      EXPECT_GT(check.checked, 0);
      EXPECT_GT(op->run_once(), 0.0);
    }
  }
  EXPECT_EQ(c.instance->validation_errors(), 0) << c.instance->last_validation_error();
}

// The decode page's plan with its defaults (the 7B model) puts every chain job on the Vulkan device: no note that
// the chain runs on the CPU, and the one-user chain is accepted. Planning only: nothing is run.
TEST(VulkanDecodeChain, TheDecodePlanRunsItsChainOnVulkan) {
  const VulkanBesideCpu pair;
  if (!pair.vulkan.backend) GTEST_SKIP() << "no Vulkan device here: " << pair.vulkan.reason;
  const Backends& backends = pair.backends;
  const Plan plan = decode_plan(backends);
  int chains = 0;
  for (const PlanJob& job : plan.jobs) {
    if (job.experiment != experiment_name::layer_chain) continue;
    ++chains;
    EXPECT_EQ(job.backend, pair.vulkan.backend.get()) << job.label;
    EXPECT_FALSE(job.run == nullptr) << job.label;
  }
  EXPECT_GE(chains, 8) << "1, 2, 4 … 64 users and the prompt's prefill";
  const Support one_user = pair.vulkan.backend->supports(layer_chain_for(TransformerShape{}, 1, 1, plan.jobs.back().precision));
  EXPECT_TRUE(one_user.ok) << one_user.reason;
}

// The plan's chain jobs run and pass their check on Vulkan (a small transformer shape, so this takes seconds).
TEST(VulkanDecodeChain, AShrunkDecodePlanMeasuresOnVulkan) {
  const VulkanBesideCpu pair;
  if (!pair.vulkan.backend) GTEST_SKIP() << "no Vulkan device here: " << pair.vulkan.reason;
  const Backends& backends = pair.backends;
  DecodeControls controls;
  controls.shape = TransformerShape{256, 4, 2, 64, 688, 8};
  controls.max_users = 16;  // 1-8 rows stream their weights, 16 go through the tiles
  controls.budget_bytes = 4e6;
  controls.triad_bytes = 1 << 20;
  const Plan plan = decode_plan(backends, controls);
  RunContext ctx;
  ctx.policy.time_budget_s = 0.05;
  ctx.policy.max_samples = 2;
  ctx.policy.min_samples = 1;
  int measured = 0;
  for (const PlanJob& job : plan.jobs) {
    if (job.experiment != experiment_name::layer_chain) continue;
    for (const Result& r : job.run(ctx)) {
      EXPECT_EQ(r.backend, "vulkan") << job.label;
      EXPECT_TRUE(r.error.empty()) << job.label << ": " << r.error;
      EXPECT_TRUE(r.check.passed) << job.label << ": " << r.check.message;
      EXPECT_NE(r.provenance.at("code_path").find("Vulkan"), std::string::npos) << r.provenance.at("code_path");
      measured += r.error.empty() ? 1 : 0;
    }
  }
  EXPECT_EQ(measured, 6) << "1, 2, 4, 8 and 16 users, then the 1,000-token prompt's prefill";
}

}  // namespace

#else
TEST(VulkanDecodeChain, Skipped) { GPULAB_SKIP_WITHOUT_VULKAN_BUILD(); }
#endif

// The Vulkan device's roofs (issue 27) on whatever device is here (lavapipe on CI), validation layer on: the FMA
// peak checked invocation by invocation against the closed form, FP16 exactly where shaderFloat16 is on, the empty
// dispatch's floor and the elementwise op checked element by element. Short runs; no speed asserted.
#include "vulkan_test_support.hpp"

#if GPULAB_TEST_HAVE_VULKAN
#include "gpulab/roofs.hpp"
#include "vulkan_backend.hpp"

namespace {
using namespace gpulab;

class VulkanRoofs : public VulkanBackendTest {
 protected:
  static RunContext quick() {
    RunContext ctx;
    ctx.policy.min_samples = 2;
    ctx.policy.max_samples = 2;
    ctx.policy.time_budget_s = 0.05;
    return ctx;
  }
};

TEST_F(VulkanRoofs, Fp32PeakIsCheckedEveryInvocation) {
  const Result r = run_peak(backend(), PeakSpec{Precision::fp32, 0.01}, quick());
  ASSERT_TRUE(r.ok()) << r.error << " " << r.check.message;
  const auto p = as_peak(r);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->chains, 8);
  EXPECT_EQ(p->lanes, 4);
  EXPECT_EQ(r.check.checked, static_cast<long long>(p->invocations));
  EXPECT_DOUBLE_EQ(r.flops, p->invocations * 8 * 4 * 2 * p->iterations);
  EXPECT_GT(r.gflops, 0);
  EXPECT_EQ(r.provenance.at("timer"), "the device's timestamps around the dispatch");
}

TEST_F(VulkanRoofs, Fp16PeakExactlyWhereTheDeviceHasIt) {
  const bool fp16 = backend().supports(GemmSpec{64, 64, 64, Precision::fp16, "01_naive", 0, 42}).ok;
  const Result r = run_peak(backend(), PeakSpec{Precision::fp16, 0.01}, quick());
  if (!backend().supports(PeakSpec{Precision::fp16, 0.01}).ok) {
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.error.find("shaderFloat16"), std::string::npos) << r.error;
    return;
  }
  (void)fp16;
  ASSERT_TRUE(r.ok()) << r.error << " " << r.check.message;
  EXPECT_LT(r.check.max_rel_err, 0.02);
  EXPECT_FALSE(run_peak(backend(), PeakSpec{Precision::fp64, 0.01}, quick()).ok());
}

TEST_F(VulkanRoofs, EmptyDispatchAndElementwiseOp) {
  const Result empty = run_overhead(backend(), OverheadSpec{0, false}, quick());
  ASSERT_TRUE(empty.ok()) << empty.error;
  EXPECT_GT(as_overhead(empty)->per_op_s, 0);
  EXPECT_LT(as_overhead(empty)->per_op_s, 0.1);
  // 1,001 floats: rounded up to whole vec4s, every one checked.
  const Result op = run_overhead(backend(), OverheadSpec{1001, false}, quick());
  ASSERT_TRUE(op.ok()) << op.error << " " << op.check.message;
  EXPECT_EQ(op.check.checked, 1004);
  EXPECT_EQ(op.param("elements_run"), 1004);
  EXPECT_FALSE(run_overhead(backend(), OverheadSpec{0, true}, quick()).ok());  // no CUDA graph here
}

}  // namespace
#else
TEST(VulkanRoofs, SkippedWithoutVulkan) { GPULAB_SKIP_WITHOUT_VULKAN_BUILD(); }
#endif

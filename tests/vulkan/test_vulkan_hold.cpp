// The memory page's hold on the Vulkan device here (lavapipe on CI: its "device memory" is this computer's RAM, so
// every run has a small cap): each step is held, touched and read back; cancel and the end of a run give it all
// back; the validation layer stays silent. Sizes are tens of MiB.
#include "vulkan_test_support.hpp"

#if GPULAB_TEST_HAVE_VULKAN
#include "backend_internal.hpp"
#include "gpulab/memory_hold.hpp"
#include "gpulab/result_views.hpp"
#include "heap_reading.hpp"
#include "vulkan_backend.hpp"

#include <cmath>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace {

using namespace gpulab;
constexpr double MiB = 1024.0 * 1024.0;

class VulkanHold : public VulkanBackendTest {
 protected:
  bool from_budget() { return backend().hold_reading_source().rfind("VK_EXT_memory_budget", 0) == 0; }
  // How far a reading may move for reasons of its own: with a budget the driver's view of the machine (other
  // programs build and run beside the tests); without one the reading is exact.
  double noise() { return from_budget() ? 96 * MiB : 0; }
};

HoldRequest small_model() {
  HoldRequest q;
  q.parts = {{HoldPartKind::weights, 24 * MiB}, {HoldPartKind::kv_cache, 8 * MiB}, {HoldPartKind::activations, 4 * MiB}};
  q.more_user_bytes = 8 * MiB;
  q.cap_bytes = 64 * MiB;  // CI never holds more than this
  q.hold_s = 0;
  q.step_pause_s = 0;
  return q;
}

TEST_F(VulkanHold, EveryStepIsHeldAndReadBackThenFreed) {
  const MemoryInfo start = backend().hold_reading();
  ASSERT_GT(start.total_bytes, 0);
  std::vector<MemoryHoldStep> steps;
  RunContext ctx;
  ctx.on_result = [&](const Result& r) {
    if (auto h = as_memory_hold(r)) steps.push_back(*h);
  };
  run_hold(backend(), small_model(), ctx);
  // 3 parts, then 8 MiB users up to the 64 MiB cap: 36 + 3 × 8 = 60; the fourth user would pass the cap.
  ASSERT_EQ(steps.size(), 3u + 3u + 2u);
  double predicted = 0;
  for (int i = 0; i < 6; ++i) {
    const MemoryHoldStep& s = steps[std::size_t(i)];
    EXPECT_EQ(s.stage, HoldStage::holding);
    predicted += s.step_bytes;
    EXPECT_DOUBLE_EQ(s.predicted, predicted);
    EXPECT_DOUBLE_EQ(s.held, predicted);
    EXPECT_EQ(s.shared_memory, 1) << "lavapipe's device memory is this computer's RAM";
    // The device's reading moved by what was held (within the reading's noise).
    EXPECT_NEAR(s.measured(), s.held, noise() + 1 * MiB) << "step " << s.step;
  }
  EXPECT_EQ(steps[6].stage, HoldStage::refused);
  EXPECT_NE(steps[6].head.error.find("cap"), std::string::npos) << steps[6].head.error;
  EXPECT_EQ(steps[7].stage, HoldStage::released);
  EXPECT_NEAR(steps[7].now_free, start.free_bytes, noise() + 1 * MiB) << "freed: the reading is back where it began";
}

TEST_F(VulkanHold, CancelFreesEverythingItHeld) {
  const MemoryInfo start = backend().hold_reading();
  std::stop_source stop;
  RunContext ctx;
  ctx.stop = stop.get_token();
  int holding = 0;
  double released_free = -1;
  ctx.on_result = [&](const Result& r) {
    const auto h = as_memory_hold(r);
    if (!h) return;
    if (h->stage == HoldStage::holding && ++holding == 2) stop.request_stop();  // cancel with 32 MiB held
    if (h->stage == HoldStage::released) released_free = h->now_free;
  };
  HoldRequest q = small_model();
  q.hold_s = 30;  // would hold for half a minute: cancel must end it
  run_hold(backend(), q, ctx);
  EXPECT_EQ(holding, 2);
  EXPECT_NEAR(released_free, start.free_bytes, noise() + 1 * MiB);
  EXPECT_NEAR(backend().hold_reading().free_bytes, start.free_bytes, noise() + 1 * MiB);
}

TEST_F(VulkanHold, ReadingWithoutABudgetIsTheHeapLessWhatIsHeld) {
  // The fallback reading, on the heaps of the device here with their budget taken away.
  auto heaps = vk::read_heaps_now(s_created->devices.front().handle, false);
  for (auto& h : heaps) EXPECT_LT(h.budget_bytes, 0);
  const vk::HeapReading r = vk::heap_reading(heaps, 100 * MiB, -1);
  EXPECT_FALSE(r.from_budget);
  EXPECT_DOUBLE_EQ(r.free_bytes, r.total_bytes - 100 * MiB);
}

}  // namespace

#else
TEST(VulkanHold, Skipped) { GPULAB_SKIP_WITHOUT_VULKAN_BUILD(); }
#endif

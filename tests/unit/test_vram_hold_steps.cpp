// The memory page's hold, step by step, on a device whose memory is a counter: the run stops before the step that
// would not fit and says so; asked to go on, it reaches the device's refusal and shows it as the out-of-memory
// moment; cancel, a refusal and the end all leave nothing held; each step carries the calculator's prediction.
#include "gpulab/backend.hpp"
#include "gpulab/memory_hold.hpp"
#include "gpulab/result_views.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <stop_token>
#include <vector>

namespace {

using namespace gpulab;
constexpr double MiB = 1024.0 * 1024.0;

// A device of `total` bytes whose reading is exact; allocations past `refuse_after` held bytes are refused the way a
// driver refuses (DeviceOutOfMemory), whatever the reading said.
class CountingDevice final : public Backend {
 public:
  CountingDevice(double total, double refuse_after) : m_total(total), m_refuse_after(refuse_after) {}
  double live = 0;       // bytes held now
  double most_live = 0;  // the most ever held at once

  std::string kind() const override { return "vulkan"; }
  DeviceInfo device_info() const override { return {}; }
  Provenance provenance() const override { return {{"memory", "dedicated"}}; }
  std::vector<std::string> gemm_variants() const override { return {}; }
  Support supports(const GemmSpec&) const override { return Support::no("none"); }
  std::unique_ptr<TimedOp> make_gemm(const GemmSpec&) override { return nullptr; }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec&) override { return nullptr; }
  Support supports(const TransferSpec&) const override { return Support::no("none"); }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec&) override { return nullptr; }
  MemoryInfo memory_info() const override { return {m_total, m_total - live}; }
  std::string hold_reading_source() const override { return "a counter"; }

  std::unique_ptr<HeldMemory> hold_memory(double bytes, double margin) override {
    const HoldDecision d = check_hold(bytes, margin, memory_info());
    if (!d.ok) throw std::invalid_argument(d.reason);
    return allocate(bytes);
  }
  std::unique_ptr<HeldMemory> hold_memory_past_budget(double bytes) override { return allocate(bytes); }

 private:
  class Held final : public HeldMemory {
   public:
    Held(CountingDevice& d, double bytes) : m_d(d), m_bytes(bytes) {
      m_d.live += bytes;
      m_d.most_live = std::max(m_d.most_live, m_d.live);
    }
    ~Held() override { m_d.live -= m_bytes; }
    double bytes_held() const override { return m_bytes; }
    MemoryInfo before() const override { return {}; }
    MemoryInfo after() const override { return m_d.memory_info(); }

   private:
    CountingDevice& m_d;
    double m_bytes;
  };
  std::unique_ptr<HeldMemory> allocate(double bytes) {
    if (live + bytes > m_refuse_after) throw DeviceOutOfMemory("VK_ERROR_OUT_OF_DEVICE_MEMORY");
    return std::make_unique<Held>(*this, bytes);
  }
  double m_total, m_refuse_after;
};

HoldRequest model(double margin) {
  HoldRequest q;
  q.parts = {{HoldPartKind::weights, 400 * MiB}, {HoldPartKind::kv_cache, 100 * MiB},
             {HoldPartKind::activations, 50 * MiB}};
  q.more_user_bytes = 100 * MiB;
  q.margin = margin;
  q.hold_s = 0;
  q.step_pause_s = 0;
  return q;
}

std::vector<MemoryHoldStep> run(Backend& b, const HoldRequest& q, RunContext ctx = {}) {
  std::vector<MemoryHoldStep> steps;
  auto outer = ctx.on_result;
  ctx.on_result = [&](const Result& r) {
    if (auto h = as_memory_hold(r)) steps.push_back(*h);
    if (outer) outer(r);
  };
  run_hold(b, q, ctx);
  return steps;
}

TEST(VramHoldSteps, StopsBeforeTheStepThatWouldNotFitAndSaysWhere) {
  CountingDevice dev(1000 * MiB, 1e18);
  const auto steps = run(dev, model(100 * MiB));
  // 400 + 100 + 50 = 550 held, then users of 100: 650, 750, 850; a fourth (950) would eat into the margin.
  ASSERT_EQ(steps.size(), 3u + 3u + 2u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(steps[std::size_t(i)].stage, HoldStage::holding);
  EXPECT_EQ(steps[0].part, HoldPartKind::weights);
  EXPECT_EQ(steps[1].part, HoldPartKind::kv_cache);
  EXPECT_EQ(steps[2].part, HoldPartKind::activations);
  EXPECT_EQ(steps[3].part, HoldPartKind::more_users);
  EXPECT_DOUBLE_EQ(steps[2].predicted, 550 * MiB);
  EXPECT_DOUBLE_EQ(steps[5].predicted, 850 * MiB);
  EXPECT_DOUBLE_EQ(steps[5].measured(), 850 * MiB);  // the counter's reading is exact
  const MemoryHoldStep& stop = steps[6];
  EXPECT_EQ(stop.stage, HoldStage::refused);
  EXPECT_EQ(stop.step, 7);
  EXPECT_DOUBLE_EQ(stop.step_bytes, 100 * MiB);
  EXPECT_NE(stop.head.error.find("This is where it would not fit"), std::string::npos) << stop.head.error;
  EXPECT_NE(stop.head.error.find("Not attempted"), std::string::npos) << stop.head.error;
  EXPECT_LE(dev.most_live, 900 * MiB) << "never into the margin";
  EXPECT_EQ(steps[7].stage, HoldStage::released);
  EXPECT_DOUBLE_EQ(dev.live, 0);
  EXPECT_DOUBLE_EQ(steps[7].now_free, steps[7].before_free);
}

TEST(VramHoldSteps, AskedToGoOnItReachesTheDevicesRefusalAndFreesEverything) {
  CountingDevice dev(1000 * MiB, 960 * MiB);  // the driver says no at 960 MiB, past the 900 MiB budget
  HoldRequest q = model(100 * MiB);
  q.until_refused = true;
  const auto steps = run(dev, q);
  // 550, 650, 750, 850 (within the budget), 950 (past it, tried), 1050 refused by the device.
  ASSERT_EQ(steps.size(), 3u + 4u + 2u);
  const MemoryHoldStep& oom = steps[7];
  EXPECT_EQ(oom.stage, HoldStage::out_of_memory);
  EXPECT_DOUBLE_EQ(oom.held, 950 * MiB);
  EXPECT_NE(oom.head.error.find("Out of memory"), std::string::npos) << oom.head.error;
  EXPECT_NE(oom.head.error.find("VK_ERROR_OUT_OF_DEVICE_MEMORY"), std::string::npos) << oom.head.error;
  EXPECT_EQ(steps[8].stage, HoldStage::released);
  EXPECT_DOUBLE_EQ(dev.live, 0) << "a refusal leaves nothing held";
}

TEST(VramHoldSteps, ACapStopsTheRunWhateverTheDeviceSays) {
  CountingDevice dev(100000 * MiB, 1e18);
  HoldRequest q = model(0);
  q.until_refused = true;
  q.cap_bytes = 700 * MiB;
  const auto steps = run(dev, q);
  ASSERT_GE(steps.size(), 2u);
  const MemoryHoldStep& stop = steps[steps.size() - 2];
  EXPECT_EQ(stop.stage, HoldStage::refused);
  EXPECT_DOUBLE_EQ(stop.held, 650 * MiB);
  EXPECT_DOUBLE_EQ(stop.cap, 700 * MiB);
  EXPECT_NE(stop.head.error.find("cap"), std::string::npos) << stop.head.error;
  EXPECT_LE(dev.most_live, 700 * MiB);
  EXPECT_DOUBLE_EQ(dev.live, 0);
}

TEST(VramHoldSteps, CancelLeavesNothingHeld) {
  CountingDevice dev(1000 * MiB, 1e18);
  std::stop_source stop;
  RunContext ctx;
  ctx.stop = stop.get_token();
  double live_at_cancel = 0;
  ctx.on_result = [&](const Result& r) {
    if (r.variant == "holding" && r.param("step") == 2) {
      live_at_cancel = dev.live;
      stop.request_stop();
    }
  };
  HoldRequest q = model(100 * MiB);
  q.hold_s = 60;  // cancel must cut the hold short too
  const auto steps = run(dev, q, ctx);
  EXPECT_DOUBLE_EQ(live_at_cancel, 500 * MiB);
  ASSERT_EQ(steps.size(), 3u);  // two steps, then freed
  EXPECT_EQ(steps.back().stage, HoldStage::released);
  EXPECT_DOUBLE_EQ(dev.live, 0);
}

TEST(VramHoldSteps, AFirstStepThatCannotFitHoldsNothing) {
  CountingDevice dev(1000 * MiB, 1e18);
  HoldRequest q = model(100 * MiB);
  q.parts[0].bytes = 2000 * MiB;
  const auto steps = run(dev, q);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].stage, HoldStage::refused);
  EXPECT_DOUBLE_EQ(steps[0].held, 0);
  EXPECT_DOUBLE_EQ(dev.most_live, 0);
}

}  // namespace

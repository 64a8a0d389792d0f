// The memory page's live side: hold steps of the vram plan as bar numbers; notes and other plans' steps not drawn.
#include "pages/vram/model/vram_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace vram_model;

namespace {
gpulab::Result hold(const std::string& stage, double held, std::string plan = gpulab::plan_name::vram) {
  gpulab::Result r;
  r.experiment = "hold_memory";
  r.plan = std::move(plan);
  r.backend = "cuda";
  r.variant = stage;
  r.params = {{"requested", 8e9}, {"held", held},     {"margin", 1e9},   {"before_free", 20e9},
              {"before_total", 24e9}, {"now_free", 20e9 - held - 0.2e9}, {"step", 4}, {"steps", 8}};
  r.check.passed = true;
  return r;
}
}  // namespace

TEST(VramModel, AHoldStepGivesTheBarsNumbers) {
  const auto s = liveStep(hold("holding", 4e9));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stage, LiveStep::Stage::holding);
  EXPECT_DOUBLE_EQ(s->usedBefore(), 4e9);
  EXPECT_DOUBLE_EQ(s->nowTotal, 24e9);  // not recorded: the total before
  EXPECT_NEAR(s->usedNow(), 4.2e9, 1);
  EXPECT_NEAR(s->drop(), 4.2e9, 1);
  EXPECT_EQ(s->step, 4);
  EXPECT_EQ(liveStep(hold("released", 0))->stage, LiveStep::Stage::released);
}

TEST(VramModel, ARefusalIsDrawnWithItsNumbersButANoteIsNot) {
  auto refused = hold("refused", 0);
  refused.error = "Refused, never attempted: short by 3 GB";
  const auto s = liveStep(refused);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stage, LiveStep::Stage::refused);
  EXPECT_EQ(s->error, refused.error);
  EXPECT_FALSE(unavailableReason(refused));

  gpulab::Result note;
  note.experiment = "hold_memory";
  note.plan = gpulab::plan_name::vram;
  note.backend = "vulkan";
  note.variant = "held";
  note.error = "holding memory is not offered on Vulkan";
  EXPECT_FALSE(liveStep(note));
  EXPECT_EQ(unavailableReason(note).value_or(""), note.error);
}

TEST(VramModel, AnotherPlansResultIsNotDrawn) {
  const auto other = hold("holding", 4e9, gpulab::plan_name::quick);
  EXPECT_FALSE(liveStep(other));
  EXPECT_TRUE(liveStep(hold("holding", 4e9, "")));  // a recording from before plans: drawn as before
  const auto mine = hold("holding", 2e9);
  const auto rec = newestRecorded({{&mine, 0}, {&other, 1}});
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->source, 0);
}

TEST(VramModel, TheNewestRecordedStepSkipsFreedAndMeasuredHere) {
  const auto a = hold("holding", 2e9), b = hold("holding", 6e9), freed = hold("released", 0), here = hold("holding", 7e9);
  const auto rec = newestRecorded({{&a, 0}, {&b, 0}, {&freed, 0}, {&here, -1}});
  ASSERT_TRUE(rec);
  EXPECT_DOUBLE_EQ(rec->step.held, 6e9);
  EXPECT_FALSE(newestRecorded({{&here, -1}}));
}

TEST(VramModel, StepsGatherIntoRunsAndANewFirstStepBeginsAnother) {
  auto step = [](int n, double held) {
    auto r = hold("holding", held);
    r.params["step"] = n;
    r.params["predicted"] = held;
    r.params["step_bytes"] = 1e9;
    return *liveStep(r);
  };
  HoldRun run;
  add(run, step(1, 1e9));
  add(run, step(2, 2e9));
  auto stop = hold("out_of_memory", 2e9);
  stop.error = "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  add(run, *liveStep(stop));
  add(run, *liveStep(hold("released", 0)));
  ASSERT_EQ(run.steps.size(), 2u);
  ASSERT_TRUE(run.stop);
  EXPECT_EQ(run.stop->stage, LiveStep::Stage::outOfMemory);
  ASSERT_TRUE(run.released);
  // Each step: the prediction and the reading (20 GB free before; the reading took 0.2 GB more than held).
  const auto pairs = barPairs(run, 1);
  ASSERT_EQ(pairs.size(), 1u);  // the newest only, when one is asked for
  EXPECT_EQ(pairs[0].step, 2);
  EXPECT_DOUBLE_EQ(pairs[0].predicted, 2e9);
  EXPECT_NEAR(pairs[0].difference(), 0.2e9, 1);
  EXPECT_DOUBLE_EQ(fitLimit(run.steps[0]), 19e9);  // free before less the margin
  // The next run's first step starts afresh.
  add(run, step(1, 1e9));
  EXPECT_EQ(run.steps.size(), 1u);
  EXPECT_FALSE(run.stop);
}

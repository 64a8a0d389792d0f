// The trace a student's kernel sends back from the child process (trace_json.hpp): what the lab page draws with the
// "Inside the kernel" views — the owner of every cell of C, each instruction's counts, the first request of each
// instruction by each warp of block 0 — comes back whole through the JSON line the runner writes.
#include "trace_json.hpp"

#include <gpulab_emu/kernel_trace.hpp>

#include <gtest/gtest.h>

namespace {

using gpulab::emu::StepTrace;

// What crosses the pipe: the JSON as text, read back.
StepTrace through_the_pipe(const StepTrace& t) {
  return gpulab::lab::trace_from_json(nlohmann::json::parse(gpulab::lab::trace_to_json(t).dump()));
}

void expect_same_drawings(const StepTrace& a, const StepTrace& b) {
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.shape.m, b.shape.m);
  EXPECT_EQ(a.shape.n, b.shape.n);
  EXPECT_EQ(a.shape.k, b.shape.k);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(a.grid[d], b.grid[d]);
    EXPECT_EQ(a.block[d], b.block[d]);
  }
  EXPECT_EQ(a.owner_block, b.owner_block);
  EXPECT_EQ(a.owner_warp, b.owner_warp);
  EXPECT_EQ(a.owner_lane, b.owner_lane);
  ASSERT_EQ(a.instructions.size(), b.instructions.size());
  for (std::size_t i = 0; i < a.instructions.size(); ++i) {
    const auto &x = a.instructions[i], &y = b.instructions[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.array, y.array);
    EXPECT_EQ(x.shared, y.shared);
    EXPECT_EQ(x.store, y.store);
    EXPECT_EQ(x.access_bytes, y.access_bytes);
    EXPECT_EQ(x.requests, y.requests);
    EXPECT_EQ(x.sectors, y.sectors);
    EXPECT_EQ(x.bytes_used, y.bytes_used);
    EXPECT_EQ(x.wavefronts, y.wavefronts);
    EXPECT_EQ(x.ideal_wavefronts, y.ideal_wavefronts);
  }
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    EXPECT_EQ(a.samples[i].instruction, b.samples[i].instruction);
    EXPECT_EQ(a.samples[i].warp, b.samples[i].warp);
    EXPECT_EQ(a.samples[i].element, b.samples[i].element);
  }
}

TEST(LabTraceJson, OwnersAndWarpSamplesComeBackWhole) {
  StepTrace t;
  t.step = "student";
  t.kernel = "sgemm_naive";
  t.shape = {3, 2, 5};
  t.grid[0] = 1, t.block[0] = 64;
  t.check_passed = true;
  gpulab::emu::InstructionTrace load;
  load.name = "load A";
  load.array = "A";
  load.requests = 2, load.thread_accesses = 6, load.sectors = 3, load.bytes_used = 24;
  gpulab::emu::InstructionTrace tile = load;
  tile.name = "load As";
  tile.array = "As";
  tile.shared = true, tile.access_bytes = 16, tile.wavefronts = 4, tile.ideal_wavefronts = 2;
  t.instructions = {load, tile};
  // Six cells: lanes 0…2 of warp 0 took column 0, lanes 0…2 of warp 1 column 1 (step 1's pattern).
  t.owner_block = {0, 0, 0, 0, 0, 0};
  t.owner_warp = {0, 1, 0, 1, 0, 1};
  t.owner_lane = {0, 0, 1, 1, 2, 2};
  gpulab::emu::WarpSample s;
  s.instruction = 0;
  s.warp = 1;
  s.element.fill(-1);
  s.element[0] = 0, s.element[1] = 5, s.element[2] = 10;
  t.samples = {s};
  t.block0_events = {{0, 1, 0, 5}, {1, 2, 1, 7}};
  t.block0_barriers = 1;

  const StepTrace back = through_the_pipe(t);
  expect_same_drawings(t, back);
  EXPECT_TRUE(back.check_passed);
  ASSERT_EQ(back.block0_events.size(), 2u);
  EXPECT_EQ(back.block0_events[1].element, 7);
  EXPECT_EQ(back.block0_barriers, 1);
}

// A real traced kernel (the ladder's step 1 at an awkward shape, cells no thread wrote included): the same trace
// after the trip.
TEST(LabTraceJson, ATracedKernelSurvivesTheTrip) {
  if (!gpulab::emu::kernel_tracing_available()) GTEST_SKIP() << "this build has no traced kernels (no clang)";
  const StepTrace t = gpulab::emu::trace_ladder_step("01_naive", {40, 33, 17});
  ASSERT_EQ(t.owner_block.size(), std::size_t(40 * 33));
  ASSERT_FALSE(t.samples.empty());
  expect_same_drawings(t, through_the_pipe(t));
}

}  // namespace

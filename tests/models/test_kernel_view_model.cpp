// The Qt-free model behind "Inside the kernel" (models/kernel_view_model.h), on hand-made traces whose answers are
// worked out by hand: sectors of a warp request, bank wavefronts, owners, the roofline placement, the k-loop frames.
// (It lives with the app tests because the model is compiled into the app; it uses no Qt.)
#include "pages/kernel/model/kernel_view_model.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace gpulab::kernelview;
using gpulab::emu::BlockEvent;

namespace {

StepTrace shapeOnly(int m, int n, int k) {
  StepTrace t;
  t.step = "01_naive";
  t.shape = {m, n, k};
  return t;
}

InstructionTrace instr(const std::string& name, const std::string& array, bool shared, bool store, int bytes) {
  InstructionTrace i;
  i.name = name;
  i.array = array;
  i.shared = shared;
  i.store = store;
  i.access_bytes = bytes;
  return i;
}

WarpSample sample(int instruction, int (*element)(int lane)) {
  WarpSample s;
  s.instruction = instruction;
  for (int lane = 0; lane < 32; ++lane) s.element[std::size_t(lane)] = element(lane);
  return s;
}

}  // namespace

TEST(KernelViewModel, GlobalRequestSectors) {
  StepTrace t = shapeOnly(64, 64, 64);
  t.instructions = {instr("load A", "A", false, false, 4), instr("load B", "B", false, false, 4),
                    instr("load B4", "B", false, false, 16)};
  // Naive: 32 lanes, 32 rows of A, one column: a sector each, 4 of its 32 bytes used.
  const RequestView a = request_view(t, sample(0, [](int lane) { return lane * 64; }));
  EXPECT_EQ(a.sector_count, 32);
  EXPECT_EQ(a.bytes_used, 128);
  EXPECT_DOUBLE_EQ(a.used_share, 4.0 / 32.0);
  EXPECT_EQ(a.row_lo, 0);
  EXPECT_EQ(a.row_hi, 31);
  EXPECT_EQ(a.sectors.size(), 32u);
  // Coalesced: 32 consecutive floats = 128 bytes = 4 sectors, all used.
  const RequestView b = request_view(t, sample(1, [](int lane) { return 64 + lane; }));
  EXPECT_EQ(b.sector_count, 4);
  EXPECT_DOUBLE_EQ(b.used_share, 1.0);
  EXPECT_EQ(b.sectors.front().row, 1);
  EXPECT_EQ(b.sectors.front().col0, 0);
  EXPECT_EQ(b.sectors.front().cols, 8);
  // A broadcast: every lane the same float — one sector, 4 bytes of it used.
  const RequestView bc = request_view(t, sample(1, [](int) { return 5; }));
  EXPECT_EQ(bc.sector_count, 1);
  EXPECT_EQ(bc.bytes_used, 4);
  // float4: 32 lanes × 16 bytes consecutive = 512 bytes = 16 sectors.
  const RequestView v4 = request_view(t, sample(2, [](int lane) { return lane * 4; }));
  EXPECT_EQ(v4.sector_count, 16);
  EXPECT_DOUBLE_EQ(v4.used_share, 1.0);
  // A lane that sat out is not drawn.
  WarpSample partial = sample(1, [](int lane) { return lane < 16 ? lane : -1; });
  EXPECT_EQ(request_view(t, partial).lanes.size(), 16u);
  EXPECT_EQ(request_view(t, partial).sector_count, 2);
}

TEST(KernelViewModel, SharedBankWavefronts) {
  StepTrace t = shapeOnly(32, 32, 32);
  t.instructions = {instr("load As", "As", true, false, 4), instr("load Bs", "Bs", true, false, 16)};
  // A column of a 32×32 tile: every lane in bank 0, 32 different words: 32 wavefronts where 1 would do.
  const RequestView col = request_view(t, sample(0, [](int lane) { return lane * 32; }));
  EXPECT_EQ(col.wavefronts, 32);
  EXPECT_EQ(col.ideal_wavefronts, 1);
  EXPECT_EQ(col.words_per_bank[0], 32);
  EXPECT_EQ(col.col_lo, 0);
  EXPECT_EQ(col.col_hi, 31);  // a shared array shows all 32 banks
  // A row: 32 banks, one word each.
  EXPECT_EQ(request_view(t, sample(0, [](int lane) { return lane; })).wavefronts, 1);
  // One word for all: a broadcast, no conflict.
  EXPECT_EQ(request_view(t, sample(0, [](int) { return 7; })).wavefronts, 1);
  // float4: served in 4 phases of 8 lanes; 8 lanes × 4 consecutive words cover the 32 banks once.
  const RequestView f4 = request_view(t, sample(1, [](int lane) { return lane * 4; }));
  EXPECT_EQ(f4.wavefronts, 4);
  EXPECT_EQ(f4.ideal_wavefronts, 4);
  // float4 where lanes 0 and 4 of each phase share banks (a row stride of 16 words): 2 words per bank per phase.
  const RequestView c4 = request_view(t, sample(1, [](int lane) { return (lane % 4) * 4 + (lane / 4) * 32; }));
  EXPECT_GT(c4.wavefronts, c4.ideal_wavefronts);
}

TEST(KernelViewModel, OwnersAndBlockTiles) {
  StepTrace t = shapeOnly(4, 4, 4);
  t.grid[0] = 2, t.grid[1] = 2;
  t.block[0] = 2, t.block[1] = 2;
  // Block b = bx + 2·by owns the 2×2 quadrant (rows by·2…, columns bx·2…).
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      t.owner_block.push_back((c / 2) + 2 * (r / 2));
      t.owner_warp.push_back(0);
      t.owner_lane.push_back((r % 2) * 2 + c % 2);
    }
  const Owner o = owner_at(t, 3, 2);
  EXPECT_EQ(o.block, 3);
  EXPECT_EQ(o.block_x, 1);
  EXPECT_EQ(o.block_y, 1);
  EXPECT_EQ(o.lane, 2);
  EXPECT_EQ(owner_at(t, 9, 0).block, -1);  // outside C
  const auto tiles = block_tiles(t);
  ASSERT_EQ(tiles.size(), 4u);
  EXPECT_EQ(tiles[2].row0, 2);
  EXPECT_EQ(tiles[2].col0, 0);
  EXPECT_EQ(tiles[2].rows, 2);
  EXPECT_EQ(tiles[2].cols, 2);
  EXPECT_EQ(warps_per_block(t), 1);
  // Neighbouring blocks differ in colour, across and down.
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      EXPECT_NE(block_colour_index(x, y), block_colour_index(x + 1, y));
      EXPECT_NE(block_colour_index(x, y), block_colour_index(x, y + 1));
    }
}

TEST(KernelViewModel, RooflinePlacement) {
  // RTX 3090 datasheet: 35.6 TFLOP/s FP32, 936 GB/s → ridge 38 FLOP/B.
  const RooflinePlacement lowI = place_on_roofline(0.25, 35.6e12, 936e9);
  EXPECT_TRUE(lowI.memory_bound);
  EXPECT_DOUBLE_EQ(lowI.attainable, 0.25 * 936e9);
  EXPECT_NEAR(lowI.ridge, 38.03, 0.01);
  const RooflinePlacement high = place_on_roofline(100, 35.6e12, 936e9);
  EXPECT_FALSE(high.memory_bound);
  EXPECT_DOUBLE_EQ(high.attainable, 35.6e12);
  EXPECT_DOUBLE_EQ(high.share_of_peak, 1.0);
  EXPECT_EQ(place_on_roofline(0, 1, 1).attainable, 0);
}

TEST(KernelViewModel, SummaryAndCsv) {
  StepTrace t = shapeOnly(2, 2, 2);
  t.step = "02_coalesced";
  InstructionTrace a = instr("load A", "A", false, false, 4);
  a.requests = 2, a.sectors = 8, a.bytes_used = 128;
  InstructionTrace s = instr("store As", "As", true, true, 4);
  s.requests = 1, s.thread_accesses = 32, s.wavefronts = 1, s.ideal_wavefronts = 1;
  InstructionTrace l = instr("load As", "As", true, false, 4);
  l.requests = 4, l.thread_accesses = 128, l.wavefronts = 6, l.ideal_wavefronts = 4;
  t.instructions = {a, s, l};
  t.check_passed = true;
  const StepRow r = summarize(t);
  EXPECT_DOUBLE_EQ(r.sectors_per_request, 4.0);
  EXPECT_DOUBLE_EQ(r.used_share, 0.5);
  EXPECT_EQ(r.global_bytes, 256);
  EXPECT_DOUBLE_EQ(r.flops, 16);
  EXPECT_DOUBLE_EQ(r.bytes_per_flop, 16.0);
  EXPECT_DOUBLE_EQ(r.intensity, 1.0 / 16);
  EXPECT_DOUBLE_EQ(r.shared_reuse, 4.0);
  EXPECT_DOUBLE_EQ(r.conflicts_per_request, 2.0 / 5);
  const std::string csv = steps_csv({r});
  EXPECT_EQ(csv.rfind("step,kernel,m,n,k,", 0), 0u);
  EXPECT_NE(csv.find("02_coalesced"), std::string::npos);
  EXPECT_NE(csv.find("passed"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2);
  EXPECT_EQ(step_label("03_shared_tiles"), "03 shared tiles");
}

TEST(KernelViewModel, BlockTimelineFollowsBarriers) {
  StepTrace t = shapeOnly(2, 2, 4);
  t.instructions = {instr("load A", "A", false, false, 4), instr("store As", "As", true, true, 4),
                    instr("load As", "As", true, false, 4), instr("store C", "C", false, true, 4)};
  t.owner_block = {0, 0, 1, 1};
  t.block0_barriers = 2;
  // Two threads; phase 0 stages A (each thread one element, stored to As); phase 1 reads As twice per thread;
  // phase 2 stores C.
  auto ev = [](std::uint32_t phase, int thread, int instruction, int element) {
    BlockEvent e;
    e.phase = phase;
    e.thread = std::uint16_t(thread);
    e.instruction = std::uint8_t(instruction);
    e.element = element;
    return e;
  };
  t.block0_events = {ev(0, 0, 0, 0), ev(0, 0, 1, 0), ev(0, 1, 0, 1), ev(0, 1, 1, 1),
                     ev(1, 0, 2, 0), ev(1, 0, 2, 1), ev(1, 1, 2, 0), ev(1, 1, 2, 1),
                     ev(2, 0, 3, 0), ev(2, 1, 3, 1)};
  const BlockTimeline tl = block0_timeline(t, 8);
  EXPECT_EQ(tl.phases, 3);
  ASSERT_EQ(tl.c_tile.size(), 2u);
  // Phase 0: one execution per thread → one sub-step; phase 1: two per thread → two; phase 2: one.
  ASSERT_EQ(tl.frames.size(), 4u);
  EXPECT_TRUE(tl.frames[0].ends_with_barrier);
  EXPECT_FALSE(tl.frames[1].ends_with_barrier);
  EXPECT_TRUE(tl.frames[2].ends_with_barrier);
  EXPECT_FALSE(tl.frames[3].ends_with_barrier);  // after the last barrier
  // Lockstep: the first sub-step of phase 1 holds both threads' first reads — the same word, one touch.
  EXPECT_EQ(tl.frames[1].end - tl.frames[1].begin, 1);
  EXPECT_EQ(tl.touches[std::size_t(tl.frames[1].begin)].array, TouchArray::SharedA);
  EXPECT_EQ(tl.shared_a_words, 2);
  EXPECT_FLOAT_EQ(tl.k_done[0], 1.0f);  // both A loads in phase 0
  EXPECT_EQ(shared_role("Bs"), TouchArray::SharedB);
}

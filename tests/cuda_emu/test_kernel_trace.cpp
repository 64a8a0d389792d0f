// The kernel tracer ("Inside the kernel"): its counts against counts worked out by hand from the kernels' index
// maths, at 64³ where every tile is full.
#include <gpulab_emu/kernel_trace.hpp>

#include <gtest/gtest.h>

#include <cstdio>

namespace {

using gpulab::emu::InstructionTrace;
using gpulab::emu::StepTrace;

const InstructionTrace* find(const StepTrace& t, const std::string& name) {
  for (const auto& i : t.instructions)
    if (i.name == name) return &i;
  return nullptr;
}

void print(const StepTrace& t) {
  std::printf("%s (%s): %zu instructions, check %s\n", t.step.c_str(), t.kernel.c_str(), t.instructions.size(),
              t.check_passed ? "passed" : t.check_message.c_str());
  for (const auto& i : t.instructions)
    std::printf("  %-22s req %8lld  sectors/req %6.2f  used %5.1f%%  conflicts/req %5.2f\n", i.name.c_str(), i.requests,
                i.sectors_per_request(), 100 * i.sector_efficiency(), i.conflicts_per_request());
  std::printf("  bytes/FLOP %.4f  shared reuse %.1f  barriers in block 0: %lld\n", t.bytes_per_flop(), t.shared_reuse(),
              t.block0_barriers);
}

class Traced : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpulab::emu::kernel_tracing_available()) GTEST_SKIP() << "this build has no traced kernels (no clang++)";
  }
};

TEST_F(Traced, NaiveKernelUncoalescedAOneSectorPerLaneBroadcastB) {
  const StepTrace t = gpulab::emu::trace_ladder_step("01_naive", {64, 64, 64});
  print(t);
  ASSERT_TRUE(t.check_passed) << t.check_message;
  const InstructionTrace* a = find(t, "load A");
  const InstructionTrace* b = find(t, "load B");
  const InstructionTrace* c = find(t, "store C");
  ASSERT_TRUE(a && b && c);
  // Lanes are 32 consecutive rows of one column: A's loads are a row (256 bytes) apart, B's are one address.
  EXPECT_EQ(a->requests, 64LL * 64 * 64 / 32);
  EXPECT_DOUBLE_EQ(a->sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(b->sectors_per_request(), 1.0);
  EXPECT_DOUBLE_EQ(c->sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(a->sector_efficiency(), 4.0 / 32.0);  // 4 useful bytes of each 32-byte sector
}

TEST_F(Traced, CoalescedKernelFourSectorsPerWarp) {
  const StepTrace t = gpulab::emu::trace_ladder_step("02_coalesced", {64, 64, 64});
  print(t);
  ASSERT_TRUE(t.check_passed) << t.check_message;
  // Lanes are 32 consecutive columns of one row: A is a broadcast, B and C 128 contiguous bytes = 4 sectors.
  EXPECT_DOUBLE_EQ(find(t, "load A")->sectors_per_request(), 1.0);
  EXPECT_DOUBLE_EQ(find(t, "load B")->sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(find(t, "store C")->sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(find(t, "load B")->sector_efficiency(), 1.0);
}

TEST_F(Traced, BankConflictsWhereTheKernelHeadersSayTheyAre) {
  // Step 3: As[ty][i] is one word for the whole warp (a broadcast), Bs[i][tx] 32 consecutive words: no conflicts.
  const StepTrace smem = gpulab::emu::trace_ladder_step("03_shared_tiles", {64, 64, 64});
  EXPECT_DOUBLE_EQ(find(smem, "load As")->conflicts_per_request(), 0.0);
  EXPECT_DOUBLE_EQ(find(smem, "load Bs")->conflicts_per_request(), 0.0);
  // Step 6: a quarter-warp (8 lanes, 16-byte reads) reads Bs at word tcol·8 + 0…3 for tcol = 0…7: lanes 0 and 4,
  // 1 and 5, … hit the same four banks, so each of the 4 phases takes 2 wavefronts: 8 instead of 4, 4 extra.
  const StepTrace vec = gpulab::emu::trace_ladder_step("06_vectorized", {64, 64, 64});
  const InstructionTrace* bs6 = find(vec, "load Bs (16 B)");
  ASSERT_TRUE(bs6);
  EXPECT_DOUBLE_EQ(bs6->conflicts_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(find(vec, "load As (16 B)")->conflicts_per_request(), 0.0);  // 16 lanes share each address
  // Step 7's lane layout makes the same reads conflict-free (its header's claim).
  const StepTrace warp = gpulab::emu::trace_ladder_step("07_warptile", {64, 64, 64});
  EXPECT_DOUBLE_EQ(find(warp, "load Bs (16 B)")->conflicts_per_request(), 0.0);
  EXPECT_DOUBLE_EQ(find(warp, "load As (16 B)")->conflicts_per_request(), 0.0);
}

TEST_F(Traced, BytesPerFlopFallFromNaiveToWarpTiles) {
  const StepTrace naive = gpulab::emu::trace_ladder_step("01_naive", {128, 128, 128});
  const StepTrace warp = gpulab::emu::trace_ladder_step("07_warptile", {128, 128, 128});
  // Naive: per FMA one A load of its own 32-byte sector (4 used bytes) and a broadcast B: about 16.6 bytes/FLOP.
  EXPECT_NEAR(naive.bytes_per_flop(), 16.6, 0.1);
  EXPECT_LT(warp.bytes_per_flop(), naive.bytes_per_flop() / 100);
  EXPECT_GT(warp.shared_reuse(), 10);
}

TEST_F(Traced, AStopRequestEndsTheLaunchBetweenBlocks) {
  // Naive at 256³ has 64 blocks; the stop is asked before each one and says yes at the third.
  int asked = 0;
  const auto stop = [&asked] { return ++asked >= 3; };
  EXPECT_THROW(gpulab::emu::trace_ladder_step("01_naive", {256, 256, 256}, stop), gpulab::emu::LaunchStopped);
  EXPECT_EQ(asked, 3);
  // The next trace runs normally: the stop check belonged to the stopped launch only.
  EXPECT_TRUE(gpulab::emu::trace_ladder_step("01_naive", {32, 32, 32}).check_passed);
}

TEST_F(Traced, EveryStepChecksAndOwnsEveryCell) {
  for (const std::string& step : gpulab::emu::traced_ladder_steps()) {
    const StepTrace t = gpulab::emu::trace_ladder_step(step, {64, 64, 64});
    print(t);
    EXPECT_TRUE(t.check_passed) << step << ": " << t.check_message;
    for (std::size_t cell = 0; cell < t.owner_block.size(); ++cell)
      ASSERT_GE(t.owner_lane[cell], 0) << step << ": nobody wrote cell " << cell;
  }
}

}  // namespace

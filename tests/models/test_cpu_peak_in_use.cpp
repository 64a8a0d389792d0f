// Which CPU peak the pages divide by (issue 40): a start-up figure is provisional until a later set of bursts
// confirms it, and one far below the last good figure on this machine never stands: the last good one does, named
// with its date, until the re-measured sets agree (or, after many agreeing sets, the machine has really changed).
#include "models/cpu_peak_in_use.h"

#include <gtest/gtest.h>

using namespace cpu_peak_in_use;

namespace {
gpulab::CpuPeakState peak(double fp32, bool settled, int sets) {
  gpulab::CpuPeakState p;
  p.gflops_fp32 = fp32;
  p.gflops_fp64 = fp32 / 2;
  p.settled = settled;
  p.sets = sets;
  p.source_fp32 = "measured: best of 5 register-FMA bursts on 2 threads";
  p.best_taken_at = "16:47:03 UTC";
  return p;
}
}  // namespace

TEST(CpuPeakInUse, AStartUpFigureIsProvisionalUntilALaterSetAgrees) {
  const Choice start = choose(peak(234, false, 1), {});
  EXPECT_EQ(start.kind, Choice::Kind::provisional);
  EXPECT_DOUBLE_EQ(start.gflops_fp32, 234);
  EXPECT_TRUE(start.keepMeasuring);
  EXPECT_NE(start.source.find("re-measuring"), std::string::npos) << start.source;
  const Choice confirmed = choose(peak(236, true, 2), {});
  EXPECT_EQ(confirmed.kind, Choice::Kind::confirmed);
  EXPECT_DOUBLE_EQ(confirmed.gflops_fp32, 236);
  EXPECT_FALSE(confirmed.keepMeasuring);
  EXPECT_NE(confirmed.source.find("best at 16:47:03 UTC"), std::string::npos) << confirmed.source;
}

TEST(CpuPeakInUse, ABusyStartFarBelowTheLastGoodFigureNeverStands) {
  const LastGood last{232, 116, "2026-12-05"};
  // The one start in seven: 118 GFLOP/s against 232 remembered. Even when its sets agree, low, it does not stand.
  for (bool settled : {false, true}) {
    const Choice c = choose(peak(118, settled, 2), last);
    EXPECT_EQ(c.kind, Choice::Kind::lastGood);
    EXPECT_DOUBLE_EQ(c.gflops_fp32, 232);
    EXPECT_DOUBLE_EQ(c.gflops_fp64, 116);
    EXPECT_TRUE(c.keepMeasuring);
    EXPECT_NE(c.source.find("2026-12-05"), std::string::npos) << c.source;
    EXPECT_NE(c.source.find("118 GFLOP/s"), std::string::npos) << c.source;
  }
  // A little below is this machine today, not a busy one.
  EXPECT_EQ(choose(peak(200, true, 2), last).kind, Choice::Kind::confirmed);
  // Once the quiet sets are back up, the session's own figure stands.
  EXPECT_EQ(choose(peak(229, true, 4), last).kind, Choice::Kind::confirmed);
  // Many agreeing sets, all low: the machine has changed (a smaller VM), and the new figure stands.
  const Choice changed = choose(peak(118, true, kSetsBeforeBelieving), last);
  EXPECT_EQ(changed.kind, Choice::Kind::confirmed);
  EXPECT_DOUBLE_EQ(changed.gflops_fp32, 118);
}

TEST(CpuPeakInUse, TheMachineKeyNamesCpuThreadsAndSimd) {
  EXPECT_NE(machineKey("AMD EPYC", 2, "AVX2 FMA"), machineKey("AMD EPYC", 4, "AVX2 FMA"));
  EXPECT_NE(machineKey("AMD EPYC", 2, "AVX2 FMA"), machineKey("AMD EPYC", 2, "SSE4.2"));
}

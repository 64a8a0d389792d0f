// Conclusions stated only when the spread supports them, fed synthetic noisy samples.
#include "models/guarded_conclusions.h"

#include <gtest/gtest.h>

using namespace gpulab::models;

namespace {
RateRange range(double low, double typical, double high, int n = 5) { return {low, typical, high, n}; }
BatchPoint pt(double b, double low, double typ, double high) { return {b, b / 2, range(low, typ, high)}; }
}  // namespace

TEST(ThreadsConclusion, OverlappingRangesNameNoWinner) {
  // The "two BLAS threads slower than one": 1 thread 40–60, 2 threads 35–58.
  const Conclusion c = threads_conclusion(range(40, 50, 60), range(35, 46, 58), 2, false);
  EXPECT_FALSE(c.stated);
  EXPECT_NE(c.text.find("no winner"), std::string::npos);
}

TEST(ThreadsConclusion, SlowerOnABusyMachineBlamesTheMachine) {
  const Conclusion c = threads_conclusion(range(48, 50, 52), range(20, 25, 30), 2, true);
  EXPECT_FALSE(c.stated);
  EXPECT_NE(c.text.find("busy"), std::string::npos);
  // On a quiet machine the same clear result is a finding.
  EXPECT_TRUE(threads_conclusion(range(48, 50, 52), range(20, 25, 30), 2, false).stated);
  EXPECT_TRUE(threads_conclusion(range(48, 50, 52), range(90, 95, 99), 2, false).stated);
}

TEST(SerialShare, PairedRoundsGiveTheSpeedupRange) {
  const SpeedupRange s = paired_speedup_range({1.0, 1.2, 0.9, 1.1}, {0.5, 0.8, 0.5, 0.55});
  EXPECT_EQ(s.rounds, 4);
  EXPECT_DOUBLE_EQ(s.low, 1.5);
  EXPECT_DOUBLE_EQ(s.high, 2.0);
  EXPECT_DOUBLE_EQ(s.typical, 1.9);
}

TEST(SerialShare, NoisyOnePointOhSixIsNotEightyNinePercent) {
  // The "a measured 1.06× implies a serial share of 89.4 %": 2 threads, rounds from 0.95× to 1.2×.
  const SpeedupRange s = paired_speedup_range({1, 1, 1, 1, 1}, {1 / 0.95, 1 / 1.02, 1 / 1.06, 1 / 1.1, 1 / 1.2});
  const ShareInference inf = infer_serial_share(s, 2, false);
  EXPECT_FALSE(inf.conclusion.stated);
  EXPECT_NE(inf.conclusion.text.find("no faster than 1 thread"), std::string::npos);
  EXPECT_EQ(inf.conclusion.text.find("89"), std::string::npos);
}

TEST(SerialShare, TightRangeOnAQuietMachineIsStated) {
  // 30 % serial on 2 threads: Amdahl gives 1/(0.3 + 0.35) = 1.538×; rounds 1.52–1.56×.
  const SpeedupRange s = paired_speedup_range({1, 1, 1, 1, 1}, {1 / 1.52, 1 / 1.53, 1 / 1.54, 1 / 1.55, 1 / 1.56});
  const ShareInference inf = infer_serial_share(s, 2, false);
  ASSERT_TRUE(inf.conclusion.stated) << inf.conclusion.text;
  EXPECT_NEAR(inf.share, 0.30, 0.01);
  EXPECT_LT(inf.low, inf.share);
  EXPECT_GT(inf.high, inf.share);
  EXPECT_NE(inf.conclusion.text.find("implies a serial share of 30 %"), std::string::npos) << inf.conclusion.text;
  // The same numbers on a busy machine: not stated, and the page says why.
  const ShareInference busy = infer_serial_share(s, 2, true);
  EXPECT_FALSE(busy.conclusion.stated);
  EXPECT_NE(busy.conclusion.text.find("busy"), std::string::npos);
}

TEST(SerialShare, WideRangeIsNotNamed) {
  // 4 threads, 1.6×–2.6×: the share could be 18 %…50 %.
  const SpeedupRange s = paired_speedup_range({1, 1, 1}, {1 / 1.6, 1 / 2.0, 1 / 2.6});
  const ShareInference inf = infer_serial_share(s, 4, false);
  EXPECT_FALSE(inf.conclusion.stated);
  EXPECT_NE(inf.conclusion.text.find("too wide"), std::string::npos);
}

TEST(BatchCrossover, CleanSweepStatesTheCrossover) {
  // Rising 10 → 80 then flat near 100: 80 % of the plateau first at B = 16.
  const GuardedCrossover g = guarded_crossover({pt(1, 9, 10, 11), pt(2, 19, 20, 21), pt(4, 38, 40, 42),
                                                pt(8, 66, 70, 72), pt(16, 85, 90, 95), pt(32, 95, 100, 104),
                                                pt(64, 96, 99, 103)});
  ASSERT_TRUE(g.conclusion.stated) << g.conclusion.text;
  EXPECT_EQ(g.batch, 16);
  EXPECT_EQ(g.rate, 90);
}

TEST(BatchCrossover, ZigZagBeyondTheSpreadIsNoise) {
  // B = 64 far below B = 32, with tight ranges: a busy moment, not the hardware.
  const GuardedCrossover g = guarded_crossover({pt(1, 9, 10, 11), pt(4, 38, 40, 42), pt(16, 85, 90, 95),
                                                pt(32, 95, 100, 104), pt(64, 40, 45, 50), pt(128, 96, 99, 103)});
  EXPECT_FALSE(g.conclusion.stated);
  EXPECT_NE(g.conclusion.text.find("B = 64 ran slower than B = "), std::string::npos) << g.conclusion.text;
}

TEST(BatchCrossover, DipsWithinTheSpreadAreTolerated) {
  const GuardedCrossover g = guarded_crossover({pt(1, 9, 10, 11), pt(4, 30, 40, 50), pt(16, 70, 90, 110),
                                                pt(32, 80, 100, 120), pt(64, 75, 95, 115)});
  EXPECT_TRUE(g.conclusion.stated) << g.conclusion.text;
}

TEST(BatchCrossover, NoSeparatedMemoryBoundPartNoCrossover) {
  // Everything overlaps the crossover point's range: the "rise" is inside the noise.
  const GuardedCrossover g = guarded_crossover({pt(1, 50, 78, 100), pt(2, 60, 85, 105), pt(4, 70, 95, 110),
                                                pt(8, 80, 100, 115)});
  EXPECT_FALSE(g.conclusion.stated);
  EXPECT_NE(g.conclusion.text.find("no memory-bound part"), std::string::npos) << g.conclusion.text;
}

TEST(BatchCrossover, StillRisingAtTheEnd) {
  const GuardedCrossover g = guarded_crossover({pt(1, 9, 10, 11), pt(2, 19, 20, 21), pt(4, 38, 40, 42)});
  EXPECT_FALSE(g.conclusion.stated);
  EXPECT_NE(g.conclusion.text.find("not reached"), std::string::npos);
}

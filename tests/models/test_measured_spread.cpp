// The comparison rule pages use before stating "A is faster than B": ranges that overlap say nothing.
#include "models/measured_spread.h"

#include <gtest/gtest.h>

using namespace gpulab;
using namespace gpulab::models;

namespace {
Result timed(double flops, double min_s, double median_s, double max_s) {
  Result r;
  r.check.passed = true;
  r.flops = flops;
  r.stats.min_s = min_s;
  r.stats.median_s = median_s;
  r.stats.max_s = max_s;
  r.stats.n = 5;
  return r;
}
}  // namespace

TEST(MeasuredSpread, RangeComesFromFastestAndSlowestSample) {
  const RateRange r = gflops_range(timed(2e9, 0.5, 1.0, 2.0));
  EXPECT_DOUBLE_EQ(r.high, 4.0);
  EXPECT_DOUBLE_EQ(r.typical, 2.0);
  EXPECT_DOUBLE_EQ(r.low, 1.0);
  EXPECT_DOUBLE_EQ(r.rel_spread(), 1.5);
}

TEST(MeasuredSpread, FailedResultHasNoRange) {
  Result r = timed(2e9, 0.5, 1.0, 2.0);
  r.check.passed = false;
  EXPECT_EQ(gflops_range(r).samples, 0);
  EXPECT_EQ(compare_rates(gflops_range(r), gflops_range(timed(1e9, 1, 1, 1))), Ordering::too_close);
}

TEST(MeasuredSpread, SeparatedRangesGiveAnOrdering) {
  const RateRange fast = gflops_range(timed(10e9, 0.9, 1.0, 1.1));  // 9.1 .. 11.1
  const RateRange slow = gflops_range(timed(5e9, 0.9, 1.0, 1.1));   // 4.5 .. 5.6
  EXPECT_EQ(compare_rates(fast, slow), Ordering::a_faster);
  EXPECT_EQ(compare_rates(slow, fast), Ordering::b_faster);
}

TEST(MeasuredSpread, OverlappingRangesAreTooClose) {
  // Medians differ by 6 %, but one run's slowest sample is slower than the other's fastest: noise can explain it.
  const RateRange a = gflops_range(timed(10.6e9, 0.8, 1.0, 1.3));
  const RateRange b = gflops_range(timed(10.0e9, 0.8, 1.0, 1.3));
  EXPECT_EQ(compare_rates(a, b), Ordering::too_close);
}

TEST(MeasuredSpread, SpreadTextIsHalfTheRange) {
  EXPECT_EQ(spread_text(gflops_range(timed(1e9, 0.9, 1.0, 1.1))), "±10 %");
  Result one = timed(1e9, 1, 1, 1);
  one.stats.n = 1;
  EXPECT_EQ(spread_text(gflops_range(one)), "");
}

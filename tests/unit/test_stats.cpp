// summarize() and measure(): the statistics and the stopping rules of the measurement method.
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <algorithm>
#include <functional>
#include <stop_token>
#include <vector>

using namespace gpulab;

TEST(Stats, EmptyInputGivesZero) {
  const Stats s = summarize({});
  EXPECT_EQ(s.n, 0);
  EXPECT_EQ(s.median_s, 0);
  EXPECT_EQ(s.rel_spread, 0);
}

TEST(Stats, OddCountMedianMinMaxMean) {
  const Stats s = summarize({3.0, 1.0, 2.0, 10.0, 4.0});
  EXPECT_EQ(s.n, 5);
  EXPECT_DOUBLE_EQ(s.median_s, 3.0);
  EXPECT_DOUBLE_EQ(s.min_s, 1.0);
  EXPECT_DOUBLE_EQ(s.max_s, 10.0);
  EXPECT_DOUBLE_EQ(s.mean_s, 4.0);
  EXPECT_DOUBLE_EQ(s.rel_spread, 3.0);  // (10 - 1) / 3
}

TEST(Stats, EvenCountMedianIsMeanOfMiddleTwo) {
  const Stats s = summarize({4.0, 1.0, 2.0, 3.0});
  EXPECT_DOUBLE_EQ(s.median_s, 2.5);
  EXPECT_DOUBLE_EQ(s.rel_spread, 3.0 / 2.5);
}

TEST(Stats, SingleSample) {
  const Stats s = summarize({0.5});
  EXPECT_EQ(s.n, 1);
  EXPECT_DOUBLE_EQ(s.median_s, 0.5);
  EXPECT_DOUBLE_EQ(s.rel_spread, 0);
}

TEST(Stats, MedianIgnoresOneOutlier) {
  const Stats s = summarize({1.0, 1.0, 1.0, 1.0, 100.0});
  EXPECT_DOUBLE_EQ(s.median_s, 1.0);
  EXPECT_GT(s.mean_s, 10.0);
}

namespace {

// A fake op with scripted timings: lets the stopping rules be tested exactly, without a clock.
class ScriptedOp : public TimedOp {
 public:
  explicit ScriptedOp(std::vector<double> times, bool passes = true) : m_times(std::move(times)), m_passes(passes) {}
  Check verify() override {
    ++verifies;
    Check c;
    c.passed = m_passes;
    if (!m_passes) c.message = "scripted failure";
    return c;
  }
  double run_once() override {
    ++runs;
    const double t = m_times[std::min(m_next, m_times.size() - 1)];
    ++m_next;
    if (on_run) on_run(runs);
    return t;
  }
  double flops() const override { return 1; }
  double bytes() const override { return 1; }
  int verifies = 0, runs = 0;
  std::function<void(int)> on_run;

 private:
  std::vector<double> m_times;
  std::size_t m_next = 0;
  bool m_passes;
};

}  // namespace

TEST(Measure, FailedCheckIsNotTimed) {
  ScriptedOp op({1.0}, false);
  const Measurement m = measure(op, MeasurePolicy{});
  EXPECT_FALSE(m.check.passed);
  EXPECT_EQ(op.verifies, 1);
  EXPECT_EQ(op.runs, 0);
  EXPECT_TRUE(m.samples_s.empty());
  EXPECT_EQ(m.stats.n, 0);
}

TEST(Measure, StopsAtMinSamplesWhenSpreadIsSmall) {
  ScriptedOp op({0.01});
  MeasurePolicy p;
  p.min_samples = 4;
  p.warmup_runs = 2;
  const Measurement m = measure(op, p);
  EXPECT_TRUE(m.check.passed);
  EXPECT_EQ(m.samples_s.size(), 4u);
  EXPECT_EQ(op.runs, 4 + 2);  // warm-ups are run but not kept
  EXPECT_EQ(m.stats.n, 4);
  EXPECT_FALSE(m.cancelled);
}

TEST(Measure, KeepsGoingWhileSpreadIsLargeUntilMax) {
  // Alternating 1 ms / 2 ms: the spread never drops below 5 %, the budget (2 s) is never reached.
  std::vector<double> t;
  for (int i = 0; i < 200; ++i) t.push_back(i % 2 ? 0.002 : 0.001);
  ScriptedOp op(t);
  MeasurePolicy p;
  p.max_samples = 20;
  p.warmup_runs = 0;
  const Measurement m = measure(op, p);
  EXPECT_EQ(m.samples_s.size(), 20u);
}

TEST(Measure, StopsWhenBudgetIsSpent) {
  std::vector<double> t;
  for (int i = 0; i < 200; ++i) t.push_back(i % 2 ? 0.2 : 0.1);
  ScriptedOp op(t);
  MeasurePolicy p;
  p.time_budget_s = 1.0;
  p.warmup_runs = 0;
  const Measurement m = measure(op, p);
  // 0.1 + 0.2 + ... reaches 1.0 s after 7 samples (0.1+0.2+0.1+0.2+0.1+0.2+0.1 = 1.0).
  EXPECT_EQ(m.samples_s.size(), 7u);
}

TEST(Measure, BudgetDoesNotCutBelowMinSamples) {
  ScriptedOp op({5.0, 1.0, 9.0, 1.0});
  MeasurePolicy p;
  p.min_samples = 3;
  p.time_budget_s = 0.1;
  p.warmup_runs = 0;
  const Measurement m = measure(op, p);
  EXPECT_EQ(m.samples_s.size(), 3u);
}

TEST(Measure, CancelBeforeStartRunsNothing) {
  ScriptedOp op({0.01});
  std::stop_source src;
  src.request_stop();
  const Measurement m = measure(op, MeasurePolicy{}, src.get_token());
  EXPECT_TRUE(m.cancelled);
  EXPECT_EQ(op.verifies, 0);
  EXPECT_EQ(op.runs, 0);
}

TEST(Measure, CancelBetweenSamplesStopsPromptly) {
  std::vector<double> t;
  for (int i = 0; i < 100; ++i) t.push_back(i % 2 ? 0.002 : 0.001);  // never converges
  ScriptedOp op(t);
  std::stop_source src;
  op.on_run = [&](int runs) {
    if (runs == 5) src.request_stop();
  };
  MeasurePolicy p;
  p.warmup_runs = 0;
  p.max_samples = 50;
  const Measurement m = measure(op, p, src.get_token());
  EXPECT_TRUE(m.cancelled);
  EXPECT_EQ(op.runs, 5);
  EXPECT_EQ(m.samples_s.size(), 5u);
  EXPECT_EQ(m.stats.n, 5);
}

TEST(Measure, OnSampleSeesEverySample) {
  ScriptedOp op({0.01});
  std::vector<int> seen;
  MeasurePolicy p;
  p.min_samples = 3;
  measure(op, p, {}, [&](int i, double s) {
    seen.push_back(i);
    EXPECT_DOUBLE_EQ(s, 0.01);
  });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2}));
}

TEST(Results, FinalizeRates) {
  Result r;
  r.flops = 2e9;
  r.bytes = 1e9;
  r.stats.median_s = 0.5;
  finalize_rates(r);
  EXPECT_DOUBLE_EQ(r.gflops, 4.0);
  EXPECT_DOUBLE_EQ(r.gbps, 2.0);
  r.stats.median_s = 0;
  finalize_rates(r);
  EXPECT_EQ(r.gflops, 0);
  EXPECT_EQ(r.gbps, 0);
}

// ---- A GPU's clock (issue 35) -------------------------------------------------------------------------------------

TEST(Measure, WarmsUpByTimeBeforeTheFirstSample) {
  // A GPU leaves its idle clock after ~0.15 s of work, however many runs that takes: the warm-up is counted in time.
  ScriptedOp op({0.05});
  MeasurePolicy p;
  p.warmup_runs = 1;
  p.warmup_min_s = 0.2;
  const Measurement m = measure(op, p);
  EXPECT_EQ(m.warmup_count, 4);  // 4 × 0.05 s: the one run asked for by count, three more by time
  EXPECT_DOUBLE_EQ(m.warmup_s, 0.2);
  EXPECT_EQ(op.runs, 4 + 3);
  EXPECT_EQ(describe_warmup(p, m), "the check run, then 4 untimed run(s), 0.200 s (warm-up by time: at least 0.200 s)");
}

TEST(Measure, ADeviceThatJustWorkedIsStillWarmAndOneIdleSinceWarmsAgain) {
  // A suite's jobs follow each other on one device: the first warms it up by time, the next (moments later) finds it
  // at its boost clock and skips that, so 40 transfer jobs do not pay 40 warm-ups. After a gap longer than
  // kDeviceStaysWarmS (the clock may have dropped) the warm-up by time comes back. Another device is not warm.
  int device = 0, other = 0;
  MeasurePolicy p;
  p.warmup_runs = 1;
  p.warmup_min_s = 0.2;
  p.device = &device;
  ScriptedOp first({0.05});
  const Measurement cold = measure(first, p);
  EXPECT_FALSE(cold.warm_already);
  EXPECT_EQ(cold.warmup_count, 4);
  ScriptedOp second({0.05});
  const Measurement warm = measure(second, p);
  EXPECT_TRUE(warm.warm_already);
  EXPECT_EQ(warm.warmup_count, 1);  // the run asked for by count only
  EXPECT_NE(describe_warmup(p, warm).find("no warm-up by time"), std::string::npos);
  MeasurePolicy q = p;
  q.device = &other;
  ScriptedOp elsewhere({0.05});
  EXPECT_FALSE(measure(elsewhere, q).warm_already);
  std::this_thread::sleep_for(std::chrono::duration<double>(kDeviceStaysWarmS + 0.1));
  ScriptedOp later({0.05});
  const Measurement again = measure(later, p);
  EXPECT_FALSE(again.warm_already);
  EXPECT_EQ(again.warmup_count, 4);
}

TEST(Measure, AWarmUpByTimeEndsEvenWhenTheTimerCountsLittle) {
  // An op whose timer counts a sliver of each run (a batch's average) still ends its warm-up, by wall time.
  ScriptedOp op({1e-9});
  MeasurePolicy p;
  p.warmup_runs = 0;
  p.warmup_min_s = 0.01;
  const Measurement m = measure(op, p);
  EXPECT_GT(m.warmup_count, 0);
  EXPECT_EQ(m.samples_s.size(), 3u);
}

TEST(Measure, StopsWhenSuccessiveSamplesAgreeAndDropsTheSlowerOnesBefore) {
  // A clock still ramping when timing began: 5, 3, 2 ms, then steady at 1 ms. The last three agree, so timing
  // stops there, and the three before them (all slower) are dropped as warm-up instead of pulling the median up.
  // Before: the spread of all samples never came under 5 %, so it ran to the budget with the slow ones kept.
  ScriptedOp op({0.005, 0.003, 0.002, 0.001, 0.001, 0.001, 0.001, 0.001});
  MeasurePolicy p;
  p.warmup_runs = 0;
  const Measurement m = measure(op, p);
  EXPECT_EQ(op.runs, 6);
  EXPECT_EQ(m.settling_samples, 3);
  EXPECT_EQ(m.samples_s, (std::vector<double>{0.001, 0.001, 0.001}));
  EXPECT_DOUBLE_EQ(m.stats.median_s, 0.001);
  EXPECT_NE(describe_settling(m).find("3 leading sample(s) slower"), std::string::npos);
}

TEST(Measure, FasterOrAgreeingLeadingSamplesAreKept) {
  // Only samples slower than every agreeing one are warm-up; a fast first sample is a sample like the others.
  ScriptedOp op({0.0009, 0.001, 0.001, 0.001});
  MeasurePolicy p;
  p.warmup_runs = 0;
  const Measurement m = measure(op, p);
  EXPECT_EQ(m.settling_samples, 0);
  EXPECT_EQ(m.samples_s.size(), 4u);  // 0.9, 1, 1 ms are 10 % apart; the last three agree, and the first is kept
  EXPECT_EQ(describe_settling(m), "");
}

// measure_interleaved() and paired_median_ratio(): several ops timed in the same rounds, for ratios that a slow
// moment on a shared machine cannot bend. Scripted ops, so the order and stopping rules are tested exactly.
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <stop_token>
#include <string>
#include <vector>

using namespace gpulab;

namespace {

// Each run appends the op's name to a shared log and returns the next scripted time.
class LoggedOp : public TimedOp {
 public:
  LoggedOp(std::string name, std::vector<double> times, std::vector<std::string>& log, bool passes = true)
      : m_name(std::move(name)), m_times(std::move(times)), m_log(log), m_passes(passes) {}
  Check verify() override {
    Check c;
    c.passed = m_passes;
    if (!m_passes) c.message = "scripted failure";
    return c;
  }
  double run_once() override {
    m_log.push_back(m_name);
    const double t = m_times[std::min(m_next, m_times.size() - 1)];
    ++m_next;
    return t;
  }
  double flops() const override { return 1; }
  double bytes() const override { return 1; }

 private:
  std::string m_name;
  std::vector<double> m_times;
  std::vector<std::string>& m_log;
  std::size_t m_next = 0;
  bool m_passes;
};

}  // namespace

TEST(MeasureInterleaved, RoundsAlternateTheOrder) {
  std::vector<std::string> log;
  LoggedOp a("a", {0.01}, log), b("b", {0.02}, log);
  MeasurePolicy p;
  p.min_samples = 3;
  p.warmup_runs = 1;
  const auto ms = measure_interleaved({&a, &b}, p);
  ASSERT_EQ(ms.size(), 2u);
  // Warm-up a b, then rounds a b | b a | a b: constant times converge at min_samples.
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "a", "b", "b", "a", "a", "b"}));
  EXPECT_EQ(ms[0].samples_s.size(), 3u);
  EXPECT_EQ(ms[1].samples_s.size(), 3u);
  EXPECT_DOUBLE_EQ(ms[1].stats.median_s, 0.02);
  EXPECT_TRUE(ms[0].check.passed);
}

TEST(MeasureInterleaved, BudgetCountsEveryOp) {
  std::vector<std::string> log;
  // Spreads never converge; each round costs 0.1 + 0.2 (± the alternation) ≈ 0.3 s, so a 1 s budget ends
  // after 4 rounds (0.3 + 0.3 + 0.3 = 0.9 < 1, then 1.2).
  std::vector<double> ta, tb;
  for (int i = 0; i < 50; ++i) {
    ta.push_back(i % 2 ? 0.05 : 0.1);
    tb.push_back(i % 2 ? 0.25 : 0.2);
  }
  LoggedOp a("a", ta, log), b("b", tb, log);
  MeasurePolicy p;
  p.min_samples = 2;
  p.time_budget_s = 1.0;
  p.warmup_runs = 0;
  const auto ms = measure_interleaved({&a, &b}, p);
  EXPECT_EQ(ms[0].samples_s.size(), 4u);
  EXPECT_EQ(ms[1].samples_s.size(), 4u);
}

TEST(MeasureInterleaved, FailedCheckIsLeftOutOfTheRounds) {
  std::vector<std::string> log;
  LoggedOp good("good", {0.01}, log), bad("bad", {0.01}, log, false);
  MeasurePolicy p;
  p.min_samples = 3;
  p.warmup_runs = 0;
  const auto ms = measure_interleaved({&bad, &good}, p);
  EXPECT_FALSE(ms[0].check.passed);
  EXPECT_TRUE(ms[0].samples_s.empty());
  EXPECT_EQ(ms[1].samples_s.size(), 3u);
  for (const auto& name : log) EXPECT_EQ(name, "good");
}

TEST(MeasureInterleaved, CancelKeepsOnlyWholeRounds) {
  std::vector<std::string> log;
  std::stop_source src;
  std::vector<double> t;
  for (int i = 0; i < 50; ++i) t.push_back(i % 2 ? 0.002 : 0.001);  // never converges
  struct StoppingOp : LoggedOp {
    StoppingOp(std::vector<double> t, std::vector<std::string>& log, std::stop_source& s)
        : LoggedOp("b", std::move(t), log), src(s) {}
    double run_once() override {
      const double v = LoggedOp::run_once();
      if (++runs == 3) src.request_stop();  // stop in round 3, after b ran but before a (order b a)
      return v;
    }
    std::stop_source& src;
    int runs = 0;
  };
  LoggedOp a("a", t, log);
  StoppingOp b(t, log, src);
  MeasurePolicy p;
  p.warmup_runs = 0;
  p.max_samples = 50;
  // Rounds: a b | b a | a b(stop) → round 3 is complete (a ran first), so 3 whole rounds are kept.
  const auto ms = measure_interleaved({&a, &b}, p, src.get_token());
  EXPECT_TRUE(ms[0].cancelled);
  EXPECT_TRUE(ms[1].cancelled);
  EXPECT_EQ(ms[0].samples_s.size(), ms[1].samples_s.size());
  EXPECT_EQ(ms[0].samples_s.size(), 3u);
}

TEST(MeasureInterleaved, CancelMidRoundDropsThatRound) {
  std::vector<std::string> log;
  std::stop_source src;
  std::vector<double> t;
  for (int i = 0; i < 50; ++i) t.push_back(i % 2 ? 0.002 : 0.001);
  struct StoppingOp : LoggedOp {
    StoppingOp(std::vector<double> t, std::vector<std::string>& log, std::stop_source& s)
        : LoggedOp("a", std::move(t), log), src(s) {}
    double run_once() override {
      const double v = LoggedOp::run_once();
      if (++runs == 3) src.request_stop();  // round 3 runs a first, so b never runs in it
      return v;
    }
    std::stop_source& src;
    int runs = 0;
  };
  StoppingOp a(t, log, src);
  LoggedOp b("b", t, log);
  MeasurePolicy p;
  p.warmup_runs = 0;
  p.max_samples = 50;
  const auto ms = measure_interleaved({&a, &b}, p, src.get_token());
  EXPECT_EQ(ms[0].samples_s.size(), 2u);  // a's third sample had no partner: dropped
  EXPECT_EQ(ms[1].samples_s.size(), 2u);
  EXPECT_EQ(ms[0].stats.n, 2);
}

TEST(PairedMedianRatio, OneSlowRoundDoesNotMoveIt) {
  // Round 2 was slow for both (a shared machine got busy): pairing keeps the ratio at 2.
  const std::vector<double> one = {0.020, 0.080, 0.020, 0.021, 0.019};
  const std::vector<double> two = {0.010, 0.040, 0.010, 0.0105, 0.0095};
  EXPECT_DOUBLE_EQ(paired_median_ratio(one, two), 2.0);
  EXPECT_DOUBLE_EQ(paired_median_ratio({1.0, 3.0}, {1.0, 1.0}), 2.0);  // even count: mean of the middle two
  EXPECT_EQ(paired_median_ratio({}, {1.0}), 0);
}

// measure() and a cancel inside a sample (issue 13): the op's own loop throws Cancelled through the current
// StopScope; measure() keeps the finished samples, drops the half-done one and names the phase it stopped in.
// No timing here: the ops count, and the stop comes from the op itself at a chosen call.
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <stop_token>

using namespace gpulab;

namespace {

// Passes its check; the `stop_at`-th call of run_once() (1-based, counting warm-ups) asks for a stop and then
// behaves like a long loop that polls the token.
class StoppingOp final : public TimedOp {
 public:
  StoppingOp(std::stop_source& stop, int stop_at, bool stop_in_check = false)
      : m_stop(stop), m_stop_at(stop_at), m_stop_in_check(stop_in_check) {}
  Check verify() override {
    if (m_stop_in_check) {
      m_stop.request_stop();
      throw_if_cancelled();
    }
    Check c;
    c.passed = true;
    c.checked = 1;
    return c;
  }
  double run_once() override {
    if (++m_calls == m_stop_at) {
      m_stop.request_stop();
      for (;;) throw_if_cancelled();  // the op's long loop: only a stop ends it
    }
    return 0.01;
  }
  double flops() const override { return 1; }
  double bytes() const override { return 1; }

 private:
  std::stop_source& m_stop;
  int m_stop_at, m_calls = 0;
  bool m_stop_in_check;
};

}  // namespace

TEST(MeasureCancel, InsideASampleKeepsTheFinishedOnes) {
  std::stop_source stop;
  StoppingOp op(stop, 4);  // 1 warm-up, samples 1 and 2, then stopped inside sample 3
  MeasurePolicy p;
  p.min_samples = 10;
  p.warmup_runs = 1;
  const Measurement m = measure(op, p, stop.get_token());
  EXPECT_TRUE(m.cancelled);
  EXPECT_EQ(m.samples_s.size(), 2u);
  EXPECT_EQ(m.cancelled_in, "sample 3");
  EXPECT_EQ(m.stats.n, 2);
  EXPECT_TRUE(m.check.passed);
}

TEST(MeasureCancel, InsideTheWarmUp) {
  std::stop_source stop;
  StoppingOp op(stop, 1);
  const Measurement m = measure(op, MeasurePolicy{}, stop.get_token());
  EXPECT_TRUE(m.cancelled);
  EXPECT_TRUE(m.samples_s.empty());
  EXPECT_EQ(m.cancelled_in, "the warm-up");
}

TEST(MeasureCancel, InsideTheCheck) {
  std::stop_source stop;
  StoppingOp op(stop, 0, true);
  const Measurement m = measure(op, MeasurePolicy{}, stop.get_token());
  EXPECT_TRUE(m.cancelled);
  EXPECT_FALSE(m.check.passed);
  EXPECT_EQ(m.check.checked, 0);  // not a wrong answer: never looked at
  EXPECT_EQ(m.cancelled_in, "the check");
  EXPECT_NE(m.check.message.find("cancelled during the check"), std::string::npos);
}

TEST(MeasureCancel, InterleavedDropsTheHalfDoneRound) {
  std::stop_source stop;
  StoppingOp a(stop, 1000), b(stop, 4);  // b: warm-up, rounds 1 and 2, stopped in round 3
  MeasurePolicy p;
  p.min_samples = 10;
  const auto ms = measure_interleaved({&a, &b}, p, stop.get_token());
  ASSERT_EQ(ms.size(), 2u);
  for (const auto& m : ms) {
    EXPECT_TRUE(m.cancelled);
    EXPECT_EQ(m.samples_s.size(), 2u);
    EXPECT_EQ(m.cancelled_in, "round 3");
  }
}

TEST(MeasureCancel, TheScopeEndsWithTheMeasurement) {
  std::stop_source stop;
  StoppingOp op(stop, 2);
  (void)measure(op, MeasurePolicy{}, stop.get_token());
  EXPECT_NO_THROW(throw_if_cancelled());  // the stopped token does not outlive measure()
}

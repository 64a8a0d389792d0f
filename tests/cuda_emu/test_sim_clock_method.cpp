// The measurement method on the simulated GPU clock (issue 35), with no time passing: the clock the emulated runtime
// simulates under GPULAB_EMU_CLOCK=ramp (345 MHz idle, stepping to 1980 MHz after 150 ms of busy time) is driven here
// by a clock of the test's own, and harness measure() — the code every GPU job is timed with — times a 1 ms kernel
// on it. With the warm-up by time that policy_for gives a GPU it reads the boost figure; without it the samples
// agree on the idle clock's first step and the method stops there, 5.7 times slow: the failure the issue describes.
// (The emulator-process version, tests/gpu/test_cuda_sim_device.cpp, is noisy on a shared machine and kept out of CI.)
#include <gpulab/harness.hpp>
#include <gpulab_emu/simulated_clock.hpp>

#include <gtest/gtest.h>

namespace {

using namespace gpulab;

// A kernel of `work_s` at boost on the simulated clock, launched back to back with a host gap between runs.
class KernelOnSimulatedClock : public TimedOp {
 public:
  explicit KernelOnSimulatedClock(double work_s, double gap_s = 20e-6) : m_work_s(work_s), m_gap_s(gap_s) {}
  Check verify() override {
    run_once();  // the check runs the kernel too (its first launch, on the idle clock)
    Check c;
    c.passed = true;
    return c;
  }
  double run_once() override {
    const double wall = m_clock.run(m_work_s, m_now_s);
    m_now_s += wall + m_gap_s;
    return wall;  // what the events around the launch read
  }
  double flops() const override { return 1; }
  double bytes() const override { return 1; }

 private:
  emu::SimulatedClock m_clock;
  double m_work_s, m_gap_s, m_now_s = 0;
};

// The policy a GPU job gets (policy_for in gpu/experiments/run_context.cpp): the default, warmed up by time.
MeasurePolicy gpuPolicy() {
  MeasurePolicy p;
  p.warmup_min_s = p.device_warmup_s;
  return p;
}

}  // namespace

TEST(SimulatedClockMethod, TheClockRampsInSteps) {
  emu::SimulatedClock clock;
  EXPECT_NEAR(clock.run(1e-3, 0), 1e-3 * 1980 / 345, 1e-9);  // a cold device: the idle clock
  emu::SimulatedClock warm;
  warm.run(0.2, 0);                                           // 200 ms of work: at boost
  EXPECT_NEAR(warm.run(1e-3, 0.5), 1e-3, 1e-9);
  EXPECT_GT(warm.run(1e-3, 3.0), 1.5e-3);                     // idle for 2.5 s: cold again
}

TEST(SimulatedClockMethod, AWarmedUpMeasurementReadsTheBoostClock) {
  for (const double work_s : {0.2e-3, 1e-3, 5e-3}) {
    KernelOnSimulatedClock op(work_s);
    const Measurement m = measure(op, gpuPolicy());
    ASSERT_TRUE(m.check.passed);
    EXPECT_NEAR(m.stats.median_s / work_s, 1.0, 0.03) << work_s * 1e3 << " ms kernel: " << describe_warmup(gpuPolicy(), m);
  }
}

TEST(SimulatedClockMethod, WithoutTheWarmUpByTimeTheIdleClockIsTimed) {
  // The control: the same kernel and method with one warm-up run and no warm-up by time (the CPU's policy, and the
  // GPU's before issue 35). If this read the boost clock too, the test above would show nothing.
  KernelOnSimulatedClock op(1e-3);
  MeasurePolicy cold;  // warmup_runs 1, warmup_min_s 0
  const Measurement m = measure(op, cold);
  EXPECT_GT(m.stats.median_s / 1e-3, 1.5) << "timed at " << m.stats.median_s * 1e3 << " ms";
}

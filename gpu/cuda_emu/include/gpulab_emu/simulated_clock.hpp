#pragma once
// The simulated GPU clock of GPULAB_EMU_CLOCK=ramp (device_behaviour.hpp), as a pure model of time: the emulated
// runtime drives it with the host clock and sleeps what it adds; tests drive it with a clock of their own, so the
// measurement method can be tried on it with no time passing (tests/cuda_emu/test_sim_clock_method.cpp).
#include <algorithm>
#include <cstddef>

namespace gpulab::emu {

// The lent H100/H200 idle at 345 MHz and boost to 1980 MHz. The driver raises the clock in steps as it sees the
// load, not smoothly: the device holds each clock for a while, so a few short samples taken on one step agree with
// each other, and a method that stops when three samples agree can time the idle clock. Here the clock steps up at
// fixed amounts of busy time and is at boost after kRampS.
struct ClockStep {
  double from_busy_s;  // busy time at which this clock starts
  double mhz;
};
inline constexpr ClockStep kClockSteps[] = {{0.0, 345}, {0.060, 1005}, {0.110, 1500}, {0.150, 1980}};
inline constexpr double kBoostMhz = 1980;
inline constexpr double kRampS = 0.150;
// A GPU left idle lowers its clock again, but not at once: the warmth gained by busy time keeps accumulating past
// boost up to kHoldS, and idle time drains it linearly at kRampS per kCoolS. So the clock holds boost through the
// host's short gaps between launches (a sample's bookkeeping, a preempted process), starts stepping down after
// ~1 s without work and is back at idle after ~2 s: short enough that a measurement cannot lean on the warm-up of
// one a suite ran earlier (host work between GPU jobs, a large check's FP64 reference, take that long).
inline constexpr double kCoolS = 1.0;
inline constexpr double kHoldS = 2 * kRampS;

// Wall time for `work_s` seconds of full-speed work on a device warmed by `warmth_s`: each clock step in turn does
// work at its share of boost until its busy time is used up, then the next one.
inline double stretched(double work_s, double warmth_s) {
  double wall = 0, busy = warmth_s, left = work_s;
  const std::size_t steps = sizeof kClockSteps / sizeof kClockSteps[0];
  for (std::size_t i = 0; i < steps && left > 0; ++i) {
    const double until = i + 1 < steps ? kClockSteps[i + 1].from_busy_s : 1e300;
    if (busy >= until) continue;
    const double speed = kClockSteps[i].mhz / kBoostMhz;
    const double t = std::min(until - busy, left / speed);  // wall time spent on this step
    wall += t;
    busy += t;
    left -= t * speed;
  }
  return wall;
}

// The clock's warmth: busy seconds credited towards boost (0 = idle clock, kRampS = boost), and when the last work
// ended, in the caller's seconds (idle time since then drains the credit).
class SimulatedClock {
 public:
  // Work of `work_s` seconds at boost, starting at `start_s`: the wall time it takes on this clock.
  double run(double work_s, double start_s) {
    if (m_worked) m_warmth_s = std::max(0.0, m_warmth_s - std::max(0.0, start_s - m_last_end_s) * kRampS / kCoolS);
    const double wall = stretched(work_s, m_warmth_s);
    m_warmth_s = std::min(kHoldS, m_warmth_s + wall);
    m_last_end_s = start_s + wall;
    m_worked = true;
    return wall;
  }

 private:
  double m_warmth_s = 0, m_last_end_s = 0;
  bool m_worked = false;
};

}  // namespace gpulab::emu

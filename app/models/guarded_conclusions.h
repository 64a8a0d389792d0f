#pragma once
// The conclusions pages draw from measured rates, stated only when the spread supports them: "N threads are
// slower than one", the serial share a thread-scaling run implies, the batch where a layer turns compute-bound.
// Each returns whether the conclusion stands and a sentence saying it — or saying why it cannot be drawn, so a
// zig-zag of noise never becomes a lesson. Qt-free; tests/models feeds them synthetic noisy samples.
#include "models/measured_spread.h"

#include <string>
#include <vector>

namespace gpulab::models {

struct Conclusion {
  bool stated = false;  // true: the measurement supports `text`; false: `text` says why nothing is concluded
  std::string text;
};

// BLAS on one thread against all `threads` at one size (matmul page). `busy`: the busy-machine check fired.
Conclusion threads_conclusion(const RateRange& one, const RateRange& all, int threads, bool busy);

// A speed-up from paired rounds: the 1-thread and N-thread times of the same round, ratio per round.
struct SpeedupRange {
  double low = 0, typical = 0, high = 0;
  int rounds = 0;
};
SpeedupRange paired_speedup_range(const std::vector<double>& one_thread_s, const std::vector<double>& n_thread_s);

// The serial share Amdahl's law implies from a speed-up on `threads` threads, with the range the speed-up's
// spread allows. Stated only when more threads measurably helped, the range is narrow (15 points) and the
// machine was not busy (then the threads shared cores with other programs and the share would be inflated).
struct ShareInference {
  Conclusion conclusion;
  double share = 0, low = 0, high = 0;  // low/high from the fast/slow end of the speed-up range
};
ShareInference infer_serial_share(const SpeedupRange& s, int threads, bool busy);

// One point of a batch sweep: the batch, its FLOPs per byte and its measured FLOP/s range.
struct BatchPoint {
  double batch = 0, intensity = 0;
  RateRange rate;  // FLOP/s (any unit, the same for all points)
};
struct GuardedCrossover {
  Conclusion conclusion;
  double batch = 0, intensity = 0, rate = 0;  // the crossover point when stated
};
// The first batch reaching `share` of the best rate, stated only when some smaller batch is slower beyond the
// noise (a memory-bound part was measured), a larger batch confirms the plateau, and no later batch falls below
// an earlier one by more than both spreads (a zig-zag says the timings are noise, not the curve).
GuardedCrossover guarded_crossover(std::vector<BatchPoint> points, double share = 0.8);

}  // namespace gpulab::models

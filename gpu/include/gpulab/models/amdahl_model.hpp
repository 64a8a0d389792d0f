#pragma once
// Amdahl's law as the lesson states it: with a strictly serial share s of the work, N workers speed the
// job up by 1 / (s + (1 - s) / N), never more than 1 / s.

namespace gpulab::models {

// Lesson: N = 4096 -> 4096.0× (s = 0), 19.9× (s = 0.05), 2.0× (s = 0.5); N = 8, s = 0.05 -> 5.9×.
// s is clamped to [0, 1]; workers < 1 are treated as 1.
double amdahl_speedup(double serial_share, double workers);

// The limit as N -> infinity: 1 / s (20× for s = 0.05); +infinity for s = 0.
double amdahl_limit(double serial_share);

// Speed-up divided by the number of workers: how much of the stadium is earning its keep.
double amdahl_efficiency(double serial_share, double workers);

// Two-part job: a fraction f of the run time is sped up by a factor k, the rest is not:
// 1 / ((1 - f) + f / k). Lesson: half the time on data loading, GPU twice as fast -> 1 / 0.75 = 1.33×.
// f is clamped to [0, 1]; k <= 0 returns 0 (meaningless).
double partial_speedup(double fraction_sped_up, double factor);

}  // namespace gpulab::models

#pragma once
// Amdahl's law, measured: a job with a truly serial prefix (a dependent chain: each step needs the previous
// one) followed by an embarrassingly parallel part (many independent chains), run on 1…N CPU threads and
// timed through the harness. Both parts do the same operation per step, so the serial share of the work is
// also the serial share of the one-thread time; the measured speed-ups can then be laid over the model.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/results.hpp"

#include <vector>

namespace gpulab {

struct AmdahlScalingSpec {
  double serial_share = 0.2;          // fraction of all steps in the serial prefix, 0..1
  long long total_steps = 8'000'000;  // steps of the whole job (≈ 2–4 ns each on one core: ~20–30 ms)
  int parallel_items = 1024;          // independent chains in the parallel part (shared out over the threads)
  std::vector<int> threads = {1, 2};  // thread counts to time; the first should be 1 (the reference)
  std::uint64_t seed = 42;
};

// Thread counts 1, 2, 4, … up to max_threads, always ending with max_threads itself (e.g. 1 2 4 6 for 6).
std::vector<int> amdahl_thread_ladder(int max_threads);

// One prepared job at a fixed thread count, as a TimedOp: verify() compares every chain's end value with a
// single-thread reference (exact: integer arithmetic), run_once() times serial prefix + parallel part.
// last_serial_seconds() is how long the serial prefix took in the latest run_once().
class AmdahlJob : public TimedOp {
 public:
  AmdahlJob(const AmdahlScalingSpec& spec, int threads);
  Check verify() override;
  double run_once() override;
  double flops() const override { return 0; }  // integer steps, not FLOPs
  double bytes() const override { return 0; }
  double last_serial_seconds() const { return m_last_serial_s; }
  // The serial-prefix times of the latest n run_once() calls (fewer if there were fewer), oldest first.
  std::vector<double> serial_seconds(std::size_t n) const;
  long long serial_steps() const { return m_serial_steps; }
  long long steps_per_item() const { return m_steps_per_item; }

 private:
  void run_parallel(std::uint64_t start);
  int m_threads;
  long long m_serial_steps;
  long long m_steps_per_item;
  std::uint64_t m_seed;
  std::vector<std::uint64_t> m_out;  // end value of each parallel chain (poisoned before each run)
  std::uint64_t m_serial_out = 0;
  double m_last_serial_s = 0;
  std::vector<double> m_serial_history;  // one entry per run_once(), check and warm-up included
};

// Times the job at each thread count in spec.threads, all in the same rounds (measure_interleaved), so the
// speed-ups are ratios taken side by side. One Result per count (experiment "amdahl_scaling", backend "cpu",
// variant "threads"), reported through ctx.on_result once the rounds are done. Params: threads,
// serial_share, total_steps, serial_steps; serial_s (median time of the serial prefix alone), and, once the
// one-thread run exists, speedup (median of the per-round t1 / tN) and implied_serial_share (Karp–Flatt, see below).
std::vector<Result> run_amdahl_scaling(Backend& cpu, const AmdahlScalingSpec& spec, const RunContext& ctx);

// The serial share a measured speed-up implies if Amdahl's law holds (the Karp–Flatt metric):
// s = (1/S − 1/N) / (1 − 1/N). N must be > 1 (returns NaN otherwise).
double implied_serial_share(double speedup, double threads);

// On a GPU: `spec.kernels` tiny kernels back to back (backend.make_launch_overhead), timed through the harness.
// experiment "launch_overhead", variant "tiny_kernels"; params kernels, elements, per_launch_s. Error set (and
// nothing run) when the backend does not support it, with the backend's reason.
Result run_launch_overhead(Backend& backend, const LaunchOverheadSpec& spec, const RunContext& ctx);

}  // namespace gpulab

#pragma once
// The measurement method: check first (the untimed first launch: module load, JIT), warm up (on a GPU by time, so
// the clock has left idle), then repeat until successive samples agree or the budget is spent. Cancel is checked
// between runs and, inside long ones, through the current StopScope.
#include "gpulab/backend.hpp"
#include "gpulab/results.hpp"

#include <functional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

namespace gpulab {

// A GPU idles at a fraction of its boost clock (345 of 1980 MHz on an H100/H200) and needs ~0.1-0.2 s of work to
// reach it: every measurement on a device warms up for at least this much device time before its first sample.
inline constexpr double kDeviceWarmupS = 0.2;
// ... and stays there through short gaps: a device that finished timed work less than this long ago is still warm, so
// the next measurement on it skips the warm-up by time (a suite of 40 transfer jobs warms up once, not 40 times; a
// job whose check keeps the device idle longer, an FP64 reference on the host, warms up again).
inline constexpr double kDeviceStaysWarmS = 0.5;

struct MeasurePolicy {
  int min_samples = 3;              // and the number of successive samples that must agree
  int max_samples = 50;
  double target_rel_spread = 0.05;  // stop once the last min_samples samples' (max - min)/median is below this
  double time_budget_s = 2.0;       // stop after this much timed work even if the samples do not agree
  int warmup_runs = 1;              // extra untimed runs after the check
  double warmup_min_s = 0;          // ... and untimed runs until they add up to this much time (warm-up by time)
  double device_warmup_s = kDeviceWarmupS;  // what policy_for() (experiments.hpp) makes warmup_min_s on a GPU
  const void* device = nullptr;  // the device the op runs on (policy_for sets it), for kDeviceStaysWarmS; null: none
};

// Runs `run` (one untimed launch, returning its seconds) until the returned times add up to `seconds`, or twice that
// much wall time has passed (a run whose timer counts less than it takes, a batch's average): the warm-up by time
// measure() gives a GPU op, for ops that must calibrate on a warm device before their check (the FMA peak).
// Honours the current StopScope between runs (throws Cancelled).
void warm_up_for(double seconds, const std::function<double()>& run);

struct Progress {
  double fraction = 0;  // 0..1 of the whole job
  std::string message;
};
using ProgressFn = std::function<void(const Progress&)>;

// ---- Cancel inside a run -----------------------------------------------------------------------------------------
// A check or a sample can take minutes (the naive loop at 4096³), so waiting for the end of one before looking at
// the stop token is not good enough: measure() makes its token the current one on its thread for the whole check,
// warm-up and timing, and long loops deep inside an op (GEMM loops, the FP64 reference, streaming kernels, the layer
// chain) poll it every few milliseconds and throw Cancelled. measure() turns that into `cancelled`; the half-done
// sample is dropped, the finished ones are kept. Outside any scope the current token never stops.
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};
class StopScope {
 public:
  explicit StopScope(std::stop_token stop);
  ~StopScope();
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  std::stop_token m_previous;
};
std::stop_token current_stop();  // the innermost StopScope's token on this thread (an empty token outside one)
void throw_if_cancelled();       // throws Cancelled when the current token has been asked to stop

// Summary statistics over samples (seconds). Empty input gives n = 0.
Stats summarize(std::vector<double> samples);

struct Measurement {
  Check check;
  Stats stats;
  std::vector<double> samples_s;
  double warmup_s = 0;    // time the untimed warm-up runs took (as run_once counts it)
  int warmup_count = 0;   // how many there were
  int settling_samples = 0;  // leading samples dropped: all slower than the agreeing ones after them (still warming)
  bool warm_already = false;  // the warm-up by time was skipped: the device had finished timed work moments before
  bool cancelled = false;
  std::string cancelled_in;  // the phase a cancel stopped: "the check", "the warm-up", "sample 3"; "" when not
};

// Verify, warm up, then time `op` under `policy`. A failed check is returned untimed.
Measurement measure(TimedOp& op, const MeasurePolicy& policy, std::stop_token stop = {},
                    const std::function<void(int sample, double seconds)>& on_sample = {});

// The warm-up and settling a measurement had, in the recording's words: "the check run, then 14 untimed run(s),
// 0.21 s (warm-up by time: at least 0.2 s)"; "" for settling when no sample was dropped.
std::string describe_warmup(const MeasurePolicy& policy, const Measurement& m);
std::string describe_settling(const Measurement& m);

// Several ops timed in the same rounds, for a ratio between them (1 thread vs N threads, harness vs direct):
// each op is checked and warmed up, then every round runs each op once, alternating the order, so a slow
// moment on a shared machine lands on all of them instead of on whichever happened to be measured then.
// Stops on the policy's rules applied to every op's samples (all spreads small, or the budget spent, which
// counts the time of all ops). An op whose check fails is returned untimed and left out of the rounds.
// on_round(round, seconds of that round) is called after each round.
std::vector<Measurement> measure_interleaved(const std::vector<TimedOp*>& ops, const MeasurePolicy& policy,
                                             std::stop_token stop = {},
                                             const std::function<void(int round, double seconds)>& on_round = {});

// The median over rounds of samples[a][r] / samples[b][r]: a speed-up of b over a from paired samples, robust
// to a slow round that hit both. 0 when either has no samples.
double paired_median_ratio(const std::vector<double>& a, const std::vector<double>& b);

// Compare `out` with `ref` elementwise: |out - ref| <= atol + rtol·|ref|; NaN/Inf in out is a failure.
Check compare(const double* out, const double* ref, long long count, double atol, double rtol);
Check compare(const float* out, const double* ref, long long count, double atol, double rtol);

// A streaming kernel's output against what the host recomputes for every element: `want(i)` is element i's
// expected value, and the comparison is exact (a copy, or a triad done as one fused multiply-add on both sides).
// `what` names the kernel in the message ("triad"). Used by every GPU backend's copy/triad check.
Check check_stream_output(const float* got, std::size_t count, const std::function<float(std::size_t)>& want,
                          const std::string& what);

// Spot-check a row-major GEMM output C (m×n) against FP64 dot products of A (m×k) and B (k×n):
// every cell when m·n <= full_limit, otherwise `samples` cells chosen from a fixed seed, plus a NaN/Inf scan
// over all of C. A and B are given as the values the kernel actually saw (already rounded to its precision).
Check check_gemm(const float* A, const float* B, const float* C, long long m, long long n, long long k,
                 double atol, double rtol, long long full_limit = 1 << 16, long long samples = 4096);
Check check_gemm(const double* A, const double* B, const double* C, long long m, long long n, long long k,
                 double atol, double rtol, long long full_limit = 1 << 16, long long samples = 4096);

// Fill with uniform values in [-1, 1) from a fixed seed (never zeros, which run faster on some hardware).
void fill_random(float* p, std::size_t count, std::uint64_t seed);
void fill_random(double* p, std::size_t count, std::uint64_t seed);

// Provenance shared by every result: date, build type, host, compiler.
Provenance base_provenance();
std::string iso_date_now();  // "2026-12-01T07:40:00Z"
// "gpulab 0.1.0 (RelWithDebInfo build)": what --version prints and a recording stores as gpulab_version.
std::string version_string();

}  // namespace gpulab

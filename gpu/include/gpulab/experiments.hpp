#pragma once
// Experiments: plain functions Spec -> Result. They do not know which page or CLI asked.
#include "gpulab/backend.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/results.hpp"

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace gpulab {

struct RunContext {
  MeasurePolicy policy;
  std::stop_token stop;
  ProgressFn on_progress;                           // may be empty
  std::function<void(const Result&)> on_result;    // called as each result is ready; may be empty
  double progress_base = 0, progress_span = 1;     // where this run sits in a larger job (0..1)
  void report(double fraction_of_this_run, const std::string& message) const;
  bool cancelled() const { return stop.stop_requested(); }
};

// The policy for `backend`'s ops: on a GPU (the CUDA module, emulated or not, and a Vulkan GPU) the warm-up goes on
// by time, policy.device_warmup_s at least, so the clock has left idle before the first sample. The CPU and a
// CPU-type Vulkan device (lavapipe) have no GPU clock to ramp: their policy is the caller's.
MeasurePolicy policy_for(const MeasurePolicy& policy, const Backend& backend);

// Each returns a Result; a refused or failed run has `error` set instead of throwing (bad specs still throw
// std::invalid_argument so the CLI can exit non-zero).
Result run_gemm(Backend& backend, const GemmSpec& spec, const RunContext& ctx);
Result run_bandwidth(Backend& backend, const BandwidthSpec& spec, const RunContext& ctx);
Result run_transfer(Backend& backend, const TransferSpec& spec, const RunContext& ctx);

// ---- How long a CPU GEMM will take, before it runs ---------------------------------------------------------------
// The naive loop's rate depends on the size: in cache (60³) it can be ten times its rate at 2048³, where every term
// of a dot product misses the cache. So the estimate never reuses a rate from another size: it times a band of rows
// of the same product (same m·k·n, same kernel) — every row of C sweeps all of B, so a band meets the caches exactly
// as the whole product does — and counts every run the measurement will make: the check (one run plus the FP64
// reference), the warm-up runs and the timed samples the policy asks for.
struct RunEstimate {
  double gflops = 0;    // the rate the estimate rests on
  double run_s = 0;     // one run of the whole product
  double check_s = 0;   // the check: one run plus the FP64 reference on the checked cells
  double warmup_s = 0;  // policy.warmup_runs runs
  int samples = 0;      // timed samples the policy will take (at most; a tight spread can stop it sooner)
  double total_s = 0;   // check + warm-up + samples
  std::string basis;    // where the rate came from, in words ("timed just now: 8 of 2048 rows of this product")
};
// The run's length from a rate (no probe): the arithmetic of RunEstimate, for a rate measured elsewhere.
RunEstimate estimate_gemm_from_rate(const GemmSpec& spec, const MeasurePolicy& policy, double gflops,
                                    std::string basis);
// CPU naive and reordered loops: probes for about `probe_s` (twice: once to warm up) and returns the estimate;
// other variants get gflops = 0 and a basis saying why. Honours the current StopScope (throws Cancelled).
RunEstimate estimate_cpu_gemm(const GemmSpec& spec, const MeasurePolicy& policy, double probe_s = 0.05);

// ---- The CPU's peak ------------------------------------------------------------------------------------------------
struct CpuPeak {
  double gflops_fp32 = 0, gflops_fp64 = 0;      // the peak in use (what "% of peak" and the roofline divide by)
  int threads = 0;
  std::vector<double> bursts_fp32, bursts_fp64;  // every register-FMA burst, GFLOP/s, in the order taken
  int retakes = 0;                               // times more bursts were taken on a quiet machine
  double model_fp32 = 0, model_fp64 = 0;         // cores × clock × lanes × 2 × pipes
  std::string model_formula;
  std::string floor_source_fp32, floor_source_fp64;  // a measured rate that raised the peak, or ""
  std::string source_fp32, source_fp64;              // one line each, for labels
};
CpuPeak cpu_peak();
// More bursts when the machine is quiet (the runner calls this after each job); true when it took them.
bool retake_cpu_peak_if_quiet();
// A GEMM rate measured here above the peak becomes the peak (with `what` as its source).
void raise_cpu_peak_floor(double gflops, bool fp64, const std::string& what);

// A direct OpenBLAS sgemm timed with a bare steady clock and no harness — the control for the
// "harness adds nothing" bar. Returns the median seconds of `repeats` calls; 0 when OpenBLAS is absent.
double direct_blas_sgemm_median_s(long long n, int threads, int repeats);

}  // namespace gpulab

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

// Each returns a Result; a refused or failed run has `error` set instead of throwing (bad specs still throw
// std::invalid_argument so the CLI can exit non-zero).
Result run_gemm(Backend& backend, const GemmSpec& spec, const RunContext& ctx);
Result run_bandwidth(Backend& backend, const BandwidthSpec& spec, const RunContext& ctx);
Result run_transfer(Backend& backend, const TransferSpec& spec, const RunContext& ctx);

// A direct OpenBLAS sgemm timed with a bare steady clock and no harness — the control for the
// "harness adds nothing" bar. Returns the median seconds of `repeats` calls; 0 when OpenBLAS is absent.
double direct_blas_sgemm_median_s(long long n, int threads, int repeats);

}  // namespace gpulab

// How long a GEMM measurement will take, from a rate: every run the measurement makes is counted (see
// RunEstimate in experiments.hpp). The probe that supplies the rate for the CPU loops is in gpu/cpu/gemm_op.cpp.
#include "gpulab/experiments.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gpulab {

RunEstimate estimate_gemm_from_rate(const GemmSpec& spec, const MeasurePolicy& policy, double gflops,
                                    std::string basis) {
  RunEstimate e;
  e.gflops = gflops;
  e.basis = std::move(basis);
  if (!(gflops > 0)) return e;
  const double m = double(spec.m), n = double(spec.n), k = double(spec.k);
  e.run_s = 2.0 * m * n * k / (gflops * 1e9);
  // The check (harness check_gemm) runs the kernel once, then builds an FP64 reference: every cell for up to 2^16
  // cells (streamed, ~1 GFLOP/s), else ~4,100 sampled cells, each a k-term walk down a column of B — the naive
  // loop's own access pattern, so at its rate when that is what runs, and at a cache miss (~5 ns) a term otherwise.
  // A NaN scan of C follows (memory speed).
  const double cells = m * n;
  double reference_s;
  if (cells <= 65536) reference_s = 2.0 * cells * k / 1e9;
  else if (spec.variant == "naive") reference_s = 2.0 * 4100 * k / (gflops * 1e9);
  else reference_s = 4100 * k * (n >= 512 ? 5e-9 : 1e-9);
  e.check_s = e.run_s + reference_s + cells * 0.5e-9;
  e.warmup_s = std::max(0, policy.warmup_runs) * e.run_s;
  // measure(): at least min_samples, then until the budget is spent (or the spread is tight), at most max_samples.
  const int min_samples = std::max(1, policy.min_samples);
  const int max_samples = std::max(min_samples, policy.max_samples);
  const double by_budget = std::ceil(std::max(0.0, policy.time_budget_s) / e.run_s);
  e.samples = static_cast<int>(std::clamp(by_budget, double(min_samples), double(max_samples)));
  e.total_s = e.check_s + e.warmup_s + e.samples * e.run_s;
  return e;
}

}  // namespace gpulab

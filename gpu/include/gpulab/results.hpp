#pragma once
// What every experiment returns: timing statistics, the correctness check, and where the number came from.
#include "gpulab/precision.hpp"

#include <map>
#include <string>
#include <vector>

namespace gpulab {

struct Stats {
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  double mean_s = 0;
  double rel_spread = 0;  // (max - min) / median over the kept samples
  int n = 0;
};

struct Check {
  bool passed = false;
  double max_abs_err = 0;
  double max_rel_err = 0;        // |out - ref| / max(|ref|, tiny) at the worst element
  long long first_bad_index = -1;  // -1 when all elements pass
  long long checked = 0;           // how many elements were compared
  std::string message;             // human-readable summary, set on failure
};

using Params = std::map<std::string, double>;        // numeric parameters, e.g. m, n, k, threads, bytes
using Provenance = std::map<std::string, std::string>;  // device, driver, library versions, policies, date

// The experiment names the core writes, listed once: writers set them, typed views (result_views.hpp) read them.
namespace experiment_name {
inline constexpr const char* gemm = "gemm";
inline constexpr const char* bandwidth = "bandwidth";
inline constexpr const char* transfer = "transfer";
inline constexpr const char* layer_chain = "layer_chain";
inline constexpr const char* amdahl_scaling = "amdahl_scaling";
inline constexpr const char* launch_overhead = "launch_overhead";
inline constexpr const char* precision_error = "precision_error";
inline constexpr const char* underflow = "underflow";
inline constexpr const char* hold_memory = "hold_memory";
inline constexpr const char* peak = "peak";          // FMA chains in registers: the compute roof
inline constexpr const char* overhead = "overhead";  // one launch and wait (and an elementwise sweep): the floor
}  // namespace experiment_name

struct Result {
  std::string experiment;  // one of experiment_name: "gemm", "bandwidth", "transfer", ...
  // The plan that asked for this result ("precision", "matmul", … — a page's default plan and the bench suite of
  // the same name are one plan; "" when it ran outside any plan). Stamped by run_plan as the result is made, and
  // written to recordings, so a page draws only what its own plan measured.
  std::string plan;
  std::string backend;     // "cpu" | "cuda"
  std::string variant;     // "naive", "blas", "cublas", "triad", ...
  Precision precision = Precision::fp32;
  Params params;
  Check check;
  Stats stats;
  std::vector<double> samples_s;  // every timed sample, seconds
  double flops = 0;               // per run
  double bytes = 0;               // per run, the experiment's model of traffic
  double gflops = 0;              // flops / median / 1e9 (0 when not applicable)
  double gbps = 0;                // bytes / median / 1e9
  Provenance provenance;
  std::string error;  // non-empty: the run failed or was skipped, and why

  bool ok() const { return error.empty() && check.passed; }
  bool on_gpu() const { return backend != "cpu"; }
  // Raw look-up by key: for the writers and the typed views in result_views.hpp; pages read the typed views.
  double param(const std::string& key, double fallback = 0) const {
    auto it = params.find(key);
    return it == params.end() ? fallback : it->second;
  }
};

// Fill gflops/gbps from flops, bytes and the median.
void finalize_rates(Result& r);

}  // namespace gpulab

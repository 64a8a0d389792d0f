#pragma once
// How long the device check's bench steps will take on a catalogue card, before anything runs: the suites' own
// plans are built against a model of that card (its datasheet row, answering every question a plan asks the way
// the CUDA module or the Vulkan backend would), and each planned job is given a time from what its op does on the
// device and on the host (fills, checks, pinning, read-backs). `gpulab-bench plan --card NAME` prints it, and
// tests/gpu/device-check.sh --plan sets it against each step's cap, so a suite that outgrows its cap fails in CI,
// not in a lent GPU's 15 minutes. The host is the lent servers' (16 cores); every rate is a lead, written down
// with where it came from in plan_estimate.cpp.
#include "gpulab/backend.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/plan.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gpulab {

// The machine the device check runs on, as far as the host-side work of the ops goes. Rates per core unless said.
struct HostModel {
  int cores = 16;                      // the lent H100/H200 servers
  double fill_bytes_s_core = 1.0e9;    // a hash pattern written to host memory
  double check_elems_s_core = 2.5e8;   // a hash element recomputed and compared (a float or a byte word)
  double memcpy_bytes_s = 6e9;         // one thread's memcpy, memset or first touch of a fresh vector
  double pin_bytes_s = 4e9;            // page-locking host memory (cudaMallocHost / a host-visible allocation) and freeing it
  double pageable_link_gbs = 12;       // a copy from or to pageable memory, staged by the driver
  double blas_gflops_core = 60;        // OpenBLAS SGEMM on one core (AVX2/AVX-512 server core)
};

// The device the plans are built for: the card's CUDA module, or the same card through the Vulkan backend.
enum class ModelDevice { cuda, vulkan };

struct JobEstimate {
  std::string label;
  double seconds = 0;
  std::string basis;  // the terms that make it up, for --jobs
};

struct SuiteEstimate {
  std::string suite;
  double seconds = 0;          // the whole bench process: start, the jobs, the summary
  double fixed_s = 0;          // of which the process's own start and end (module load, library handles, CPU peak)
  std::vector<JobEstimate> jobs;
};

// Backends that answer plan-time questions for a catalogue card (and the device check's host): make_* refuse,
// since a model measures nothing. Exposed so tests can build the real plans against a card.
std::unique_ptr<Backend> make_model_gpu_backend(const models::GpuSpec& card, ModelDevice device);
std::unique_ptr<Backend> make_model_host_backend(const HostModel& host);

// The time of one planned job on the card (the job's backend is the model's).
JobEstimate estimate_job(const PlanJob& job, const models::GpuSpec& card, const MeasurePolicy& policy,
                         const HostModel& host);

// One bench process running `suite` on the card, as the device check runs it (`gpu_only` for the Vulkan steps).
// Throws std::invalid_argument for an unknown suite.
SuiteEstimate estimate_suite(const std::string& suite, const models::GpuSpec& card, ModelDevice device,
                             const MeasurePolicy& policy, bool gpu_only, const HostModel& host = {});

}  // namespace gpulab

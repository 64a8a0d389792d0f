#pragma once
// Named suites of experiments for `gpulab bench` / `gpulab-bench`. Both front ends call run_suite().
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/recording.hpp"

#include <string>
#include <vector>

namespace gpulab {

struct SuiteInfo {
  std::string name;
  std::string description;
};
const std::vector<SuiteInfo>& suites();
bool is_suite(const std::string& name);

struct Backends {
  Backend* cpu = nullptr;   // always present
  Backend* cuda = nullptr;  // null when no GPU; cuda_reason says why
  std::string cuda_reason;
};

// Runs the suite and returns a recording (context filled, results in run order). Throws
// std::invalid_argument for an unknown suite. Cancelled runs return what was measured so far.
Recording run_suite(const std::string& name, const Backends& backends, const RunContext& ctx);

}  // namespace gpulab

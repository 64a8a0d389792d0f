#pragma once
// Named suites of experiments for `gpulab bench` / `gpulab-bench`. Both front ends call run_suite(). A suite is the
// plan its page builds for the default controls (suite_registry.hpp: suite_plan).
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/suite_registry.hpp"
#include "gpulab/plan.hpp"
#include "gpulab/recording.hpp"

#include <functional>
#include <string>
#include <vector>

namespace gpulab {

struct SuiteInfo {
  std::string name;
  std::string description;
};
const std::vector<SuiteInfo>& suites();
bool is_suite(const std::string& name);

// Runs the suite and returns a recording (context filled, results in run order). Throws
// std::invalid_argument for an unknown suite. Cancelled runs return what was measured so far, marked incomplete.
// `on_update`, when given, sees the recording so far (complete = false) before the first job and after each job's
// results: the bench saves it every time, so a run that is killed still leaves a recording behind.
// `gpu_only`: only the jobs on the GPU slot's device run (none are left out without one); the device check's
// Vulkan parts use it, since the CUDA parts of the same run already measured the CPU.
Recording run_suite(const std::string& name, const Backends& backends, const RunContext& ctx,
                    const std::function<void(const Recording&)>& on_update = {}, bool gpu_only = false,
                    const SuiteOptions& options = {});

}  // namespace gpulab

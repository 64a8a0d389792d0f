#pragma once
// The many-GPUs page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in multigpu.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* multigpu = "multigpu";
}  // namespace plan_name

// ---- The many-GPUs page ----------------------------------------------------------------------------------------
struct MultiGpuControls {
  std::vector<std::size_t> bytes{64u << 20, 256u << 20, 1024u << 20};  // GPU-to-GPU copy sizes
};
// GPU-to-GPU copies when a second GPU is there; otherwise one note saying why.
Plan multigpu_plan(const Backends& backends, const MultiGpuControls& controls = {});

}  // namespace gpulab

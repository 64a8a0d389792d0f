#pragma once
// The PCIe page's plan (suite "transfer"): the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in pcie.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* transfer = "transfer";
}  // namespace plan_name

// ---- The PCIe page ---------------------------------------------------------------------------------------------
// The page's sweep: 64 KiB to 1 GiB in steps of four, so the curve shows latency at the small end and the link's
// (or the memory's) bandwidth at the large end.
std::vector<std::size_t> transfer_sweep_bytes();
struct TransferControls {
  std::vector<std::size_t> cpu_bytes = transfer_sweep_bytes();  // host memcpy sizes
  std::vector<std::size_t> gpu_bytes = transfer_sweep_bytes();
  bool pageable = true;  // also the pageable (not pinned) host↔device copies
  bool p2p = false;      // also the many-GPUs page's plan (its jobs keep the name "multigpu")
};
Plan transfer_plan(const Backends& backends, const TransferControls& controls = {});

}  // namespace gpulab

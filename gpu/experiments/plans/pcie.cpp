// The PCIe page's plan (suite "transfer") (see pcie.hpp).
#include "plans/pcie.hpp"
#include "plans/multigpu.hpp"

#include "gpulab/suite_registry.hpp"

namespace gpulab {
// ---- transfers (the PCIe page) ---------------------------------------------------------------------------------

std::vector<std::size_t> transfer_sweep_bytes() {
  std::vector<std::size_t> sizes;
  for (std::size_t b = 64 * 1024; b <= 1024 * kMiB; b *= 4) sizes.push_back(b);
  return sizes;
}

Plan transfer_plan(const Backends& backends, const TransferControls& c) {
  PlanBuilder plan(plan_name::transfer);
  for (std::size_t bytes : c.cpu_bytes) plan.transfer(*backends.cpu, "h2h", false, bytes);
  if (backends.gpu) {
    Backend& gpu = *backends.gpu;
    for (std::size_t bytes : c.gpu_bytes) {
      for (bool pinned : {true, false}) {
        if (!pinned && !c.pageable) continue;
        plan.transfer(gpu, "h2d", pinned, bytes);
        plan.transfer(gpu, "d2h", pinned, bytes);
      }
      plan.transfer(gpu, "d2d", true, bytes);
    }
  }
  Plan out = plan.take();
  if (c.p2p) out.append(multigpu_plan(backends));
  return out;
}

GPULAB_PLAN_FILE(pcie) {
  registry.add({30, "transfer",
                "the PCIe page's sweep, 64 KiB to 1 GiB: host memcpy; on a GPU host→device, device→host (pinned and pageable), device→device",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return transfer_plan(b); }});
}

}  // namespace gpulab

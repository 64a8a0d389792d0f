// The many-GPUs page's plan (see multigpu.hpp).
#include "plans/multigpu.hpp"

#include "gpulab/suite_registry.hpp"

namespace gpulab {
// ---- GPU to GPU (the many-GPUs page) ---------------------------------------------------------------------------

Plan multigpu_plan(const Backends& backends, const MultiGpuControls& c) {
  PlanBuilder plan(plan_name::multigpu);
  const std::size_t first = c.bytes.empty() ? 64 * kMiB : c.bytes.front();
  if (!backends.gpu) {
    plan.note(*backends.cpu, "transfer", "p2p", Precision::fp32, {{"bytes", double(first)}},
              "GPU-to-GPU copies need two GPUs in one machine, and this one has none" +
                  (backends.gpu_reason.empty() ? std::string() : " (" + backends.gpu_reason + ")"));
    return plan.take();
  }
  Backend& gpu = *backends.gpu;
  const Support p2p = gpu.supports(TransferSpec{"p2p", true, first});
  if (!p2p.ok) plan.note(gpu, "transfer", "p2p", Precision::fp32, {{"bytes", double(first)}}, p2p.reason);
  else
    for (std::size_t bytes : c.bytes) plan.transfer(gpu, "p2p", true, bytes);
  return plan.take();
}

GPULAB_PLAN_FILE(multigpu) {
  registry.add({100, "multigpu",
                "GPU→GPU copies at 64 MiB to 1 GiB when a second GPU is there (else a note saying why)",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return multigpu_plan(b); }});
}

}  // namespace gpulab

// Not a page's: memory bandwidth from cache to DRAM (see bandwidth.hpp).
#include "plans/bandwidth.hpp"

#include "gpulab/suite_registry.hpp"

namespace gpulab {
Plan bandwidth_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::bandwidth);
  Backend& cpu = *backends.cpu;
  // Small arrays live in cache: the curve shows the cliff down to DRAM bandwidth.
  for (std::size_t bytes : {1 * kMiB, 4 * kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB})
    for (const char* kind : {"copy", "triad"}) {
      plan.bandwidth(cpu, kind, bytes, 1);
      plan.bandwidth(cpu, kind, bytes, 0);
    }
  if (backends.gpu)
    for (std::size_t bytes : {4 * kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB, 1024 * kMiB})
      for (const char* kind : {"copy", "triad"}) plan.bandwidth(*backends.gpu, kind, bytes);
  return plan.take();
}

GPULAB_PLAN_FILE(bandwidth) {
  registry.add({20, "bandwidth",
                "copy and triad from cache-sized to DRAM-sized arrays (CPU, and GPU when present)",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return bandwidth_plan(b); }});
}

}  // namespace gpulab

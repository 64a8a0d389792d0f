// The roofline page's plans: its "Measure ceilings" (suite "roofline") and every device's three regimes (suite "roofs") (see roofline.hpp).
#include "plans/roofline.hpp"

#include "gpulab/suite_registry.hpp"

namespace gpulab {

// The GPU's roofs come from its vendor library (cuBLASLt, else cuBLAS) at the GPU's sizes; a device without one (a
// Vulkan device, perhaps lavapipe on the CPU) gets the CPU's sizes and the CPU's library, which it does not run, so
// only its triad is measured, as the page did before it had a plan. A precision the device lacks is left out.
Plan roofline_plan(const Backends& backends, const RooflineControls& c) {
  PlanBuilder plan(plan_name::roofline);
  std::vector<Backend*> devices{backends.cpu};
  if (backends.gpu) devices.push_back(backends.gpu);
  for (Backend* be : devices) {
    std::vector<std::string> libraries;
    for (const char* lib : {"cublaslt", "cublas"})
      if (be != backends.cpu && offers_variant(*be, lib)) libraries.push_back(lib);
    const bool gpu_sizes = !libraries.empty();
    if (!gpu_sizes) libraries = {"blas"};
    plan.bandwidth(*be, "triad", gpu_sizes ? c.gpu_triad_bytes : c.cpu_triad_bytes);
    const long long n = gpu_sizes ? c.gpu_n : c.cpu_n;
    for (Precision p : all_precisions)
      for (const std::string& v : libraries)
        if (be->supports(GemmSpec{n, n, n, p, v, 0, 42}).ok) {
          plan.gemm(*be, n, n, n, v, p);
          break;
        }
  }
  // Each device's own compute roof (FMA chains) and overhead floor (one empty launch), as the roofs suite
  // measures them, without its sweep: the page draws all three regimes (roofs.hpp).
  Plan roofs = roofs_plan(backends, RoofsControls{false, false});
  for (PlanJob& j : roofs.jobs) j.plan = plan_name::roofline;
  Plan out = plan.take();
  out.append(std::move(roofs));
  return out;
}

GPULAB_PLAN_FILE(roofline) {
  registry.add({110, "roofs",
                "every device's three regimes: its FMA peak (FP32, FP64 and FP16 where it runs them), the overhead floor (an empty launch + wait; a CUDA graph's), an elementwise op from 1 element to 16 Mi, and the triad past the caches (under 30 s)",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return roofs_plan(b); }});
  registry.add({120, "roofline",
                "the roofline page's Measure ceilings: a triad past the caches and one large library GEMM in every precision, on the CPU and the GPU (not in all: bandwidth and precision record the same)",
                false, [](const Backends& b, const SuiteOptions& o) { (void)o; return roofline_plan(b); }});
}

}  // namespace gpulab

// Not a page's: the naive loop's predicted time beside the real one (see estimate.hpp).
#include "plans/estimate.hpp"

#include "gpulab/suite_registry.hpp"

namespace gpulab {

// The naive loop where its length matters (issue 13): each run announces its predicted time, from a probe of the
// same product, and the recording keeps it beside the real one, so `bench` shows how far off it was.
Plan estimate_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::estimate);
  for (long long n : {1024LL, 2048LL}) plan.gemm(*backends.cpu, n, n, n, "naive", Precision::fp32);
  return plan.take();
}

GPULAB_PLAN_FILE(estimate) {
  registry.add({200, "estimate",
                "the naive loop at 1024³ and 2048³, its predicted time beside the real one (minutes; not in all)",
                false, [](const Backends& b, const SuiteOptions& o) { (void)o; return estimate_plan(b); }});
}

}  // namespace gpulab

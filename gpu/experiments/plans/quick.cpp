// Not a page's: the quick look (see quick.hpp).
#include "plans/quick.hpp"

#include "gpulab/suite_registry.hpp"

namespace gpulab {
// ---- the suites of the pages converted in round two ------------------------------------------------------------

namespace {
// The largest n = n_max, n_max/2, … ≥ n_min at which `variant` runs an n³ GEMM on `b` (0: none; *why: the
// reason n_max was refused, empty when it was not).
long long largest_square_gemm(Backend& b, const std::string& variant, long long n_max, long long n_min,
                              std::string* why) {
  for (long long n = n_max; n >= n_min; n /= 2) {
    GemmSpec s;
    s.m = s.n = s.k = n;
    s.variant = variant;
    const Support ok = b.supports(s);
    if (ok.ok) return n;
    if (why && n == n_max) *why = ok.reason;
  }
  return 0;
}
}  // namespace

Plan quick_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::quick);
  Backend& cpu = *backends.cpu;
  plan.gemm(cpu, 256, 256, 256, "naive", Precision::fp32);
  plan.gemm(cpu, 512, 512, 512, "naive", Precision::fp32);
  plan.gemm(cpu, 512, 512, 512, "reordered", Precision::fp32);
  plan.gemm(cpu, 512, 512, 512, "blas", Precision::fp32, 1);
  plan.direct_blas(cpu, 512, 1);
  plan.gemm(cpu, 512, 512, 512, "blas", Precision::fp32, 0);
  plan.direct_blas(cpu, 512, 0);
  for (std::size_t bytes : {64 * kMiB, 256 * kMiB})
    for (const char* kind : {"copy", "triad"}) plan.bandwidth(cpu, kind, bytes);
  if (backends.gpu) {
    Backend& gpu = *backends.gpu;
    // Each GEMM step at 2048³, or at the largest size below it the device accepts (a CPU-type Vulkan device caps
    // the work per run at 512³): one note says why 2048³ was refused, and the CPU's BLAS runs at that size too,
    // so "GPU GEMM / CPU BLAS" divides like for like from this one run.
    long long top_n = 0;  // the size the ladder's top step ran at
    for (const auto& v : gpu.gemm_variants()) {
      std::string why;
      const long long n = largest_square_gemm(gpu, v, 2048, 256, &why);
      if (n < 2048)
        plan.note(gpu, "gemm", v, Precision::fp32, {{"m", 2048.0}, {"n", 2048.0}, {"k", 2048.0}},
                  why + (n > 0 ? "; run at " + std::to_string(n) + "³ instead, the largest size it accepts" : ""));
      if (n > 0) plan.gemm(gpu, n, n, n, v, Precision::fp32);
      top_n = n;
    }
    if (top_n > 0 && top_n != 512) plan.gemm(cpu, top_n, top_n, top_n, "blas", Precision::fp32, 0);
    // Copy beside triad: the device's copy is what the bench divides by the CPU's triad (both read + written).
    plan.bandwidth(gpu, "copy", 256 * kMiB);
    plan.bandwidth(gpu, "triad", 256 * kMiB);
    plan.transfer(gpu, "h2d", true, 256 * kMiB);
    plan.transfer(gpu, "d2h", true, 256 * kMiB);
  }
  return plan.take();
}

GPULAB_PLAN_FILE(quick) {
  registry.add({5, "quick",
                "CPU GEMM naive/reordered/BLAS at 512³ with a direct-BLAS control, and memory bandwidth (about a minute)",
                false, [](const Backends& b, const SuiteOptions& o) { (void)o; return quick_plan(b); }});
}

}  // namespace gpulab

// The stadium page's plan (see stadium.hpp).
#include "plans/stadium.hpp"

#include "gpulab/gemm_ladder.hpp"
#include "gpulab/suite_registry.hpp"

#include <algorithm>

namespace gpulab {

// ---- the stadium's pace ----------------------------------------------------------------------------------------

std::string stadium_gpu_variant(Backend& gpu, long long gpu_n, long long* n, std::string* why) {
  std::vector<std::string> order;
  const std::string cublas{ladder_variant(LadderStep::cublas)};
  if (offers_variant(gpu, cublas)) order.push_back(cublas);
  const auto ladder = gpu.gemm_variants();
  for (auto it = ladder.rbegin(); it != ladder.rend(); ++it)
    if (std::find(order.begin(), order.end(), *it) == order.end()) order.push_back(*it);
  std::string first_reason;
  // A slow device (a CPU-type Vulkan one) caps the work per run: halve the size until the best step fits.
  for (long long size = gpu_n; size >= 256; size /= 2)
    for (const auto& v : order) {
      GemmSpec s;
      s.m = s.n = s.k = size;
      s.variant = v;
      const Support ok = gpu.supports(s);
      if (ok.ok) {
        if (n) *n = size;
        return v;
      }
      if (first_reason.empty()) first_reason = ok.reason;
    }
  if (why) *why = first_reason.empty() ? "no GEMM on " + gpu.kind() : first_reason;
  return {};
}

// The professor (one core, the naive loop) against the stadium (BLAS on every core, and the chosen GPU's best GEMM):
// quick timings that set the race's pace.
Plan stadium_plan(const Backends& backends, const StadiumControls& c) {
  PlanBuilder plan(plan_name::stadium);
  Backend& cpu = *backends.cpu;
  // 512³: big enough that the loop strides through memory as the lesson's long dot products do.
  plan.gemm(cpu, c.cpu_n, c.cpu_n, c.cpu_n, "naive", Precision::fp32);
  plan.gemm(cpu, c.cpu_n, c.cpu_n, c.cpu_n, "blas", Precision::fp32, 0);
  if (c.use_gpu && backends.gpu) {
    long long n = c.gpu_n;
    std::string why;
    const std::string v = stadium_gpu_variant(*backends.gpu, c.gpu_n, &n, &why);
    if (v.empty())
      plan.note(*backends.gpu, "gemm", "best", Precision::fp32,
                {{"m", double(c.gpu_n)}, {"n", double(c.gpu_n)}, {"k", double(c.gpu_n)}}, why);
    else
      plan.gemm(*backends.gpu, n, n, n, v, Precision::fp32);
  }
  return plan.take();
}

GPULAB_PLAN_FILE(stadium) {
  registry.add({90, "stadium",
                "the stadium's pace: the naive loop and BLAS on all cores at 512³, and the GPU's best GEMM (cuBLAS, or the top Vulkan shader)",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return stadium_plan(b); }});
}

}  // namespace gpulab

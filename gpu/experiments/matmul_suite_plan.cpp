// `gpulab bench --suite matmul` on a GPU: the page's 60³ default measures launch overhead, not a GPU (a 60³ product
// is 432 kFLOP, microseconds of work behind a launch that costs as much), so a recording made on a borrowed GPU
// also needs the ladder and cuBLAS at real sizes. The CPU path keeps exactly the page's plan.
#include "gpulab/matmul_suite.hpp"

namespace gpulab {
namespace {

// A Vulkan device of CPU type (lavapipe) sits in the GPU slot when allowed; it is not a GPU and caps its own sizes.
bool is_cpu_type(const Backend& b) {
  const Provenance p = b.provenance();
  const auto it = p.find("device_type");
  return b.kind() == "cpu" || (it != p.end() && it->second.rfind("CPU", 0) == 0);
}

double run_seconds(long long n, double gflops) { return 2.0 * double(n) * double(n) * double(n) / (gflops * 1e9); }

}  // namespace

std::vector<MatmulGpuJob> matmul_gpu_suite_jobs(const Backends& backends) {
  std::vector<MatmulGpuJob> jobs;
  if (!backends.gpu || is_cpu_type(*backends.gpu)) return jobs;
  Backend& gpu = *backends.gpu;
  for (const MatmulWay& w : matmul_ways(backends)) {
    if (w.backend == "cpu") continue;
    const double gflops = matmul_guess_gflops(w, 0);
    long long n = kMatmulGpuN;
    while (n > kMatmulGpuMinN && run_seconds(n, gflops) > kMatmulGpuMaxRunS) n /= 2;
    // The largest size at or below that one the device accepts (memory, a Vulkan device's limits).
    for (; n >= kMatmulGpuMinN; n /= 2) {
      GemmSpec s;
      s.m = s.n = s.k = n;
      s.variant = w.variant;
      if (gpu.supports(s).ok) break;
    }
    if (n < kMatmulGpuMinN) continue;
    jobs.push_back({w, n, run_seconds(n, gflops)});
    if (w.kind == MatmulWayKind::gpu_library) {
      GemmSpec big;
      big.m = big.n = big.k = kMatmulGpuLibraryN;
      big.variant = w.variant;
      if (gpu.supports(big).ok) jobs.push_back({w, kMatmulGpuLibraryN, run_seconds(kMatmulGpuLibraryN, gflops)});
    }
  }
  return jobs;
}

Plan matmul_suite_plan(const Backends& backends) {
  Plan plan = matmul_plan(backends);  // the page's default, 60³, every way
  const std::vector<MatmulGpuJob> jobs = matmul_gpu_suite_jobs(backends);
  if (jobs.empty()) return plan;
  PlanBuilder gpu_part(plan.name);
  for (const MatmulGpuJob& j : jobs) gpu_part.gemm(*backends.gpu, j.n, j.n, j.n, j.way.variant, Precision::fp32);
  plan.append(gpu_part.take());
  return plan;
}

}  // namespace gpulab

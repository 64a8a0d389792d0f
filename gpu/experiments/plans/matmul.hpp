#pragma once
// The matrix-multiply page's plans: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in matmul.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* matmul = "matmul";
inline constexpr const char* matmul_sizes = "matmul-sizes";
}  // namespace plan_name

// One way of computing C = A·B, a row of the page's chart: the CPU's four, then the GPU slot's ladder in its order.
enum class MatmulWayKind { cpu_naive, cpu_reordered, cpu_blas_one, cpu_blas_all, gpu_step, gpu_library };
struct MatmulWay {
  MatmulWayKind kind = MatmulWayKind::cpu_naive;
  std::string backend;  // Backend::kind(): "cpu", "cuda", "vulkan"
  std::string variant;  // the GEMM variant it runs
  int threads = -1;     // CPU BLAS: 1 or 0 (all threads); -1 where threads are not a choice
  int step = 0;         // gpu_step: its place on the backend's ladder, from 1
};
// "cpu/naive/-1", "cpu/blas/1", "cpu/blas/0", "cuda/cublas/-1", "vulkan/smem/-1": what the page's tick boxes name.
std::string matmul_way_key(const MatmulWay& way);
MatmulWay matmul_way_of(const std::string& backend, const std::string& variant, int threads, bool library);
// The CPU's four ways, then (when there is one) every GEMM of the GPU slot's device in its ladder's order.
std::vector<MatmulWay> matmul_ways(const Backends& backends);
// What the page assumes for the naive loop before it has measured one (the reference 2-vCPU machines' ijk loop
// at n = 512), in GFLOP/s.
inline constexpr double matmul_assumed_naive_gflops = 0.65;
struct MatmulControls {
  long long m = 60, k = 60, n = 60;   // A is m×k, B is k×n: by default the lesson's n = 60 practice
  std::vector<std::string> left_out;  // ways not ticked (matmul_way_key)
  // The naive loop's expected rate (0: assumed): a job whose one run should take over single_run_s is checked
  // once and timed once (a second sample would double minutes of waiting for little).
  double naive_gflops = 0;
  double single_run_s = 0.5;
};
// Every ticked way at m×k×n, each checked against the reference before it is timed.
Plan matmul_plan(const Backends& backends, const MatmulControls& controls = {});
// The lesson's exercise (BLAS on all cores against the naive loop at n = 60): those two ways at 60³, in the
// matmul plan's name, so their bars show on the page too. Run with many samples: the minimum is the ratio's basis.
Plan matmul_practice_plan(const Backends& backends);
// `gpulab bench --suite matmul-sizes`: the page's ways from 64³ to 4096³ (the naive loop to 1024³, the reordered
// one to 2048³) and at the lesson's shapes (60³, 32×4096·4096), so a recording has bars at the sizes a class
// visits. In "all" it stands for the matmul suite, whose 60³ it includes.
Plan matmul_sizes_plan(const Backends& backends);
// A result of one of the matmul page's plans ("" too: a recording from before plans).
bool is_matmul_page_plan(const std::string& plan);

}  // namespace gpulab

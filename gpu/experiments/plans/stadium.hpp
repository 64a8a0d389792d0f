#pragma once
// The stadium page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in stadium.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* stadium = "stadium";
}  // namespace plan_name

// ---- The stadium page ------------------------------------------------------------------------------------------
struct StadiumControls {
  long long cpu_n = 512;   // the professor (the naive loop) and the CPU's stadium (BLAS, all cores)
  long long gpu_n = 2048;  // the chosen GPU's stadium: the largest size up to this that its best GEMM runs
  bool use_gpu = true;
};
// The GPU GEMM the stadium races with: the vendor library where there is one (cuBLAS), else the top step of the
// backend's own ladder; empty when none runs at any size. *n gets the size it runs at (gpu_n, or halved until the
// device accepts it), *why the reason when none does.
std::string stadium_gpu_variant(Backend& gpu, long long gpu_n, long long* n, std::string* why);
Plan stadium_plan(const Backends& backends, const StadiumControls& controls = {});

}  // namespace gpulab

#pragma once
// The roofline page's plans: its "Measure ceilings" (suite "roofline") and every device's three regimes (suite "roofs"): the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in roofline.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>
#include "gpulab/roofs.hpp"

namespace gpulab {

namespace plan_name {
inline constexpr const char* roofline = "roofline";
}  // namespace plan_name

// Its "Measure ceilings": on the CPU and (when there is one) the GPU slot's device, a streaming triad beyond every
// cache (the memory roof), then one large library GEMM in every precision the device runs (the compute roofs).
struct RooflineControls {
  long long cpu_n = 2048;                     // compute-bound (intensity n/6 in FP32), seconds on a 2-core laptop
  long long gpu_n = 8192;                     // a GPU's library GEMM
  std::size_t cpu_triad_bytes = 64u << 20;    // per array: past a CPU's caches
  std::size_t gpu_triad_bytes = std::size_t(1) << 30;  // per array: past an H200's 50 MB L2 many times over
};
Plan roofline_plan(const Backends& backends, const RooflineControls& controls = {});

}  // namespace gpulab

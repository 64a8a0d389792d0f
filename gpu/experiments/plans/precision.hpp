#pragma once
// The precision page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in precision.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* precision = "precision";
}  // namespace plan_name

// ---- The precision page ----------------------------------------------------------------------------------------
struct PrecisionControls {
  bool use_gpu = true;  // time the formats on the GPU when there is one, else on the CPU
  long long n = 0;      // the GEMM is n × n × n; 0: the device's default (precision_default_n)
  bool underflow = true;  // record the FP16 underflow demo's result too (the page also computes it live)
};
long long precision_default_n(const Backend& b);
// The size a GPU times format `p` at by default: precision_default_n, halved (not below the matmul suite's
// kMatmulGpuMinN) while one run is estimated over kMatmulGpuMaxRunS at precision_assumed_gflops.
long long precision_gpu_n(const Backend& b, Precision p);
// Half the dense peak for `p`: the catalogue's row for the device's name, else the backend's FP32/FP64 peak model.
double precision_assumed_gflops(const Backend& b, Precision p);
// The GEMM variant that times format `p` on `b`: a library first (cuBLAS, cuBLASLt, OpenBLAS), then any other
// variant that runs it. Empty with *why set when none does.
std::string precision_gemm_variant(Backend& b, Precision p, Support* why);
// Every format on the chosen device (the ones it lacks recorded with the reason), the emulated error of every
// format against FP64, and the underflow demo.
Plan precision_plan(const Backends& backends, const PrecisionControls& controls = {});

}  // namespace gpulab

#pragma once
// The labelled peak model of an NVIDIA GPU (SMs × lanes × 2 FLOP per FMA × clock) and the time estimate that caps
// the slow ladder kernels. Plain C++ (no CUDA headers) so tests/unit checks the mapping without a GPU.
#include "gpulab/gemm_ladder.hpp"

#include <string>

namespace gpulab::cuda {

// FP32 FMA lanes per SM by compute capability, from NVIDIA's architecture whitepapers; 0 = unknown.
inline int fp32_lanes_per_sm(int major, int minor) {
  if (major == 7) return 64;                // Volta, Turing
  if (major == 8 && minor == 0) return 64;  // A100: 64 FP32 lanes per SM (19.5 TFLOP/s)
  if (major >= 8) return 128;               // GA10x, Ada, Hopper, Blackwell: 128
  return 0;
}

// FP64 FMA lanes per SM (the CUDA cores' DFMA units, without tensor cores); 0 = unknown.
inline int fp64_lanes_per_sm(int major, int minor) {
  if (major == 7 && minor == 0) return 32;   // V100
  if (major == 8 && minor == 0) return 32;   // A100
  if (major == 9 && minor == 0) return 64;   // H100 / H200
  if (major == 10 && minor == 0) return 64;  // B200
  if (major >= 7) return 2;                  // consumer parts: 1/64 of FP32
  return 0;
}

// How much faster the FP64 tensor cores (DMMA) are than the FP64 lanes, per NVIDIA's datasheets; 1 = none.
// cuBLAS runs DGEMM on them where they exist, so DGEMM must be judged against this peak, not the FMA one.
//   A100 (8.0):        FP64 9.7, FP64 Tensor Core 19.5 TFLOP/s  -> 2
//   H100 SXM (9.0):    FP64 34,  FP64 Tensor Core 67 TFLOP/s    -> 2   (H200: the same compute as H100 SXM)
//   H100 PCIe (9.0):   FP64 26,  FP64 Tensor Core 51 TFLOP/s    -> 2
//   B200 (10.0):       FP64 and FP64 Tensor Core both 40 TFLOP/s -> 1
//   consumer parts (7.5, 8.6, 8.9, 12.x) and V100 (7.0): no FP64 tensor cores -> 1
inline int fp64_tensor_core_factor(int major, int minor) {
  if ((major == 8 && minor == 0) || (major == 9 && minor == 0)) return 2;
  return 1;
}

struct Fp64Peak {
  double gflops = 0;       // the peak DGEMM is judged against
  double fma_gflops = 0;   // the FP64 lanes alone
  int lanes = 0;           // FP64 lanes per SM
  int tensor_factor = 1;   // 2 where FP64 tensor cores double it
  std::string source;      // for the provenance and the device panel
};

inline Fp64Peak fp64_peak(int major, int minor, int sms, double clock_mhz) {
  Fp64Peak p;
  p.lanes = fp64_lanes_per_sm(major, minor);
  p.tensor_factor = fp64_tensor_core_factor(major, minor);
  p.fma_gflops = p.lanes * 2.0 * sms * clock_mhz / 1000.0;
  p.gflops = p.fma_gflops * p.tensor_factor;
  const std::string lanes_text =
      "model: " + std::to_string(sms) + " SMs × " + std::to_string(p.lanes) + " FP64 lanes × 2 FLOP (FMA) × clock";
  if (p.tensor_factor > 1)
    p.source = lanes_text + " × " + std::to_string(p.tensor_factor) +
               " for the FP64 tensor cores (DMMA), which cuBLAS DGEMM uses (NVIDIA datasheets: A100 19.5 vs 9.7, "
               "H100/H200 SXM 67 vs 34 TFLOP/s)";
  else
    p.source = lanes_text + " (no FP64 tensor cores faster than the FP64 lanes on compute capability " +
               std::to_string(major) + "." + std::to_string(minor) + ")";
  return p;
}

// Share of the FP32 peak the slow ladder steps reach, for the time cap below (siboehm's SGEMM_CUDA measurements on
// an A6000: naive 309, coalesced 1,987, shared-memory tiles 2,980 GFLOP/s of a ~38.7 TFLOP/s FP32 peak). Steps not
// listed are fast enough that any size the backend accepts finishes in well under a second: 0.
inline double ladder_peak_share(const std::string& variant) {
  const std::optional<LadderStep> step = ladder_step_of(variant);
  if (step == LadderStep::naive) return 0.008;
  if (step == LadderStep::coalesced) return 0.05;
  if (step == LadderStep::smem) return 0.075;
  return 0;
}

// One run of a GEMM must end within the runner's cancel window, so Cancel stays responsive (DESIGN.md).
constexpr double kMaxLadderRunSeconds = 0.5;

// Estimated seconds of one run of a ladder step, or 0 when the step is not capped or the peak is unknown.
inline double ladder_seconds_estimate(const std::string& variant, double flops, double fp32_peak_gflops) {
  const double share = ladder_peak_share(variant);
  if (share <= 0 || fp32_peak_gflops <= 0) return 0;
  return flops / (share * fp32_peak_gflops * 1e9);
}

}  // namespace gpulab::cuda

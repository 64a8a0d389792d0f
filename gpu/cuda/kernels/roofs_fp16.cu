// The FP16 compute roof on the SMs (cuda/roofs_ops.cpp checks and times it, issue 27): roofs.cu's FMA chains with
// half2 registers, so one __hfma2 is two FMAs (the packed form peak tools time; a scalar half FMA would run at
// the FP32 rate on most GPUs). A file of its own because the CPU emulator compiles roofs.cu and has half as a
// storage type only: this file is never compiled for it, and the emulated module refuses FP16 peaks instead.
#include "../cuda_check.hpp"
#include "kernels.hpp"

#include <cuda_fp16.h>

namespace gpulab::cuda::kernels {
namespace {

// The same launch settings and chain count as roofs.cu (the host's closed form assumes them).
constexpr int kPeakThreads = 256;
constexpr int kChains = 8;

__global__ void __launch_bounds__(kPeakThreads) fma_chains_half2_kernel(float* __restrict__ sums, unsigned iterations,
                                                                       float m, float a) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const float seed = static_cast<float>(id & 7u) * 0.25f;  // eight seeds, recomputed by the host
  const __half2 m2 = __float2half2_rn(m), a2 = __float2half2_rn(a);
  __half2 c[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) c[k] = __float2half2_rn(seed + static_cast<float>(k));  // both lanes alike
  for (unsigned i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) c[k] = __hfma2(c[k], m2, a2);
  }
  // Summed in FP32: the check judges the chains, not a half-precision sum of them.
  float s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += __low2float(c[k]) + __high2float(c[k]);
  sums[id] = s;
}

}  // namespace

void fma_chains_fp16x2(float* sums, unsigned blocks, unsigned iterations, float m, float a, cudaStream_t stream) {
  GPULAB_LAUNCH(fma_chains_half2_kernel, blocks, kPeakThreads, 0, stream)(sums, iterations, m, a);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

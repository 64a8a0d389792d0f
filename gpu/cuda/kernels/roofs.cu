// The compute roof and the overhead floor on the SMs (cuda/roofs_ops.cpp checks and times them, issue 27).
// fma_chains: eight independent FMA chains per thread held in registers, as peak tools build them (a warp's 32
// lanes are the vector, so each chain is scalar per thread); no memory traffic but one float written per thread
// at the end, which the host compares with the closed form of the chains' recurrence x -> m·x + a.
// empty_kernel: nothing at all, so a launch + synchronise measures only the launch path.
#include "../cuda_check.hpp"
#include "kernels.hpp"

namespace gpulab::cuda::kernels {
namespace {

// Launch settings: 256 threads a block; the grid is the caller's (enough blocks for every SM, several deep).
constexpr int kPeakThreads = 256;
constexpr int kChains = 8;

template <typename T>
__device__ __forceinline__ T fused(T x, T m, T a);
template <>
__device__ __forceinline__ float fused<float>(float x, float m, float a) { return __fmaf_rn(x, m, a); }
template <>
__device__ __forceinline__ double fused<double>(double x, double m, double a) { return fma(x, m, a); }  // round-to-nearest, as __fma_rn

template <typename T>
__global__ void __launch_bounds__(kPeakThreads) fma_chains_kernel(float* __restrict__ sums, unsigned iterations, T m,
                                                                  T a) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const T seed = static_cast<T>(id & 7u) * static_cast<T>(0.25);  // eight seeds, recomputed by the host
  T c[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) c[k] = seed + static_cast<T>(k);
  for (unsigned i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) c[k] = fused(c[k], m, a);
  }
  T s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += c[k];
  sums[id] = static_cast<float>(s);
}

__global__ void empty_kernel() {}

}  // namespace

int fma_chains_per_thread() { return kChains; }
int fma_threads_per_block() { return kPeakThreads; }

void fma_chains_fp32(float* sums, unsigned blocks, unsigned iterations, float m, float a, cudaStream_t stream) {
  GPULAB_LAUNCH(fma_chains_kernel<float>, blocks, kPeakThreads, 0, stream)(sums, iterations, m, a);
  GPULAB_CUDA_CHECK_LAUNCH();
}

void fma_chains_fp64(float* sums, unsigned blocks, unsigned iterations, double m, double a, cudaStream_t stream) {
  GPULAB_LAUNCH(fma_chains_kernel<double>, blocks, kPeakThreads, 0, stream)(sums, iterations, m, a);
  GPULAB_CUDA_CHECK_LAUNCH();
}

void empty_launch(cudaStream_t stream) {
  GPULAB_LAUNCH(empty_kernel, 1, 1, 0, stream)();
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

// SGEMM ladder, step 1 — naive.
// What: one thread per cell of C; each thread walks its row of A and its column of B straight from global memory.
// Why it is slow: threads are numbered so that neighbours in a warp (threadIdx.x) take neighbouring *rows* of C.
// Their loads of A are k floats apart and their stores to C n floats apart, so no access coalesces: every warp load
// becomes 32 separate memory transactions, and every A element is re-read from memory (or L2) by n threads.
// This is the baseline the rest of the ladder improves on, one idea per step.
#include "../cuda_check.hpp"
#include "kernels.hpp"

namespace gpulab::cuda::kernels {
namespace {

__global__ void naive_kernel(int m, int n, int k, const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;  // x → rows: the uncoalesced choice this step shows
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  const float* a = A + static_cast<std::size_t>(row) * k;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc += a[i] * B[static_cast<std::size_t>(i) * n + col];
  C[static_cast<std::size_t>(row) * n + col] = acc;
}

// Launch settings: 32×32 threads per block, one thread per output.
constexpr int kBlock = 32;

}  // namespace

void sgemm_naive(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  const dim3 block(kBlock, kBlock);
  const dim3 grid((m + kBlock - 1) / kBlock, (n + kBlock - 1) / kBlock);
  GPULAB_LAUNCH(naive_kernel, grid, block, 0, stream)(m, n, k, A, B, C);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

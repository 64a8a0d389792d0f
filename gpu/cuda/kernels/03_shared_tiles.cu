// SGEMM ladder, step 3 — shared-memory tiles.
// What changed: a block of 32×32 threads first copies a 32×32 tile of A and one of B into shared memory (each
// thread loads one element of each, coalesced), synchronises, and then every thread reads its 32 products out of
// shared memory. Why: each element fetched from global memory is now reused by 32 threads of the block, so global
// traffic falls by 32× against step 2. The limit now is shared-memory bandwidth: every FMA still needs two shared
// loads (one broadcast from As, one from Bs), so the arithmetic units wait on the load pipe.
#include "../cuda_check.hpp"
#include "kernels.hpp"

namespace gpulab::cuda::kernels {
namespace {

constexpr int kTile = 32;

__global__ void __launch_bounds__(kTile * kTile) smem_kernel(int m, int n, int k, const float* __restrict__ A,
                                                             const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    // Zero-fill outside the matrix so the inner loop needs no edge checks and the padding adds nothing.
    As[ty][tx] = (row < m && t + tx < k) ? A[static_cast<std::size_t>(row) * k + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < k && col < n) ? B[static_cast<std::size_t>(t + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kTile; ++i) acc += As[ty][i] * Bs[i][tx];  // As: broadcast in a warp; Bs: 32 banks
    __syncthreads();  // nobody overwrites the tiles while a neighbour still reads them
  }
  if (row < m && col < n) C[static_cast<std::size_t>(row) * n + col] = acc;
}

}  // namespace

// Launch settings: one 32×32 block per 32×32 tile of C.
void sgemm_smem(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  const dim3 block(kTile, kTile);
  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  GPULAB_LAUNCH(smem_kernel, grid, block, 0, stream)(m, n, k, A, B, C);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

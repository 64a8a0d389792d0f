// SGEMM ladder, step 4 — 1D block tiling (several outputs per thread).
// What changed: each thread now computes a column of kTM = 8 outputs instead of one. The block covers a 64×64 tile of
// C with 512 threads and walks k in slices of 8. Why: in the inner loop a thread loads one value of B from shared
// memory into a register and reuses it for 8 FMAs against 8 values of A (which are broadcasts within the warp).
// Shared-memory loads per FMA drop from 2 to about 9/8, so the FMA units are busy far more of the time. The
// accumulators live in registers: the first step that trades registers for memory traffic.
#include "../cuda_check.hpp"
#include "kernels.hpp"

namespace gpulab::cuda::kernels {
namespace {

constexpr int kBM = 64, kBN = 64, kBK = 8, kTM = 8;
constexpr int kThreads = kBM * kBN / kTM;  // 512
static_assert(kBM * kBK == kThreads && kBK * kBN == kThreads, "one element of each tile per thread");

__global__ void __launch_bounds__(kThreads) blocktile1d_kernel(int m, int n, int k, const float* __restrict__ A,
                                                               const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[kBM * kBK];
  __shared__ float Bs[kBK * kBN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int tcol = tid % kBN;  // a warp spans 32 consecutive columns: Bs reads hit 32 banks
  const int trow = tid / kBN;  // the same for the whole warp: As reads are broadcasts
  // Which element of each tile this thread loads.
  const int a_r = tid / kBK, a_c = tid % kBK;
  const int b_r = tid / kBN, b_c = tid % kBN;

  float acc[kTM] = {};
  for (int t = 0; t < k; t += kBK) {
    const int ar = row0 + a_r, ac = t + a_c;
    As[a_r * kBK + a_c] = (ar < m && ac < k) ? A[static_cast<std::size_t>(ar) * k + ac] : 0.0f;
    const int br = t + b_r, bc = col0 + b_c;
    Bs[b_r * kBN + b_c] = (br < k && bc < n) ? B[static_cast<std::size_t>(br) * n + bc] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float b = Bs[kk * kBN + tcol];
#pragma unroll
      for (int i = 0; i < kTM; ++i) acc[i] += As[(trow * kTM + i) * kBK + kk] * b;
    }
    __syncthreads();
  }
  const int col = col0 + tcol;
  if (col >= n) return;
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = row0 + trow * kTM + i;
    if (row < m) C[static_cast<std::size_t>(row) * n + col] = acc[i];
  }
}

}  // namespace

// Launch settings: 512 threads per 64×64 tile of C.
void sgemm_blocktile1d(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  const dim3 grid((n + kBN - 1) / kBN, (m + kBM - 1) / kBM);
  GPULAB_LAUNCH(blocktile1d_kernel, grid, kThreads, 0, stream)(m, n, k, A, B, C);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

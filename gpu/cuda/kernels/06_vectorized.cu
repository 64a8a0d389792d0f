// SGEMM ladder, step 6 — vectorised loads (float4) and a transposed A tile.
// What changed against step 5 (same 128×128×8 tiles, 256 threads, 8×8 outputs per thread):
//  - global loads and C stores are 16 bytes wide (float4): a quarter of the load instructions for the same bytes;
//  - the A tile is stored *transposed* in shared memory (As[kk][row]), so the 8 values of A a thread needs for one
//    kk are consecutive and arrive as two float4 shared loads instead of eight scalar ones — likewise for B.
// Why: step 5 is limited by how many load instructions the SM can issue, not by bytes; wide loads cut their number
// by 4×. float4 needs 16-byte aligned rows, i.e. k and n multiples of 4: other sizes take the same kernel with
// scalar loads (kVec = false), which stays correct at any size, just slower. Left for step 7: shared-memory bank
// conflicts (lanes 0 and 4 of a quarter-warp read the same bank of Bs) and the wait at every tile's barrier.
#include "../cuda_check.hpp"
#include "kernels.hpp"

#include <cstdint>

namespace gpulab::cuda::kernels {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 8, kTM = 8, kTN = 8;
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256
static_assert(kBM * kBK / 4 == kThreads && kBK * kBN / 4 == kThreads, "one float4 of each tile per thread");

template <bool kVec>
__global__ void __launch_bounds__(kThreads) vectorized_kernel(int m, int n, int k, const float* __restrict__ A,
                                                              const float* __restrict__ B, float* __restrict__ C) {
  __shared__ __align__(16) float As[kBK * kBM];  // transposed: As[kk * kBM + r]
  __shared__ __align__(16) float Bs[kBK * kBN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int trow = tid / (kBN / kTN), tcol = tid % (kBN / kTN);
  // This thread's float4 of each tile: A row a_r, k offset a_c; B row b_r, column b_c.
  const int a_r = tid / (kBK / 4), a_c = (tid % (kBK / 4)) * 4;
  const int b_r = tid / (kBN / 4), b_c = (tid % (kBN / 4)) * 4;

  float acc[kTM][kTN] = {};
  for (int t = 0; t < k; t += kBK) {
    {
      const int gr = row0 + a_r, gc = t + a_c;
      float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
      if (kVec) {
        // k % 4 == 0 and gc % 4 == 0, so the whole vector is inside the row whenever gc is.
        if (gr < m && gc < k) v = *reinterpret_cast<const float4*>(A + static_cast<std::size_t>(gr) * k + gc);
      } else if (gr < m) {
        const float* p = A + static_cast<std::size_t>(gr) * k;
        v.x = gc + 0 < k ? p[gc + 0] : 0.f;
        v.y = gc + 1 < k ? p[gc + 1] : 0.f;
        v.z = gc + 2 < k ? p[gc + 2] : 0.f;
        v.w = gc + 3 < k ? p[gc + 3] : 0.f;
      }
      As[(a_c + 0) * kBM + a_r] = v.x;
      As[(a_c + 1) * kBM + a_r] = v.y;
      As[(a_c + 2) * kBM + a_r] = v.z;
      As[(a_c + 3) * kBM + a_r] = v.w;
    }
    {
      const int gr = t + b_r, gc = col0 + b_c;
      float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
      if (kVec) {
        if (gr < k && gc < n) v = *reinterpret_cast<const float4*>(B + static_cast<std::size_t>(gr) * n + gc);
      } else if (gr < k) {
        const float* p = B + static_cast<std::size_t>(gr) * n;
        v.x = gc + 0 < n ? p[gc + 0] : 0.f;
        v.y = gc + 1 < n ? p[gc + 1] : 0.f;
        v.z = gc + 2 < n ? p[gc + 2] : 0.f;
        v.w = gc + 3 < n ? p[gc + 3] : 0.f;
      }
      *reinterpret_cast<float4*>(&Bs[b_r * kBN + b_c]) = v;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[kk * kBM + trow * kTM]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[kk * kBM + trow * kTM + 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[kk * kBN + tcol * kTN]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[kk * kBN + tcol * kTN + 4]);
      const float ra[kTM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float rb[kTN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = row0 + trow * kTM + i;
    if (row >= m) break;
    float* c = C + static_cast<std::size_t>(row) * n;
#pragma unroll
    for (int j = 0; j < kTN; j += 4) {
      const int col = col0 + tcol * kTN + j;
      if (kVec) {
        if (col < n) *reinterpret_cast<float4*>(c + col) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      } else {
#pragma unroll
        for (int q = 0; q < 4; ++q)
          if (col + q < n) c[col + q] = acc[i][j + q];
      }
    }
  }
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

// Launch settings: 256 threads per 128×128 tile of C; float4 path when rows are 16-byte aligned.
void sgemm_vectorized(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  const dim3 grid((n + kBN - 1) / kBN, (m + kBM - 1) / kBM);
  const bool vec = k % 4 == 0 && n % 4 == 0 && aligned16(A) && aligned16(B) && aligned16(C);
  if (vec)
    GPULAB_LAUNCH(vectorized_kernel<true>, grid, kThreads, 0, stream)(m, n, k, A, B, C);
  else
    GPULAB_LAUNCH(vectorized_kernel<false>, grid, kThreads, 0, stream)(m, n, k, A, B, C);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

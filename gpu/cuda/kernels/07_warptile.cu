// SGEMM ladder, step 7 — warp tiling, conflict-free shared memory, double buffering.
// What changed against step 6:
//  - Warp tiling: the 128×128 block tile is split into 2×4 warp tiles of 64×32, and inside a warp the 32 lanes form
//    an 8×4 grid; each lane owns a 2×2 set of 4×4 patches (rows lane_m·4 + {0, 32}, columns lane_n·4 + {0, 16}).
//    A quarter-warp's float4 reads of As then hit two addresses (broadcasts) and its reads of Bs four consecutive
//    16-byte words: no bank conflicts, where step 6's 8-wide patches made lanes 0 and 4 collide.
//  - The transposed A tile has each row padded by 4 floats (still 16-byte aligned), which spreads the transposing
//    stores over more banks.
//  - Double buffering: two shared-memory stages. While the warps compute on one, the next slice of A and B is
//    already in flight from global memory into registers, and is written to the other stage afterwards, so one
//    __syncthreads per slice suffices and memory latency hides behind the FMAs.
//  - BK = 16: twice the work per barrier.
// Launch settings (chosen for sm_80..sm_90, 64 K registers per SM): 256 threads, at most 128 registers each so two
// blocks share an SM (16 warps to hide latency), 33 KB of static shared memory per block. ptxas reports no spills
// for the float4 path at 128 registers on sm_75, sm_80, sm_86 and sm_90 (BK = 16; the scalar edge path spills 8 B).
#include "../cuda_check.hpp"
#include "kernels.hpp"

#include <cstdint>

namespace gpulab::cuda::kernels {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 16;
constexpr int kWM = 64, kWN = 32;                 // warp tile
constexpr int kWarpsN = kBN / kWN;                // 4
constexpr int kThreads = (kBM / kWM) * kWarpsN * 32;  // 256
constexpr int kAStride = kBM + 4;                 // padded row of the transposed A tile
constexpr int kAVecs = kBM * kBK / 4 / kThreads;  // float4 of A each thread loads per slice (2)
constexpr int kBVecs = kBK * kBN / 4 / kThreads;  // same for B (2)
static_assert(kAVecs * kThreads * 4 == kBM * kBK && kBVecs * kThreads * 4 == kBK * kBN, "even split of the tiles");
static_assert(kWM == 2 * 8 * 4 && kWN == 2 * 4 * 4, "lane layout: 8×4 lanes, 2×2 patches of 4×4 each");

struct Slice {
  float4 a[kAVecs];
  float4 b[kBVecs];
};

template <bool kVec>
__device__ __forceinline__ float4 load4(const float* __restrict__ row, int col, int limit) {
  if (kVec) {
    // limit % 4 == 0 and col % 4 == 0: the vector is entirely inside when its first element is.
    return col < limit ? *reinterpret_cast<const float4*>(row + col) : make_float4(0.f, 0.f, 0.f, 0.f);
  }
  float4 v;
  v.x = col + 0 < limit ? row[col + 0] : 0.f;
  v.y = col + 1 < limit ? row[col + 1] : 0.f;
  v.z = col + 2 < limit ? row[col + 2] : 0.f;
  v.w = col + 3 < limit ? row[col + 3] : 0.f;
  return v;
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2) warptile_kernel(int m, int n, int k, const float* __restrict__ A,
                                                               const float* __restrict__ B, float* __restrict__ C) {
  __shared__ __align__(16) float As[2][kBK * kAStride];
  __shared__ __align__(16) float Bs[2][kBK * kBN];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int lane_m = lane / 4, lane_n = lane % 4;
  const int tm = (warp / kWarpsN) * kWM + lane_m * 4;  // this lane's rows: tm + {0..3} and tm + 32 + {0..3}
  const int tn = (warp % kWarpsN) * kWN + lane_n * 4;  // columns: tn + {0..3} and tn + 16 + {0..3}
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;

  // Global → register loads of one slice (k offset t). Four lanes cover 16 consecutive floats of a row of A.
  // Every float4 this thread loads lies in the same column of its slice; rows are kThreads/(kBK/4) apart in A and
  // kThreads/(kBN/4) apart in B, so one base pointer each plus a constant stride covers them (saves registers).
  const int a_r = tid / (kBK / 4), a_c = (tid % (kBK / 4)) * 4;
  const int b_r = tid / (kBN / 4), b_c = (tid % (kBN / 4)) * 4;
  constexpr int kARowStep = kThreads / (kBK / 4), kBRowStep = kThreads / (kBN / 4);
  const float* a_base = A + static_cast<std::size_t>(row0 + a_r) * k;
  const float* b_base = B + static_cast<std::size_t>(b_r) * n;
  auto load_slice = [&](int t, Slice& s) {
#pragma unroll
    for (int v = 0; v < kAVecs; ++v) {
      const int gr = row0 + a_r + v * kARowStep;
      s.a[v] = gr < m ? load4<kVec>(a_base + static_cast<std::size_t>(v * kARowStep) * k, t + a_c, k)
                      : make_float4(0.f, 0.f, 0.f, 0.f);
    }
#pragma unroll
    for (int v = 0; v < kBVecs; ++v) {
      const int gr = t + b_r + v * kBRowStep;
      s.b[v] = gr < k ? load4<kVec>(b_base + static_cast<std::size_t>(t + v * kBRowStep) * n, col0 + b_c, n)
                      : make_float4(0.f, 0.f, 0.f, 0.f);
    }
  };
  auto store_slice = [&](const Slice& s, int buf) {
#pragma unroll
    for (int v = 0; v < kAVecs; ++v) {
      float* dst = &As[buf][a_c * kAStride + a_r + v * kARowStep];
      dst[0 * kAStride] = s.a[v].x;
      dst[1 * kAStride] = s.a[v].y;
      dst[2 * kAStride] = s.a[v].z;
      dst[3 * kAStride] = s.a[v].w;
    }
#pragma unroll
    for (int v = 0; v < kBVecs; ++v)
      *reinterpret_cast<float4*>(&Bs[buf][(b_r + v * kBRowStep) * kBN + b_c]) = s.b[v];
  };

  float acc[8][8] = {};
  Slice next;
  load_slice(0, next);
  store_slice(next, 0);
  __syncthreads();

  int buf = 0;
  for (int t = 0; t < k; t += kBK) {
    const bool more = t + kBK < k;
    if (more) load_slice(t + kBK, next);  // in flight while we compute below

    const float* as = As[buf];
    const float* bs = Bs[buf];
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(as + kk * kAStride + tm);
      const float4 a1 = *reinterpret_cast<const float4*>(as + kk * kAStride + tm + 32);
      const float4 b0 = *reinterpret_cast<const float4*>(bs + kk * kBN + tn);
      const float4 b1 = *reinterpret_cast<const float4*>(bs + kk * kBN + tn + 16);
      const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }

    // The other stage was last read in the previous iteration, which ended with a barrier: safe to overwrite.
    if (more) store_slice(next, buf ^ 1);
    __syncthreads();
    buf ^= 1;
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row0 + tm + (i < 4 ? i : 32 + i - 4);
    if (row >= m) continue;
    float* c = C + static_cast<std::size_t>(row) * n;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = col0 + tn + h * 16;
      const float* v = &acc[i][h * 4];
      if (kVec) {
        if (col < n) *reinterpret_cast<float4*>(c + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int q = 0; q < 4; ++q)
          if (col + q < n) c[col + q] = v[q];
      }
    }
  }
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

void sgemm_warptile(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  const dim3 grid((n + kBN - 1) / kBN, (m + kBM - 1) / kBM);
  const bool vec = k % 4 == 0 && n % 4 == 0 && aligned16(A) && aligned16(B) && aligned16(C);
  if (vec)
    GPULAB_LAUNCH(warptile_kernel<true>, grid, kThreads, 0, stream)(m, n, k, A, B, C);
  else
    GPULAB_LAUNCH(warptile_kernel<false>, grid, kThreads, 0, stream)(m, n, k, A, B, C);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

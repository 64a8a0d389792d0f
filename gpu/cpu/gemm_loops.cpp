// The textbook GEMM loops: the lesson's "professor" (naive ijk) and the same arithmetic with the loops swapped (ikj).
// Neither is blocked or threaded: the point is what loop order alone does.
#include "cpu_internal.hpp"
#include "gpulab/harness.hpp"
#include "vector_clones.hpp"

namespace gpulab::cpu {
namespace {

// i-j-p: each output cell is a dot product that walks down a column of B (stride n), so every step of the inner
// loop touches a new cache line and the sum is one serial dependency chain. Compiled at the project's default
// optimisation level with no hints: this is the serial baseline, not a strawman made slower on purpose.
// The stop token is polled every 64 output cells (64 dot products: about a millisecond at k = 4096 even out of
// cache), outside the dot product, so the loop the lesson times is unchanged.
template <typename T>
void naive_ijk(const T* A, const T* B, T* C, long long m, long long n, long long k) {
  for (long long i = 0; i < m; ++i) {
    for (long long j = 0; j < n; ++j) {
      if ((j & 63) == 0) throw_if_cancelled();
      T sum = 0;
      for (long long p = 0; p < k; ++p) sum += A[i * k + p] * B[p * n + j];
      C[i * n + j] = sum;
    }
  }
}

// i-p-j: the inner loop now streams along a row of B and a row of C with unit stride and independent iterations,
// which the compiler turns into SIMD FMAs. Two things have to be granted for that:
//  - target_clones: an AVX2+FMA (x86-64-v3) copy plus a baseline one, picked at load time, so the binary still runs
//    on any x86-64;
//  - optimize: the project builds at -O2, whose "very cheap" vectoriser refuses loops that need a remainder or an
//    aliasing check, and ISO C++ mode forbids fusing a*b+c into an FMA. -O3 with fp-contract lifts both, for this
//    function only.
// __restrict promises C does not overlap A or B (true: the op owns three separate buffers).
#if GPULAB_USE_TARGET_CLONES  // vector_clones.hpp: x86-64-v3 with gcc 12, fma with gcc 11
#define GPULAB_VECTOR_KERNEL \
  __attribute__((target_clones(GPULAB_VECTOR_CLONE, "default"), optimize("O3", "fp-contract=fast")))
#else
#define GPULAB_VECTOR_KERNEL
#endif

GPULAB_VECTOR_KERNEL
void reordered_ikj_f32(const float* __restrict A, const float* __restrict B, float* __restrict C, long long m,
                       long long n, long long k) {
  for (long long i = 0; i < m; ++i) {
    throw_if_cancelled();  // a row is k·n FMAs: milliseconds
    float* __restrict c = C + i * n;
    for (long long j = 0; j < n; ++j) c[j] = 0;  // C arrives poisoned with NaN: start each row from zero
    for (long long p = 0; p < k; ++p) {
      const float a = A[i * k + p];
      const float* __restrict b = B + p * n;
      for (long long j = 0; j < n; ++j) c[j] += a * b[j];
    }
  }
}

GPULAB_VECTOR_KERNEL
void reordered_ikj_f64(const double* __restrict A, const double* __restrict B, double* __restrict C, long long m,
                       long long n, long long k) {
  for (long long i = 0; i < m; ++i) {
    throw_if_cancelled();  // a row is k·n FMAs: milliseconds
    double* __restrict c = C + i * n;
    for (long long j = 0; j < n; ++j) c[j] = 0;
    for (long long p = 0; p < k; ++p) {
      const double a = A[i * k + p];
      const double* __restrict b = B + p * n;
      for (long long j = 0; j < n; ++j) c[j] += a * b[j];
    }
  }
}

}  // namespace

void gemm_naive(const float* A, const float* B, float* C, long long m, long long n, long long k) {
  naive_ijk(A, B, C, m, n, k);
}
void gemm_naive(const double* A, const double* B, double* C, long long m, long long n, long long k) {
  naive_ijk(A, B, C, m, n, k);
}
void gemm_reordered(const float* A, const float* B, float* C, long long m, long long n, long long k) {
  reordered_ikj_f32(A, B, C, m, n, k);
}
void gemm_reordered(const double* A, const double* B, double* C, long long m, long long n, long long k) {
  reordered_ikj_f64(A, B, C, m, n, k);
}

}  // namespace gpulab::cpu

#pragma once
// Launchers for the module's own kernels. Host code (cuda_backend.cpp) sees only these declarations; each .cu file
// keeps its kernel, its tile sizes and its launch settings together.
//
// GEMM convention for every launcher: row-major C (m×n) = A (m×k) · B (k×n), FP32, device pointers, queued on
// `stream` (nothing waits). Any m, n, k >= 1 — edge tiles are guarded, so sizes need not be tile multiples.
#include <cuda_runtime_api.h>

#include "launch.hpp"

#include <cstddef>
#include <cstdint>

namespace gpulab::cuda::kernels {

using SgemmLauncher = void (*)(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);

void sgemm_naive(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_coalesced(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_smem(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_blocktile1d(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_blocktile2d(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_vectorized(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_warptile(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
// A deliberately wrong kernel (it drops the last term of every dot product) so the tests can prove the checker
// catches a wrong answer. Reachable only as the unlisted variant "selftest-wrong".
void sgemm_selftest_wrong(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);

// Streaming kernels (kernels/streams.cu). Element counts, not bytes.
void stream_copy(const float* a, float* b, std::size_t count, int sm_count, cudaStream_t stream);  // b = a
void stream_triad(float* a, const float* b, const float* c, float scalar, std::size_t count, int sm_count,
                  cudaStream_t stream);  // a = b + scalar·c, as one fused multiply-add
// Fills p[i] = pattern_value(i, salt): values the host can recompute for any i without a copy of the array.
void fill_pattern(float* p, std::size_t count, std::uint32_t salt, int sm_count, cudaStream_t stream);

// Storage formats fill_scaled can write.
enum class Format { fp32 = 0, fp16 = 1, bf16 = 2 };
// Element i of p becomes round_to_format(pattern_value(index_base + i, salt) · scale), nearest-even: the host
// recomputes any element the same way (convert.hpp), so checks need no copy of the weights.
void fill_scaled(void* p, Format format, std::size_t count, std::size_t index_base, float scale, std::uint32_t salt,
                 int sm_count, cudaStream_t stream);

// One tiny kernel: p[i] += 1 for i < count (the launch-overhead experiment launches thousands back to back).
void add_one(float* p, std::size_t count, cudaStream_t stream);

// The roofs (kernels/roofs.cu): `blocks` × fma_threads_per_block() threads, each running fma_chains_per_thread()
// independent chains x -> x·m + a for `iterations` steps from seed (id & 7) / 4 + chain, writing their sum to
// sums[id]. FLOPs = threads × chains × 2 × iterations. empty_launch: a kernel that does nothing, one thread.
int fma_chains_per_thread();
int fma_threads_per_block();
void fma_chains_fp32(float* sums, unsigned blocks, unsigned iterations, float m, float a, cudaStream_t stream);
void fma_chains_fp64(float* sums, unsigned blocks, unsigned iterations, double m, double a, cudaStream_t stream);
void empty_launch(cudaStream_t stream);
// kernels/roofs_fp16.cu (not built for the CPU emulator): the same chains as half2 pairs, 2 lanes per chain, so
// FLOPs = threads × chains × 2 lanes × 2 × iterations; sums[id] adds both lanes of every chain in FP32.
void fma_chains_fp16x2(float* sums, unsigned blocks, unsigned iterations, float m, float a, cudaStream_t stream);

// The value fill_pattern writes, usable on host and device: a hash of (i, salt) mapped to [-1, 1), never 0.
__host__ __device__ inline float pattern_value(std::size_t i, std::uint32_t salt) {
  std::uint32_t x = static_cast<std::uint32_t>(i) ^ (static_cast<std::uint32_t>(i >> 32) * 0x9E3779B9u) ^ salt;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  // 23 random bits → a float in [-1, 1) with a step of 2^-22; the | 1 keeps it away from exactly 0.
  return static_cast<float>(static_cast<std::int32_t>((x >> 9) | 1u) - (1 << 22)) * (1.0f / (1 << 22));
}

}  // namespace gpulab::cuda::kernels

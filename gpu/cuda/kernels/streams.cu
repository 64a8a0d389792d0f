// Streaming kernels for the bandwidth experiment (copy, triad), the pattern fill the checks recompute on the host,
// and the L2 flush. All are grid-stride loops over float4 with a scalar tail: 16-byte accesses, coalesced across a
// warp, several independent loads in flight per thread before the first store, and a grid sized to the SM count
// (not to the array) so the same launch works for any size.
#include "../cuda_check.hpp"
#include "../cuda_raii.hpp"
#include "kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

namespace gpulab::cuda::kernels {
namespace {

// Launch settings: 256 threads, 8 blocks per SM (2048 threads, the most an SM holds), 4 float4 per thread per trip.
constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;
constexpr int kUnroll = 4;

int grid_for(std::size_t vec_count, int sm_count) {
  const std::size_t full = static_cast<std::size_t>(std::max(sm_count, 1)) * kBlocksPerSm;
  const std::size_t needed = (vec_count + kThreads - 1) / kThreads;
  return static_cast<int>(std::max<std::size_t>(1, std::min(full, needed)));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

__global__ void __launch_bounds__(kThreads) copy_kernel(const float4* __restrict__ a, float4* __restrict__ b,
                                                        std::size_t nvec, const float* __restrict__ a_tail,
                                                        float* __restrict__ b_tail, int tail) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = a[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) b[i + u * stride] = v[u];
  }
  for (; i < nvec; i += stride) b[i] = a[i];
  if (blockIdx.x == 0 && static_cast<int>(threadIdx.x) < tail) b_tail[threadIdx.x] = a_tail[threadIdx.x];
}

__device__ __forceinline__ float4 triad4(float4 b, float4 c, float s) {
  return make_float4(__fmaf_rn(s, c.x, b.x), __fmaf_rn(s, c.y, b.y), __fmaf_rn(s, c.z, b.z), __fmaf_rn(s, c.w, b.w));
}

__global__ void __launch_bounds__(kThreads) triad_kernel(float4* __restrict__ a, const float4* __restrict__ b,
                                                         const float4* __restrict__ c, float s, std::size_t nvec,
                                                         float* __restrict__ a_tail, const float* __restrict__ b_tail,
                                                         const float* __restrict__ c_tail, int tail) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    float4 vb[kUnroll], vc[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      vb[u] = b[i + u * stride];
      vc[u] = c[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) a[i + u * stride] = triad4(vb[u], vc[u], s);
  }
  for (; i < nvec; i += stride) a[i] = triad4(b[i], c[i], s);
  if (blockIdx.x == 0 && static_cast<int>(threadIdx.x) < tail)
    a_tail[threadIdx.x] = __fmaf_rn(s, c_tail[threadIdx.x], b_tail[threadIdx.x]);
}

__global__ void __launch_bounds__(kThreads) fill_kernel(float* __restrict__ p, std::size_t count, std::uint32_t salt) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    p[i] = pattern_value(i, salt);
}

__global__ void __launch_bounds__(kThreads) fill_scaled_kernel(void* __restrict__ p, int format, std::size_t count,
                                                               std::size_t base, float scale, std::uint32_t salt) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const float v = pattern_value(base + i, salt) * scale;
    if (format == 1)
      static_cast<__half*>(p)[i] = __float2half_rn(v);
    else if (format == 2)
      static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
    else
      static_cast<float*>(p)[i] = v;
  }
}

// Deliberately tiny: the point is the fixed cost of a launch, so the work per kernel is a few hundred nanoseconds.
__global__ void __launch_bounds__(kThreads) add_one_kernel(float* __restrict__ p, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    p[i] += 1.0f;
}

// Reads every float4 of the buffer; the sum goes to `sink` only in an impossible case, which the compiler cannot
// prove impossible, so the loads stay.
__global__ void __launch_bounds__(kThreads) flush_kernel(const float4* __restrict__ p, std::size_t nvec,
                                                         float* __restrict__ sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float acc = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nvec; i += stride) {
    const float4 v = p[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234567.0f) *sink = acc;  // the buffer holds zeros: never true
}

}  // namespace

void stream_copy(const float* a, float* b, std::size_t count, int sm_count, cudaStream_t stream) {
  if (count == 0) return;
  // The backend allocates these with cudaMalloc (256-byte aligned); an unaligned caller is a programming error.
  if (!(aligned16(a) && aligned16(b))) throw CudaError("stream_copy: buffers must be 16-byte aligned", 0);
  const std::size_t nvec = count / 4;
  const std::size_t done = nvec * 4;
  GPULAB_LAUNCH(copy_kernel, grid_for(nvec, sm_count), kThreads, 0, stream)(reinterpret_cast<const float4*>(a),
                                                                   reinterpret_cast<float4*>(b), nvec, a + done,
                                                                   b + done, static_cast<int>(count - done));
  GPULAB_CUDA_CHECK_LAUNCH();
}

void stream_triad(float* a, const float* b, const float* c, float scalar, std::size_t count, int sm_count,
                  cudaStream_t stream) {
  if (count == 0) return;
  // The backend allocates these with cudaMalloc (256-byte aligned); an unaligned caller is a programming error.
  if (!(aligned16(a) && aligned16(b) && aligned16(c))) throw CudaError("stream_triad: buffers must be 16-byte aligned", 0);
  const std::size_t nvec = count / 4;
  const std::size_t done = nvec * 4;
  GPULAB_LAUNCH(triad_kernel, grid_for(nvec, sm_count), kThreads, 0, stream)(
      reinterpret_cast<float4*>(a), reinterpret_cast<const float4*>(b), reinterpret_cast<const float4*>(c), scalar,
      nvec, a + done, b + done, c + done, static_cast<int>(count - done));
  GPULAB_CUDA_CHECK_LAUNCH();
}

void fill_pattern(float* p, std::size_t count, std::uint32_t salt, int sm_count, cudaStream_t stream) {
  if (count == 0) return;
  GPULAB_LAUNCH(fill_kernel, grid_for(count, sm_count), kThreads, 0, stream)(p, count, salt);
  GPULAB_CUDA_CHECK_LAUNCH();
}

void fill_scaled(void* p, Format format, std::size_t count, std::size_t index_base, float scale, std::uint32_t salt,
                 int sm_count, cudaStream_t stream) {
  if (count == 0) return;
  GPULAB_LAUNCH(fill_scaled_kernel, grid_for(count, sm_count), kThreads, 0, stream)(p, static_cast<int>(format), count, index_base,
                                                                         scale, salt);
  GPULAB_CUDA_CHECK_LAUNCH();
}

void add_one(float* p, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  // Launch settings: one thread per element up to 1024 blocks; the grid-stride loop covers anything larger.
  const std::size_t blocks = std::min<std::size_t>((count + kThreads - 1) / kThreads, 1024);
  GPULAB_LAUNCH(add_one_kernel, static_cast<unsigned>(blocks), kThreads, 0, stream)(p, count);
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda::kernels

namespace gpulab::cuda {

void L2Flush::flush(cudaStream_t s) {
  const std::size_t nvec = m_buffer.bytes() / sizeof(float4);
  GPULAB_LAUNCH(kernels::flush_kernel, kernels::grid_for(nvec, m_sm_count), kernels::kThreads, 0, s)(m_buffer.as<const float4>(), nvec,
                                                                                   m_sink.as<float>());
  GPULAB_CUDA_CHECK_LAUNCH();
}

}  // namespace gpulab::cuda

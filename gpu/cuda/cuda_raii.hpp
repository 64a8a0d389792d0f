#pragma once
// Move-only owners of CUDA resources. Constructors throw CudaError; destructors never throw (they report on stderr).
// Nothing in the module holds a raw cudaMalloc'd pointer, stream, event or handle outside one of these.
#include "cuda_check.hpp"

#include <cstddef>
#include <utility>

namespace gpulab::cuda {

// Device and pinned host memory differ only in the allocate/free pair, so one owner serves both.
namespace detail {

template <class Kind>
class CudaMemory {
 public:
  CudaMemory() = default;
  explicit CudaMemory(std::size_t bytes) : m_bytes(bytes) {
    if (bytes == 0) return;
    const cudaError_t err = Kind::allocate(&m_ptr, bytes);
    if (err != cudaSuccess) throw_cuda_error(err, Kind::allocate_call, __FILE__, __LINE__);
  }
  ~CudaMemory() { reset(); }
  CudaMemory(CudaMemory&& o) noexcept : m_ptr(std::exchange(o.m_ptr, nullptr)), m_bytes(std::exchange(o.m_bytes, 0)) {}
  CudaMemory& operator=(CudaMemory&& o) noexcept {
    if (this != &o) {
      reset();
      m_ptr = std::exchange(o.m_ptr, nullptr);
      m_bytes = std::exchange(o.m_bytes, 0);
    }
    return *this;
  }
  CudaMemory(const CudaMemory&) = delete;
  CudaMemory& operator=(const CudaMemory&) = delete;

  void reset() noexcept {
    if (m_ptr) GPULAB_CUDA_CHECK_NOTHROW(Kind::release(m_ptr));
    m_ptr = nullptr;
    m_bytes = 0;
  }
  void* get() const noexcept { return m_ptr; }
  template <class T>
  T* as() const noexcept { return static_cast<T*>(m_ptr); }
  std::size_t bytes() const noexcept { return m_bytes; }

 private:
  void* m_ptr = nullptr;
  std::size_t m_bytes = 0;
};

// Device memory (cudaMalloc: plain allocations, never managed memory).
struct DeviceMemoryKind {
  static constexpr const char* allocate_call = "cudaMalloc(&ptr, bytes)";
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
  static cudaError_t release(void* p) { return cudaFree(p); }
};

// Page-locked host memory: the DMA engines read it directly, so transfers run at the link's speed.
struct PinnedMemoryKind {
  static constexpr const char* allocate_call = "cudaMallocHost(&ptr, bytes)";
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
  static cudaError_t release(void* p) { return cudaFreeHost(p); }
};

}  // namespace detail

using DeviceBuffer = detail::CudaMemory<detail::DeviceMemoryKind>;
using PinnedBuffer = detail::CudaMemory<detail::PinnedMemoryKind>;

// A non-blocking stream: work on it never waits for the legacy default stream another library might use.
class Stream {
 public:
  Stream() { GPULAB_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
  ~Stream() {
    if (m_stream) GPULAB_CUDA_CHECK_NOTHROW(cudaStreamDestroy(m_stream));
  }
  Stream(Stream&& o) noexcept : m_stream(std::exchange(o.m_stream, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      if (m_stream) GPULAB_CUDA_CHECK_NOTHROW(cudaStreamDestroy(m_stream));
      m_stream = std::exchange(o.m_stream, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return m_stream; }
  void synchronize() const { GPULAB_CUDA_CHECK(cudaStreamSynchronize(m_stream)); }

 private:
  cudaStream_t m_stream = nullptr;
};

// Start/stop events around a region of one stream: the GPU's own clock, so host-side launch jitter stays out.
class EventTimer {
 public:
  EventTimer() {
    GPULAB_CUDA_CHECK(cudaEventCreate(&m_start));
    try {
      GPULAB_CUDA_CHECK(cudaEventCreate(&m_stop));
    } catch (...) {
      GPULAB_CUDA_CHECK_NOTHROW(cudaEventDestroy(m_start));
      throw;
    }
  }
  ~EventTimer() { destroy(); }
  EventTimer(EventTimer&& o) noexcept
      : m_start(std::exchange(o.m_start, nullptr)), m_stop(std::exchange(o.m_stop, nullptr)) {}
  EventTimer& operator=(EventTimer&& o) noexcept {
    if (this != &o) {
      destroy();
      m_start = std::exchange(o.m_start, nullptr);
      m_stop = std::exchange(o.m_stop, nullptr);
    }
    return *this;
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t s) { GPULAB_CUDA_CHECK(cudaEventRecord(m_start, s)); }
  void stop(cudaStream_t s) { GPULAB_CUDA_CHECK(cudaEventRecord(m_stop, s)); }
  // Waits for the stop event, then returns the seconds between the two (resolution about 0.5 µs).
  double elapsed_s() {
    GPULAB_CUDA_CHECK(cudaEventSynchronize(m_stop));
    float ms = 0.0f;
    GPULAB_CUDA_CHECK(cudaEventElapsedTime(&ms, m_start, m_stop));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  void destroy() noexcept {
    if (m_start) GPULAB_CUDA_CHECK_NOTHROW(cudaEventDestroy(m_start));
    if (m_stop) GPULAB_CUDA_CHECK_NOTHROW(cudaEventDestroy(m_stop));
    m_start = m_stop = nullptr;
  }
  cudaEvent_t m_start = nullptr;
  cudaEvent_t m_stop = nullptr;
};

class CublasHandle {
 public:
  CublasHandle() { GPULAB_CUBLAS_CHECK(cublasCreate(&m_handle)); }
  ~CublasHandle() { destroy(); }
  CublasHandle(CublasHandle&& o) noexcept : m_handle(std::exchange(o.m_handle, nullptr)) {}
  CublasHandle& operator=(CublasHandle&& o) noexcept {
    if (this != &o) {
      destroy();
      m_handle = std::exchange(o.m_handle, nullptr);
    }
    return *this;
  }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const noexcept { return m_handle; }

 private:
  void destroy() noexcept {
    if (m_handle && cublasDestroy(m_handle) != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "gpulab: cublasDestroy failed (ignored during cleanup)\n");
    m_handle = nullptr;
  }
  cublasHandle_t m_handle = nullptr;
};

class CublasLtHandle {
 public:
  CublasLtHandle() { GPULAB_CUBLAS_CHECK(cublasLtCreate(&m_handle)); }
  ~CublasLtHandle() { destroy(); }
  CublasLtHandle(CublasLtHandle&& o) noexcept : m_handle(std::exchange(o.m_handle, nullptr)) {}
  CublasLtHandle& operator=(CublasLtHandle&& o) noexcept {
    if (this != &o) {
      destroy();
      m_handle = std::exchange(o.m_handle, nullptr);
    }
    return *this;
  }
  CublasLtHandle(const CublasLtHandle&) = delete;
  CublasLtHandle& operator=(const CublasLtHandle&) = delete;
  cublasLtHandle_t get() const noexcept { return m_handle; }

 private:
  void destroy() noexcept {
    if (m_handle && cublasLtDestroy(m_handle) != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "gpulab: cublasLtDestroy failed (ignored during cleanup)\n");
    m_handle = nullptr;
  }
  cublasLtHandle_t m_handle = nullptr;
};

// Evicts the L2 cache before a timed run, so a kernel reads its inputs from device memory as it would in a real
// model, not from a cache warmed by the previous repetition. The buffer is 2× the L2 so every line is replaced.
// It *reads* the buffer (kernels/streams.cu) rather than memsetting it: a memset would leave the L2 full of dirty
// lines whose write-back would then land inside the next timed region and slow it down.
class L2Flush {
 public:
  L2Flush(std::size_t l2_bytes, int sm_count)
      : m_buffer(flush_bytes(l2_bytes)), m_sink(sizeof(float)), m_sm_count(sm_count) {
    // cudaMemset runs on the legacy stream, which the ops' non-blocking streams do not wait for: finish it here
    // so the first flush never reads the buffer while it is still being written.
    GPULAB_CUDA_CHECK(cudaMemset(m_buffer.get(), 0, m_buffer.bytes()));
    GPULAB_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  }
  void flush(cudaStream_t s);  // defined in kernels/streams.cu
  std::size_t bytes() const noexcept { return m_buffer.bytes(); }

 private:
  static std::size_t flush_bytes(std::size_t l2) {
    const std::size_t want = 2 * (l2 > 0 ? l2 : (std::size_t{64} << 20));
    return (want + 255) / 256 * 256;
  }
  DeviceBuffer m_buffer;
  DeviceBuffer m_sink;
  int m_sm_count = 1;
};

}  // namespace gpulab::cuda

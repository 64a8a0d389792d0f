// The emulated runtime API (shim/cuda_runtime_api.h): memory through the guarded allocator, launches already
// finished when they return (so streams and events have nothing to wait for), errors kept per thread like CUDA's.
#include <gpulab_emu/device_memory.hpp>
#include "runtime_state.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>

struct CUstream_st {
  unsigned flags = 0;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point when{};
};

namespace gpulab::emu {

RuntimeState& state() {
  static RuntimeState s;
  return s;
}

int& last_error() {
  thread_local int error = 0;
  return error;
}

}  // namespace gpulab::emu

namespace {

// A failing call also leaves its error for cudaGetLastError, as the real runtime does: code that forgets to
// clear it sees the wrong call blamed at the next launch check, here as on a GPU.
cudaError_t fail(cudaError_t error) {
  gpulab::emu::last_error() = error;
  return error;
}

bool device_side_ok(const void* p, std::size_t bytes) { return gpulab::emu::inside_allocation(p, bytes); }

}  // namespace

cudaError_t cudaGetLastError() {
  const int e = gpulab::emu::last_error();
  gpulab::emu::last_error() = 0;
  return static_cast<cudaError_t>(e);
}

cudaError_t cudaPeekAtLastError() { return static_cast<cudaError_t>(gpulab::emu::last_error()); }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    default: break;
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported (CPU emulator)";
    default: break;
  }
  return "unknown error";
}

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  if (!pointer) return fail(cudaErrorInvalidValue);
  *pointer = nullptr;
  if (bytes == 0) return cudaSuccess;
  *pointer = gpulab::emu::allocate_guarded(bytes);
  return *pointer ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

cudaError_t cudaFree(void* pointer) {
  if (!pointer) return cudaSuccess;
  return gpulab::emu::free_guarded(pointer) ? cudaSuccess : fail(cudaErrorInvalidDevicePointer);
}

cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  if (!pointer) return fail(cudaErrorInvalidValue);
  *pointer = bytes == 0 ? nullptr : std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return (*pointer || bytes == 0) ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

cudaError_t cudaFreeHost(void* pointer) {
  std::free(pointer);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  // A device-side range must lie inside one allocation, as the real copy would fault otherwise.
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if (kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if ((src_device && !device_side_ok(src, bytes)) || (dst_device && !device_side_ok(dst, bytes)))
    return fail(cudaErrorInvalidValue);
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (!device_side_ok(pointer, bytes)) return fail(cudaErrorInvalidValue);
  std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(pointer, value, bytes);
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (!stream) return fail(cudaErrorInvalidValue);
  *stream = new CUstream_st{flags};
  return cudaSuccess;
}

// The special handles (cudaStreamLegacy, cudaStreamPerThread) are small integers, never allocated.
bool owned_stream(cudaStream_t s) { return reinterpret_cast<std::uintptr_t>(s) > 0x10; }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (owned_stream(stream)) delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return fail(cudaErrorInvalidValue);
  *event = new CUevent_st;
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return fail(cudaErrorInvalidValue);
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }

// Host time between the two records: an emulated kernel's time, never a GPU's.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return fail(cudaErrorInvalidValue);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value) {
  if (attribute != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0) return fail(cudaErrorInvalidValue);
  if (static_cast<std::size_t>(value) > gpulab::emu::device_limits().shared_with_opt_in) return fail(cudaErrorInvalidValue);
  gpulab::emu::state().set_opt_in(kernel, static_cast<std::size_t>(value));
  return cudaSuccess;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  return status == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_NOT_SUPPORTED";
}
const char* cublasGetStatusString(cublasStatus_t status) {
  return status == CUBLAS_STATUS_SUCCESS ? "success" : "cuBLAS is not emulated";
}
cublasStatus_t cublasCreate(cublasHandle_t*) { return CUBLAS_STATUS_NOT_SUPPORTED; }
cublasStatus_t cublasDestroy(cublasHandle_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasLtCreate(cublasLtHandle_t*) { return CUBLAS_STATUS_NOT_SUPPORTED; }
cublasStatus_t cublasLtDestroy(cublasLtHandle_t) { return CUBLAS_STATUS_SUCCESS; }

// The emulated CUDA runtime, one implementation for both users: the kernel files compiled against the shim
// (tests/cuda_emu) and the whole module's host code compiled against NVIDIA's headers (libgpulab_cuda_emulated.so,
// whose device queries live in runtime_abi/). C linkage and CUDA's own error numbers make the two the same calls.
// Memory comes from the guarded allocator; a launch has finished when it returns, so streams and events have
// nothing to wait for and an event's time is the host clock when it was recorded (emulated, never a GPU's).
#include "device_behaviour.hpp"
#include "runtime_state.hpp"

#include <gpulab_emu/device_memory.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
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

// After a simulated fault (device_behaviour.hpp) every call fails with the sticky error, as on a GPU whose context
// a kernel fault has broken.
#define GPULAB_EMU_STICKY_GUARD()                                                      \
  do {                                                                                \
    if (const int sticky_ = gpulab::emu::sticky_fault())                              \
      return fail(static_cast<cudaError_t>(sticky_));                                 \
  } while (0)

bool device_side_ok(const void* p, std::size_t bytes, const char* call) {
  if (gpulab::emu::inside_allocation(p, bytes)) return true;
  std::fprintf(stderr, "gpulab emulator: %s of %zu bytes reaches outside a device allocation\n", call, bytes);
  return false;
}

// The special handles (cudaStreamLegacy, cudaStreamPerThread) are small integers, never allocated.
bool owned_stream(cudaStream_t s) { return reinterpret_cast<std::uintptr_t>(s) > 0x10; }

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported (CPU emulator)"},
};

const ErrorText* find_error(cudaError_t e) {
  for (const auto& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

}  // namespace

extern "C" {

// ---- errors ----
cudaError_t cudaGetLastError() {
  if (const int sticky = gpulab::emu::sticky_fault()) return static_cast<cudaError_t>(sticky);  // never cleared
  const int e = gpulab::emu::last_error();
  gpulab::emu::last_error() = 0;
  return static_cast<cudaError_t>(e);
}

cudaError_t cudaPeekAtLastError() {
  if (const int sticky = gpulab::emu::sticky_fault()) return static_cast<cudaError_t>(sticky);
  return static_cast<cudaError_t>(gpulab::emu::last_error());
}

const char* cudaGetErrorName(cudaError_t error) {
  const ErrorText* t = find_error(error);
  return t ? t->name : "cudaErrorUnknown (not named by the emulator)";
}

const char* cudaGetErrorString(cudaError_t error) {
  const ErrorText* t = find_error(error);
  return t ? t->text : "unknown error";
}

// ---- memory ----
cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  GPULAB_EMU_STICKY_GUARD();
  if (!pointer) return fail(cudaErrorInvalidValue);
  *pointer = nullptr;
  if (bytes == 0) return cudaSuccess;
  *pointer = gpulab::emu::allocate_guarded(bytes);
  return *pointer ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

// Frees even after a simulated fault (so a leak checker stays quiet), and still returns the sticky error.
cudaError_t cudaFree(void* pointer) {
  const bool freed = !pointer || gpulab::emu::free_guarded(pointer);
  GPULAB_EMU_STICKY_GUARD();
  return freed ? cudaSuccess : fail(cudaErrorInvalidDevicePointer);
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  GPULAB_EMU_STICKY_GUARD();
  if (!free_bytes || !total_bytes) return fail(cudaErrorInvalidValue);
  const std::size_t used = gpulab::emu::live_device_bytes();
  *total_bytes = gpulab::emu::kDeviceMemoryBytes;
  *free_bytes = used >= *total_bytes ? 0 : *total_bytes - used;
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  GPULAB_EMU_STICKY_GUARD();
  if (!pointer) return fail(cudaErrorInvalidValue);
  *pointer = bytes == 0 ? nullptr : std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return (*pointer || bytes == 0) ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

cudaError_t cudaFreeHost(void* pointer) {
  std::free(pointer);  // freed even after a fault, so a test's leak checker stays quiet; the error is still returned
  GPULAB_EMU_STICKY_GUARD();
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  GPULAB_EMU_STICKY_GUARD();
  if (bytes == 0) return cudaSuccess;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (!dst || !src) return fail(cudaErrorInvalidValue);
  // A device-side range must lie inside one allocation: on a GPU the copy would fault otherwise. With
  // cudaMemcpyDefault the runtime infers the sides from the pointers, so nothing is checked there.
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if ((src_device && !device_side_ok(src, bytes, "cudaMemcpy")) ||
      (dst_device && !device_side_ok(dst, bytes, "cudaMemcpy")))
    return fail(cudaErrorInvalidValue);
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

// One emulated device: a peer copy is only ever device 0 to device 0.
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t) {
  if (dst_device != 0 || src_device != 0) return fail(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  GPULAB_EMU_STICKY_GUARD();
  if (bytes == 0) return cudaSuccess;
  if (!device_side_ok(pointer, bytes, "cudaMemset")) return fail(cudaErrorInvalidValue);
  std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(pointer, value, bytes);
}

cudaError_t cudaDeviceSynchronize() {
  GPULAB_EMU_STICKY_GUARD();
  return cudaSuccess;
}

// ---- streams and events ----
cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  GPULAB_EMU_STICKY_GUARD();
  if (!stream) return fail(cudaErrorInvalidValue);
  *stream = new CUstream_st{flags};
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!stream) return fail(cudaErrorInvalidResourceHandle);
  if (owned_stream(stream)) delete stream;
  GPULAB_EMU_STICKY_GUARD();
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) {
  GPULAB_EMU_STICKY_GUARD();
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  GPULAB_EMU_STICKY_GUARD();
  if (!event) return fail(cudaErrorInvalidValue);
  *event = new CUevent_st;
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  delete event;
  GPULAB_EMU_STICKY_GUARD();
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  GPULAB_EMU_STICKY_GUARD();
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  GPULAB_EMU_STICKY_GUARD();
  return event ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

// Host time between the two records: an emulated kernel's time, never a GPU's.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  GPULAB_EMU_STICKY_GUARD();
  if (!ms) return fail(cudaErrorInvalidValue);
  if (!start || !end) return fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value) {
  GPULAB_EMU_STICKY_GUARD();
  if (attribute != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0) return fail(cudaErrorInvalidValue);
  if (static_cast<std::size_t>(value) > gpulab::emu::device_limits().shared_with_opt_in) return fail(cudaErrorInvalidValue);
  gpulab::emu::state().set_opt_in(kernel, static_cast<std::size_t>(value));
  return cudaSuccess;
}

}  // extern "C"

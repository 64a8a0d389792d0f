// Emulated CUDA runtime: errors (kept per host thread, shared with the emulated kernels' launch checks), streams
// and events. Work is finished when its call returns, so synchronising has nothing to wait for and an event's
// time is the host's clock when it was recorded: emulated elapsed times, never a GPU's.
#include "abi_common.hpp"

#include "../runtime_state.hpp"

#include <cstdint>

using namespace gpulab::emu::abi;

namespace {

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
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled",
     "peer access is already enabled"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported (CPU emulator)"},
};

const ErrorText* find_error(cudaError_t e) {
  for (const auto& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

// The special handles (cudaStreamLegacy, cudaStreamPerThread) are small integers, never allocated.
bool owned_stream(cudaStream_t s) { return reinterpret_cast<std::uintptr_t>(s) > 0x10; }

}  // namespace

extern "C" {

cudaError_t cudaGetLastError() {
  const int e = gpulab::emu::last_error();
  gpulab::emu::last_error() = 0;
  return static_cast<cudaError_t>(e);
}

cudaError_t cudaPeekAtLastError() { return static_cast<cudaError_t>(gpulab::emu::last_error()); }

const char* cudaGetErrorName(cudaError_t error) {
  const ErrorText* t = find_error(error);
  return t ? t->name : "cudaErrorUnknown (not named by the emulator)";
}

const char* cudaGetErrorString(cudaError_t error) {
  const ErrorText* t = find_error(error);
  return t ? t->text : "unknown error";
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (!stream) return fail(cudaErrorInvalidValue);
  *stream = new CUstream_st{flags};
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!stream) return fail(cudaErrorInvalidResourceHandle);
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
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return fail(cudaErrorInvalidValue);
  if (!start || !end) return fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

}  // extern "C"

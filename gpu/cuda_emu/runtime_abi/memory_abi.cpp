// Emulated CUDA runtime: device memory (the emulator's guarded allocator: NaN-filled, guard zones), pinned host
// memory, copies and memsets. Every call has finished when it returns, so the async forms are the sync ones.
#include "abi_common.hpp"

#include "../runtime_state.hpp"
#include <gpulab_emu/device_memory.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace gpulab::emu::abi;

namespace {

std::mutex g_mutex;
std::map<const void*, std::size_t> g_sizes;  // live cudaMalloc allocations, for cudaMemGetInfo
std::size_t g_live = 0;

// A card whose free memory is not one contiguous block: cudaMalloc refuses single allocations larger than this
// (GPULAB_EMU_MAX_ALLOCATION_BYTES, read at every call) although cudaMemGetInfo still counts the memory as free.
// Tests use it to provoke the failure the module must recover from (a refused allocation after a passed check).
std::size_t fragmentation_limit() {
  const char* v = std::getenv("GPULAB_EMU_MAX_ALLOCATION_BYTES");
  if (!v || !*v) return gpulab::emu::kMaxAllocationBytes;
  return static_cast<std::size_t>(std::strtoull(v, nullptr, 10));
}

}  // namespace

namespace gpulab::emu::abi {

cudaError_t fail(cudaError_t error) {
  gpulab::emu::last_error() = static_cast<int>(error);
  return error;
}

std::size_t live_device_bytes() {
  const std::lock_guard lock(g_mutex);
  return g_live;
}

bool device_range_ok(const void* p, std::size_t bytes) { return gpulab::emu::inside_allocation(p, bytes); }

}  // namespace gpulab::emu::abi

extern "C" {

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  if (!pointer) return fail(cudaErrorInvalidValue);
  *pointer = nullptr;
  if (bytes == 0) return cudaSuccess;
  {
    const std::lock_guard lock(g_mutex);
    if (bytes > fragmentation_limit() || bytes > kTotalMemory - g_live) return fail(cudaErrorMemoryAllocation);
    g_live += bytes;  // reserved before the (slow, NaN-filling) allocation so concurrent callers see it
  }
  void* p = gpulab::emu::allocate_guarded(bytes);
  const std::lock_guard lock(g_mutex);
  if (!p) {
    g_live -= bytes;
    return fail(cudaErrorMemoryAllocation);
  }
  g_sizes[p] = bytes;
  *pointer = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* pointer) {
  if (!pointer) return cudaSuccess;
  {
    const std::lock_guard lock(g_mutex);
    const auto it = g_sizes.find(pointer);
    if (it != g_sizes.end()) {
      g_live -= it->second;
      g_sizes.erase(it);
    }
  }
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
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (!dst || !src) return fail(cudaErrorInvalidValue);
  // A device-side range must lie inside one allocation: on a GPU the copy would fault otherwise. With
  // cudaMemcpyDefault the runtime infers the sides from the pointers, so nothing is checked there.
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if ((src_device && !device_range_ok(src, bytes)) || (dst_device && !device_range_ok(dst, bytes))) {
    std::fprintf(stderr, "gpulab emulator: cudaMemcpy of %zu bytes reaches outside a device allocation\n", bytes);
    return fail(cudaErrorInvalidValue);
  }
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t) {
  if (!valid_device(dst_device) || !valid_device(src_device)) return fail(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (!device_range_ok(pointer, bytes)) {
    std::fprintf(stderr, "gpulab emulator: cudaMemset of %zu bytes reaches outside a device allocation\n", bytes);
    return fail(cudaErrorInvalidValue);
  }
  std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(pointer, value, bytes);
}

}  // extern "C"

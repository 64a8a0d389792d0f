// Emulated CUDA runtime: device enumeration, properties and attributes, versions, peer access (there is no peer).
#include "abi_common.hpp"

#include <cstdio>
#include <cstring>

using namespace gpulab::emu::abi;

namespace {
thread_local int t_device = 0;  // the runtime's current device is per host thread
}

namespace gpulab::emu::abi {
bool valid_device(int device) { return device == 0; }
}  // namespace gpulab::emu::abi

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (const int sticky = gpulab::emu::sticky_fault()) return fail(static_cast<cudaError_t>(sticky));  // a broken context
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  t_device = device;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (!device) return fail(cudaErrorInvalidValue);
  *device = t_device;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return fail(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "%s", kDeviceName);
  prop->totalGlobalMem = kTotalMemory;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->sharedMemPerBlockOptin = 227 * 1024;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->totalConstMem = 64 * 1024;
  prop->major = kCcMajor;
  prop->minor = kCcMinor;
  prop->multiProcessorCount = kSms;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->l2CacheSize = kL2Bytes;
  prop->memoryBusWidth = kBusBits;
  prop->textureAlignment = 512;
  prop->unifiedAddressing = 1;
  prop->concurrentKernels = 1;
  prop->asyncEngineCount = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return fail(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  switch (attr) {
    case cudaDevAttrComputeCapabilityMajor: *value = kCcMajor; break;
    case cudaDevAttrComputeCapabilityMinor: *value = kCcMinor; break;
    case cudaDevAttrMultiProcessorCount: *value = kSms; break;
    case cudaDevAttrClockRate: *value = kClockKhz; break;
    case cudaDevAttrMemoryClockRate: *value = kMemoryClockKhz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = kBusBits; break;
    case cudaDevAttrL2CacheSize: *value = kL2Bytes; break;
    case cudaDevAttrEccEnabled: *value = 0; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxThreadsPerBlock: *value = 1024; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = 2048; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = 48 * 1024; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = 227 * 1024; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = 228 * 1024; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = 65536; break;
    default: return fail(cudaErrorInvalidValue);  // not emulated: say so rather than invent a number
  }
  return cudaSuccess;
}

// The emulator stands in for the runtime of the headers it was built with; there is no driver, so it reports
// that same version rather than 0 (which the module would read as "no driver installed").
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return fail(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return fail(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int len, int device) {
  if (!bus_id || len < 1) return fail(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  std::snprintf(bus_id, static_cast<std::size_t>(len), "%s", "none (CPU emulator)");
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (!can) return fail(cudaErrorInvalidValue);
  if (!valid_device(device) || !valid_device(peer)) return fail(cudaErrorInvalidDevice);
  *can = 0;  // one device: never a peer
  return cudaSuccess;
}

// Device 0 cannot be its own peer and there is no other: as the runtime answers on a one-GPU machine.
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int) { return fail(cudaErrorInvalidDevice); }

}  // extern "C"

// The module's one exported symbol: the factory the loader (gpu/loader) finds with dlsym. Everything else in the
// module is built with hidden visibility. The factory never throws and never crashes on a machine without a
// driver or a GPU: it returns null and writes the reason, in words a student understands, into `why`.
#include "cuda_backend.hpp"
#include "cuda_check.hpp"
#include "gpulab/module_api.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>

namespace {

void write_reason(char* why, unsigned long why_size, const std::string& text) {
  if (!why || why_size == 0) return;
  const std::size_t n = std::min<std::size_t>(text.size(), why_size - 1);
  std::memcpy(why, text.data(), n);
  why[n] = '\0';
}

// Why cudaGetDeviceCount failed, in plain words. The error codes are the runtime's (driver_types.h).
std::string explain_init_failure(cudaError_t err) {
  int driver = 0;
  // Harmless without a driver: it then reports version 0.
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  switch (err) {
    case cudaErrorInsufficientDriver:  // 35
      if (driver == 0) return "CUDA driver not found (no NVIDIA driver is installed on this machine)";
      return "CUDA driver too old: it supports CUDA " + std::to_string(driver / 1000) + "." +
             std::to_string((driver % 1000) / 10) + ", this module was built with CUDA " +
             std::to_string(CUDART_VERSION / 1000) + "." + std::to_string((CUDART_VERSION % 1000) / 10);
    case cudaErrorStubLibrary:  // 34
      return "CUDA driver not found (only the toolkit's stub libcuda.so is present, no real NVIDIA driver)";
    case cudaErrorNoDevice:  // 100
      return "no CUDA GPU found (the NVIDIA driver is installed but sees no device)";
    default:
      return std::string("CUDA could not start: ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) gpulab::Backend* gpulab_create_cuda_backend(int api_version,
                                                                                               char* why,
                                                                                               unsigned long why_size) {
  try {
    if (api_version != GPULAB_MODULE_API_VERSION) {
      write_reason(why, why_size,
                   "the CUDA module was built for gpulab module API version " +
                       std::to_string(GPULAB_MODULE_API_VERSION) + " but the program asked for version " +
                       std::to_string(api_version) + ": rebuild the module with the program");
      return nullptr;
    }
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      write_reason(why, why_size, explain_init_failure(err));
      return nullptr;
    }
    if (count < 1) {
      write_reason(why, why_size, "no CUDA GPU found (the NVIDIA driver is installed but sees no device)");
      return nullptr;
    }
    int major = 0, minor = 0;
    GPULAB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    GPULAB_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    if (major * 10 + minor < 75) {
      write_reason(why, why_size,
                   "the GPU has compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                       "; this build of gpulab supports 7.5 (Turing) and newer");
      return nullptr;
    }
    auto backend = gpulab::cuda::make_cuda_backend(0);
    write_reason(why, why_size, "");
    return backend.release();
  } catch (const std::exception& e) {
    write_reason(why, why_size, std::string("the CUDA backend failed to start: ") + e.what());
  } catch (...) {
    write_reason(why, why_size, "the CUDA backend failed to start (unknown error)");
  }
  return nullptr;
}

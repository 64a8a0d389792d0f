#pragma once
// Shared by the emulated CUDA runtime / cuBLAS ABI (gpu/cuda_emu/runtime_abi/): these files are compiled against
// NVIDIA's real headers (/usr/local/cuda/include), never the shim, so every function has exactly the signature and
// C linkage the module's host code was compiled against. The state behind them is the emulator's own: device memory
// from the guarded allocator (device_memory.hpp), the per-thread last error (runtime_state.hpp) that the emulated
// kernels' launch checks read too.
#include "../device_behaviour.hpp"
#include "../runtime_state.hpp"

#include <gpulab_emu/device_memory.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpulab::emu::abi {

// The one emulated device. Compute capability 9.0: the first real run of the module is on a Hopper (H200,
// CMAKE_CUDA_ARCHITECTURES=90), so every capability-dependent branch of the host code (supported precisions,
// peak model with FP64 tensor cores, the 227 KiB shared-memory opt-in the emulator's launch limits assume) takes
// the path it will take there. Everything else is an honest small CPU device: 4 "SMs", 4 GiB.
inline constexpr const char* kDeviceName = "CPU emulator (not a GPU)";
inline constexpr int kCcMajor = 9, kCcMinor = 0;
inline constexpr int kSms = 4;
inline constexpr int kClockKhz = 1000000;         // a model figure only: the emulator runs a few hundred MFLOP/s
inline constexpr int kMemoryClockKhz = 1000000;
inline constexpr int kBusBits = 256;
inline constexpr int kL2Bytes = 4 << 20;
inline constexpr std::size_t kTotalMemory = kDeviceMemoryBytes;

// Records `error` as this thread's last error (what cudaGetLastError returns and clears) and returns it.
inline cudaError_t fail(cudaError_t error) {
  gpulab::emu::last_error() = static_cast<int>(error);
  return error;
}
// True when [p, p + bytes) lies inside one live device allocation (cuBLAS checks its operands with it).
inline bool device_range_ok(const void* p, std::size_t bytes) { return gpulab::emu::inside_allocation(p, bytes); }

// A library GEMM is a launch too: counted towards a simulated fault (device_behaviour.hpp). False after the fault:
// the GEMM must not run, its runtime error is the thread's last error, and the caller returns
// CUBLAS_STATUS_EXECUTION_FAILED, as cuBLAS does when its kernel cannot be launched.
inline bool library_launch_allowed() {
  if (const int fault = gpulab::emu::begin_launch()) {
    fail(static_cast<cudaError_t>(fault));
    return false;
  }
  return true;
}

// cudaErrorInvalidDevice unless `device` is 0, the only device.
bool valid_device(int device);

}  // namespace gpulab::emu::abi

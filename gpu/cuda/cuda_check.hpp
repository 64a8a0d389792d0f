#pragma once
// Checking CUDA runtime and cuBLAS calls. Every call in the module goes through one of these macros:
//   GPULAB_CUDA_CHECK(call)          throws CudaError(file, line, call text, code, name, message)
//   GPULAB_CUDA_CHECK_NOTHROW(call)  for destructors: reports on stderr and carries on (a destructor must not throw)
//   GPULAB_CUDA_CHECK_LAUNCH()       after a <<<...>>> launch: catches bad launch configurations at once
//   GPULAB_CUBLAS_CHECK(call)        throws CudaError for a cublasStatus_t (cuBLAS and cuBLASLt share the type)
// Library code never calls exit(): the error travels up to the experiment, which turns it into Result::error.
// Every failure that is thrown or reported first clears CUDA's last error when it is not sticky
// (cuda_error_policy.hpp), so a refused allocation is never reported again by the next launch check.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "cuda_error_policy.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace gpulab::cuda {

// cuda_error_policy.hpp names the sticky errors by number; the real enum must agree.
static_assert(cudaErrorIllegalAddress == 700 && cudaErrorLaunchTimeout == 702 && cudaErrorAssert == 710 &&
              cudaErrorHardwareStackError == 714 && cudaErrorIllegalInstruction == 715 &&
              cudaErrorMisalignedAddress == 716 && cudaErrorInvalidAddressSpace == 717 && cudaErrorInvalidPc == 718 &&
              cudaErrorLaunchFailure == 719 && cudaErrorMpsClientTerminated == 810);
// cudaErrorTensorMemoryLeak exists only from CUDA 12.8: an older runtime never returns 721, so the policy's number
// is harmless there, and naming the enum unguarded would stop every toolkit from 12.0 to 12.7 compiling the module.
// tests/cuda_names checks that every runtime/cuBLAS name used here is in CUDA 12.0 or sits under a guard like this.
#if CUDART_VERSION >= 12080
static_assert(cudaErrorTensorMemoryLeak == 721);
#endif
static_assert(!is_sticky_cuda_error(cudaErrorMemoryAllocation) && !is_sticky_cuda_error(cudaErrorLaunchOutOfResources));

// Resets a non-sticky last error after the call that raised it failed (a sticky one cannot be reset, and must not be).
inline void clear_after_failure(cudaError_t err) noexcept {
  clear_recoverable_error(static_cast<int>(err), [] { (void)cudaGetLastError(); });
}

class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& what, int code) : std::runtime_error(what), m_code(code) {}
  int code() const noexcept { return m_code; }

 private:
  int m_code;
};

inline std::string describe_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  return std::string("CUDA error ") + std::to_string(static_cast<int>(err)) + " (" + cudaGetErrorName(err) +
         ": " + cudaGetErrorString(err) + ") in " + call + " at " + file + ":" + std::to_string(line);
}

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  clear_after_failure(err);
  const std::string what = describe_cuda_error(err, call, file, line);
  StickyFaultRecord::instance().note(static_cast<int>(err), what);
  throw CudaError(what, static_cast<int>(err));
}

inline void report_cuda_error(cudaError_t err, const char* call, const char* file, int line) noexcept {
  // Only reached from destructors and cleanup paths; stderr is the one place left to say it.
  clear_after_failure(err);
  const std::string what = describe_cuda_error(err, call, file, line);
  StickyFaultRecord::instance().note(static_cast<int>(err), what);
  std::fprintf(stderr, "gpulab: %s (ignored during cleanup)\n", what.c_str());
}

[[noreturn]] inline void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  // A cuBLAS call fails with CUBLAS_STATUS_ALLOC_FAILED (or EXECUTION_FAILED) after a runtime call inside it failed;
  // that runtime error is still the thread's last error and would be blamed on the next launch.
  const cudaError_t runtime_error = cudaPeekAtLastError();
  clear_after_failure(runtime_error);
  if (is_sticky_cuda_error(static_cast<int>(runtime_error)))
    StickyFaultRecord::instance().note(static_cast<int>(runtime_error),
                                       describe_cuda_error(runtime_error, call, file, line));
  throw CudaError(std::string("cuBLAS error ") + std::to_string(static_cast<int>(status)) + " (" +
                      cublasGetStatusName(status) + ": " + cublasGetStatusString(status) + ") in " + call + " at " +
                      file + ":" + std::to_string(line),
                  static_cast<int>(status));
}

}  // namespace gpulab::cuda

#define GPULAB_CUDA_CHECK(call)                                                       \
  do {                                                                                \
    const cudaError_t gpulab_err_ = (call);                                           \
    if (gpulab_err_ != cudaSuccess)                                                   \
      ::gpulab::cuda::throw_cuda_error(gpulab_err_, #call, __FILE__, __LINE__);       \
  } while (0)

#define GPULAB_CUDA_CHECK_NOTHROW(call)                                               \
  do {                                                                                \
    const cudaError_t gpulab_err_ = (call);                                           \
    if (gpulab_err_ != cudaSuccess)                                                   \
      ::gpulab::cuda::report_cuda_error(gpulab_err_, #call, __FILE__, __LINE__);      \
  } while (0)

// cudaGetLastError also clears a non-sticky launch error, so the next check does not blame the wrong call. It reports
// only launch errors: every failed API call before it was cleared where it was thrown (clear_after_failure).
#define GPULAB_CUDA_CHECK_LAUNCH() GPULAB_CUDA_CHECK(cudaGetLastError())

#define GPULAB_CUBLAS_CHECK(call)                                                     \
  do {                                                                                \
    const cublasStatus_t gpulab_st_ = (call);                                         \
    if (gpulab_st_ != CUBLAS_STATUS_SUCCESS)                                          \
      ::gpulab::cuda::throw_cublas_error(gpulab_st_, #call, __FILE__, __LINE__);      \
  } while (0)

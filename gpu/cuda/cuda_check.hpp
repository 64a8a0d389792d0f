#pragma once
// Checking CUDA runtime and cuBLAS calls. Every call in the module goes through one of these macros:
//   GPULAB_CUDA_CHECK(call)          throws CudaError(file, line, call text, code, name, message)
//   GPULAB_CUDA_CHECK_NOTHROW(call)  for destructors: reports on stderr and carries on (a destructor must not throw)
//   GPULAB_CUDA_CHECK_LAUNCH()       after a <<<...>>> launch: catches bad launch configurations at once
//   GPULAB_CUBLAS_CHECK(call)        throws CudaError for a cublasStatus_t (cuBLAS and cuBLASLt share the type)
// Library code never calls exit(): the error travels up to the experiment, which turns it into Result::error.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace gpulab::cuda {

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
  throw CudaError(describe_cuda_error(err, call, file, line), static_cast<int>(err));
}

inline void report_cuda_error(cudaError_t err, const char* call, const char* file, int line) noexcept {
  // Only reached from destructors and cleanup paths; stderr is the one place left to say it.
  std::fprintf(stderr, "gpulab: %s (ignored during cleanup)\n", describe_cuda_error(err, call, file, line).c_str());
}

[[noreturn]] inline void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
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

// cudaGetLastError also clears a non-sticky launch error, so the next check does not blame the wrong call.
#define GPULAB_CUDA_CHECK_LAUNCH() GPULAB_CUDA_CHECK(cudaGetLastError())

#define GPULAB_CUBLAS_CHECK(call)                                                     \
  do {                                                                                \
    const cublasStatus_t gpulab_st_ = (call);                                         \
    if (gpulab_st_ != CUBLAS_STATUS_SUCCESS)                                          \
      ::gpulab::cuda::throw_cublas_error(gpulab_st_, #call, __FILE__, __LINE__);      \
  } while (0)

#pragma once
// Emulator shim for <cublas_v2.h>: only the names cuda_check.hpp and cuda_raii.hpp mention. cuBLAS itself is never
// emulated (it is NVIDIA's code, not the module's); every call reports CUBLAS_STATUS_NOT_SUPPORTED.
typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
} cublasStatus_t;
struct cublasContext;
typedef cublasContext* cublasHandle_t;

const char* cublasGetStatusName(cublasStatus_t status);
const char* cublasGetStatusString(cublasStatus_t status);
cublasStatus_t cublasCreate(cublasHandle_t* handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);

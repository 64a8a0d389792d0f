#pragma once
// Emulator shim for <cublasLt.h>: see cublas_v2.h beside it.
#include "cublas_v2.h"
struct cublasLtContext;
typedef cublasLtContext* cublasLtHandle_t;
cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle);

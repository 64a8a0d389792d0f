// Emulated cuBLAS: handles, stream and math-mode settings, and the GEMMs the module calls (cublasSgemm,
// cublasDgemm, cublasGemmEx for FP32 / TF32 / FP16 / BF16), computed on the CPU with cuBLAS's column-major
// semantics (gemm_engine.hpp). Only what is emulated succeeds; everything else says CUBLAS_STATUS_NOT_SUPPORTED.
#include "abi_common.hpp"
#include "gemm_engine.hpp"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstring>

using namespace gpulab::emu::abi;

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
};

namespace {

float tf32_round(float x) {  // nearest-even to 10 mantissa bits, as the inputs of a TF32 tensor-core product
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u & 0x7F800000u) != 0x7F800000u) {
    u += 0x0FFFu + ((u >> 13) & 1u);
    u &= 0xFFFFE000u;
  }
  std::memcpy(&x, &u, sizeof u);
  return x;
}

std::size_t element_bytes(cudaDataType t) {
  switch (t) {
    case CUDA_R_64F: return 8;
    case CUDA_R_32F: return 4;
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    default: return 0;
  }
}

cublasStatus_t refuse(const char* call, const char* why) {
  std::fprintf(stderr, "gpulab emulator: %s: %s\n", call, why);
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t unsupported(const char* call, const char* why) {
  std::fprintf(stderr, "gpulab emulator: %s: %s\n", call, why);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

// The checks cuBLAS makes (shape rules) plus the one a GPU makes the hard way: every operand inside its allocation.
cublasStatus_t check(const char* call, const GemmShape& s, const void* A, const void* B, const void* C,
                     std::size_t elem_a, std::size_t elem_c) {
  if (const char* e = gemm_shape_error(s)) return refuse(call, e);
  if (s.m == 0 || s.n == 0) return CUBLAS_STATUS_SUCCESS;
  if (s.k > 0 && (!device_range_ok(A, gemm_span_a(s) * elem_a) || !device_range_ok(B, gemm_span_b(s) * elem_a)))
    return refuse(call, "A or B (with its leading dimension) reaches outside its device allocation");
  if (!device_range_ok(C, gemm_span_c(s) * elem_c))
    return refuse(call, "C (with ldc) reaches outside its device allocation");
  return CUBLAS_STATUS_SUCCESS;
}

GemmShape shape(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, int lda, int ldb, int ldc) {
  return GemmShape{ta != CUBLAS_OP_N, tb != CUBLAS_OP_N, m, n, k, lda, ldb, ldc};
}

// C = alpha·op(A)·op(B) + beta·C for Acc = float or double; load/store convert between storage and Acc.
template <class Acc, class LoadA, class LoadB, class LoadC, class StoreC>
void run_gemm(const GemmShape& s, Acc alpha, Acc beta, LoadA load_a, LoadB load_b, LoadC load_c, StoreC store_c) {
  if (s.m == 0 || s.n == 0) return;
  std::vector<Acc> acc(static_cast<std::size_t>(s.m * s.n), Acc{});
  if (s.k > 0) {
    const auto Ap = pack_operand<Acc>(s.trans_a, s.m, s.k, s.lda, load_a);
    const auto Bp = pack_operand<Acc>(s.trans_b, s.k, s.n, s.ldb, load_b);
    acc = multiply_packed(Ap, Bp, s.m, s.n, s.k);
  }
  for (long long j = 0; j < s.n; ++j)
    for (long long i = 0; i < s.m; ++i) {
      const std::size_t c = static_cast<std::size_t>(i + j * s.ldc);
      Acc v = alpha * acc[static_cast<std::size_t>(i + j * s.m)];
      if (beta != Acc{}) v = v + beta * load_c(c);  // beta == 0: C is never read (it may be NaN poison)
      store_c(c, v);
    }
}

}  // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

// The version of the headers the emulator was built against: it emulates that library's interface.
cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!stream) return CUBLAS_STATUS_INVALID_VALUE;
  *stream = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->math;
  return CUBLAS_STATUS_SUCCESS;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_UNKNOWN";
  }
}

const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported (CPU emulator)";
    default: return "unknown error";
  }
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                              int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                              const float* beta, float* C, int ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  const GemmShape s = shape(transa, transb, m, n, k, lda, ldb, ldc);
  if (const cublasStatus_t st = check("cublasSgemm", s, A, B, C, 4, 4); st != CUBLAS_STATUS_SUCCESS) return st;
  if (!library_launch_allowed()) return CUBLAS_STATUS_EXECUTION_FAILED;
  const gpulab::emu::DeviceWork work("cublasSgemm");  // a simulated clock stretches the GEMM
  run_gemm<float>(s, *alpha, *beta, [&](std::size_t i) { return A[i]; }, [&](std::size_t i) { return B[i]; },
                  [&](std::size_t i) { return C[i]; }, [&](std::size_t i, float v) { C[i] = v; });
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                              int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                              const double* beta, double* C, int ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  const GemmShape s = shape(transa, transb, m, n, k, lda, ldb, ldc);
  if (const cublasStatus_t st = check("cublasDgemm", s, A, B, C, 8, 8); st != CUBLAS_STATUS_SUCCESS) return st;
  if (!library_launch_allowed()) return CUBLAS_STATUS_EXECUTION_FAILED;
  const gpulab::emu::DeviceWork work("cublasDgemm");  // a simulated clock stretches the GEMM
  run_gemm<double>(s, *alpha, *beta, [&](std::size_t i) { return A[i]; }, [&](std::size_t i) { return B[i]; },
                   [&](std::size_t i) { return C[i]; }, [&](std::size_t i, double v) { C[i] = v; });
  return CUBLAS_STATUS_SUCCESS;
}

// The combinations the module uses: A, B and C of one type (FP32, FP16 or BF16), FP32 compute (TF32 rounding of
// the inputs with CUBLAS_COMPUTE_32F_FAST_TF32), alpha/beta as float. Others: CUBLAS_STATUS_NOT_SUPPORTED.
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  const bool tf32 = computeType == CUBLAS_COMPUTE_32F_FAST_TF32;
  if (computeType != CUBLAS_COMPUTE_32F && !tf32 && computeType != CUBLAS_COMPUTE_32F_PEDANTIC)
    return unsupported("cublasGemmEx", "only FP32 compute types are emulated");
  if (Atype != Btype || Atype != Ctype || element_bytes(Atype) == 0 || Atype == CUDA_R_64F)
    return unsupported("cublasGemmEx", "only A, B, C all FP32, all FP16 or all BF16 are emulated");
  if (tf32 && Atype != CUDA_R_32F) return unsupported("cublasGemmEx", "TF32 compute needs FP32 operands");
  const GemmShape s = shape(transa, transb, m, n, k, lda, ldb, ldc);
  const std::size_t eb = element_bytes(Atype);
  if (const cublasStatus_t st = check("cublasGemmEx", s, A, B, C, eb, eb); st != CUBLAS_STATUS_SUCCESS) return st;
  if (!library_launch_allowed()) return CUBLAS_STATUS_EXECUTION_FAILED;
  const gpulab::emu::DeviceWork work("cublasGemmEx");
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  switch (Atype) {
    case CUDA_R_32F: {
      const auto* pa = static_cast<const float*>(A);
      const auto* pb = static_cast<const float*>(B);
      auto* pc = static_cast<float*>(C);
      auto in = [tf32](float v) { return tf32 ? tf32_round(v) : v; };
      run_gemm<float>(s, a, b, [&](std::size_t i) { return in(pa[i]); }, [&](std::size_t i) { return in(pb[i]); },
                      [&](std::size_t i) { return pc[i]; }, [&](std::size_t i, float v) { pc[i] = v; });
      break;
    }
    case CUDA_R_16F: {
      const auto* pa = static_cast<const __half*>(A);
      const auto* pb = static_cast<const __half*>(B);
      auto* pc = static_cast<__half*>(C);
      run_gemm<float>(s, a, b, [&](std::size_t i) { return __half2float(pa[i]); },
                      [&](std::size_t i) { return __half2float(pb[i]); },
                      [&](std::size_t i) { return __half2float(pc[i]); },
                      [&](std::size_t i, float v) { pc[i] = __float2half_rn(v); });
      break;
    }
    case CUDA_R_16BF: {
      const auto* pa = static_cast<const __nv_bfloat16*>(A);
      const auto* pb = static_cast<const __nv_bfloat16*>(B);
      auto* pc = static_cast<__nv_bfloat16*>(C);
      run_gemm<float>(s, a, b, [&](std::size_t i) { return __bfloat162float(pa[i]); },
                      [&](std::size_t i) { return __bfloat162float(pb[i]); },
                      [&](std::size_t i) { return __bfloat162float(pc[i]); },
                      [&](std::size_t i, float v) { pc[i] = __float2bfloat16_rn(v); });
      break;
    }
    default: return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"

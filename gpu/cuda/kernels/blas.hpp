#pragma once
// cuBLAS / cuBLASLt GEMMs in every precision the app shows (kernels/cublas.cu).
//
// Row-major trick: cuBLAS is column-major, and a row-major m×n matrix is the same memory as a column-major n×m
// one (its transpose). So row-major C = A·B is computed as the column-major product Cᵀ = Bᵀ·Aᵀ: swap the operands
// and m with n, and pass no transposes. The tensor-core INT8/FP8 paths of cuBLASLt accept only the "TN" layout,
// so for those the op stores B transposed (n×k row-major); see LtGemm.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

namespace gpulab::cuda::blas {

// The math mode every cuBLAS handle of the module gets (set_math_mode), named for the provenance.
inline constexpr const char* kMathModeName = "CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION";

// Sets the handle's math mode to plain FP32 (no TF32, no emulation) with reductions kept in the compute type.
// cublasSgemm under CUBLAS_DEFAULT_MATH never uses TF32 tensor cores; we set it explicitly anyway so a library
// default or an earlier caller cannot change what "FP32" means here. CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION
// stops split-K kernels from adding their partial sums in the 16-bit output type: FP16/BF16 results are then FP32
// sums rounded once, which is what the checks' tolerances assume (no effect on FP32/FP64 outputs).
void set_math_mode(cublasHandle_t h);

void sgemm(cublasHandle_t h, int m, int n, int k, const float* A, const float* B, float* C);
void dgemm(cublasHandle_t h, int m, int n, int k, const double* A, const double* B, double* C);
// FP32 storage, TF32 tensor cores (inputs rounded to 10 mantissa bits inside), FP32 accumulate: its own precision.
void tf32_gemm(cublasHandle_t h, int m, int n, int k, const float* A, const float* B, float* C);
// FP16 or BF16 in and out (type = CUDA_R_16F / CUDA_R_16BF), FP32 accumulate, through cublasGemmEx.
void half_gemm(cublasHandle_t h, cudaDataType type, int m, int n, int k, const void* A, const void* B, void* C);

// Row-major out (m×n) = in (m×k, rows lda apart) · W (k×n), all in `type` (CUDA_R_32F, CUDA_R_16F or
// CUDA_R_16BF), FP32 accumulate; tf32 = true lets FP32 use the TF32 tensor cores. For the layer chain.
void chain_gemm(cublasHandle_t h, cudaDataType type, bool tf32, int m, int n, int k, const void* in, int lda,
                const void* W, void* out);

// INT8 (int32 accumulate and output) or FP8 E4M3 (FP32 accumulate, BF16 output) through cuBLASLt.
// A: m×k row-major; Bt: Bᵀ, n×k row-major; C: m×n row-major. The algorithm is chosen once, at construction; for FP8
// only one whose split-K reduction (if any) runs in the FP32 compute type (CUBLASLT_REDUCTION_SCHEME_NONE or
// _COMPUTE_TYPE, never _INPLACE or _OUTPUT_TYPE, which add partial sums in BF16).
class LtGemm {
 public:
  enum class Kind { int8, fp8_e4m3 };
  LtGemm(cublasLtHandle_t h, Kind kind, int m, int n, int k);
  ~LtGemm();
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;
  void run(const void* A, const void* Bt, void* C, cudaStream_t stream);
  const std::string& algo_note() const { return m_note; }

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  std::string m_note;
};

}  // namespace gpulab::cuda::blas

// cuBLAS and cuBLASLt GEMMs: the library the hand-written ladder is measured against, and the only path to the
// tensor-core precisions (TF32, FP16, BF16, INT8, FP8). See blas.hpp for the row-major operand swap.
#include "../cuda_check.hpp"
#include "../cuda_raii.hpp"
#include "blas.hpp"

#include <cstdint>

namespace gpulab::cuda::blas {

void set_math_mode(cublasHandle_t h) {
  const auto mode = static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
  GPULAB_CUBLAS_CHECK(cublasSetMathMode(h, mode));
}

void sgemm(cublasHandle_t h, int m, int n, int k, const float* A, const float* B, float* C) {
  const float alpha = 1.0f, beta = 0.0f;
  GPULAB_CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, n, A, k, &beta, C, n));
}

void dgemm(cublasHandle_t h, int m, int n, int k, const double* A, const double* B, double* C) {
  const double alpha = 1.0, beta = 0.0;
  GPULAB_CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, n, A, k, &beta, C, n));
}

void tf32_gemm(cublasHandle_t h, int m, int n, int k, const float* A, const float* B, float* C) {
  const float alpha = 1.0f, beta = 0.0f;
  GPULAB_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, CUDA_R_32F, n, A, CUDA_R_32F, k,
                                   &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

void half_gemm(cublasHandle_t h, cudaDataType type, int m, int n, int k, const void* A, const void* B, void* C) {
  // FP32 accumulate (CUBLAS_COMPUTE_32F), as training frameworks do: with 16-bit accumulation long dot products
  // would lose most of their digits, which is a different lesson.
  const float alpha = 1.0f, beta = 0.0f;
  GPULAB_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, type, n, A, type, k, &beta, C,
                                   type, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void chain_gemm(cublasHandle_t h, cudaDataType type, bool tf32, int m, int n, int k, const void* in, int lda,
                const void* W, void* out) {
  const float alpha = 1.0f, beta = 0.0f;
  const cublasComputeType_t compute = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  GPULAB_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, W, type, n, in, type, lda, &beta, out,
                                   type, n, compute, CUBLAS_GEMM_DEFAULT));
}

// ---- cuBLASLt ----------------------------------------------------------------------------------------------------

namespace {
// The cuBLASLt descriptors, each owned once and destroyed in reverse order.
struct Descriptors {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  ~Descriptors() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;  // what cuBLAS itself reserves on Hopper
}  // namespace

struct LtGemm::Impl {
  cublasLtHandle_t handle = nullptr;
  Kind kind = Kind::int8;
  Descriptors d;
  cublasLtMatmulAlgo_t algo{};
  DeviceBuffer workspace{kWorkspaceBytes};
};

LtGemm::LtGemm(cublasLtHandle_t h, Kind kind, int m, int n, int k) : m_impl(std::make_unique<Impl>()) {
  Impl& s = *m_impl;
  s.handle = h;
  s.kind = kind;
  const bool int8 = kind == Kind::int8;
  const cublasComputeType_t compute = int8 ? CUBLAS_COMPUTE_32I : CUBLAS_COMPUTE_32F;
  const cudaDataType scale = int8 ? CUDA_R_32I : CUDA_R_32F;
  const cudaDataType in_type = int8 ? CUDA_R_8I : CUDA_R_8F_E4M3;
  const cudaDataType out_type = int8 ? CUDA_R_32I : CUDA_R_16BF;
  GPULAB_CUBLAS_CHECK(cublasLtMatmulDescCreate(&s.d.op, compute, scale));
  // Column-major view: D (n×m) = op(A') · op(B') with A' = Bt seen as k×n (transposed → n×k) and B' = A seen as k×m.
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  GPULAB_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(s.d.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)));
  GPULAB_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(s.d.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)));
  GPULAB_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&s.d.a, in_type, k, n, k));
  GPULAB_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&s.d.b, in_type, k, m, k));
  GPULAB_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&s.d.c, out_type, n, m, n));
  GPULAB_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&s.d.pref));
  const std::size_t ws = kWorkspaceBytes;
  GPULAB_CUBLAS_CHECK(
      cublasLtMatmulPreferenceSetAttribute(s.d.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)));
  if (!int8) {
    // FP8 writes BF16: split-K partial sums may only be added in the FP32 compute type. The mask filters the
    // heuristic's candidates; NONE (no split) has no bit and cannot be masked out. INT8 needs no mask: its
    // output type is the int32 accumulator, and integer sums are exact in any order.
    const std::uint32_t mask = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
    GPULAB_CUBLAS_CHECK(
        cublasLtMatmulPreferenceSetAttribute(s.d.pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &mask, sizeof(mask)));
  }
  constexpr int kCandidates = 8;
  cublasLtMatmulHeuristicResult_t results[kCandidates] = {};
  int found = 0;
  GPULAB_CUBLAS_CHECK(
      cublasLtMatmulAlgoGetHeuristic(h, s.d.op, s.d.a, s.d.b, s.d.c, s.d.c, s.d.pref, kCandidates, results, &found));
  // Belt and braces for FP8: take the first candidate whose configured reduction scheme really is NONE or
  // COMPUTE_TYPE, whatever the mask did.
  int chosen = -1;
  std::uint32_t scheme = CUBLASLT_REDUCTION_SCHEME_NONE;
  for (int i = 0; i < found && chosen < 0; ++i) {
    if (results[i].state != CUBLAS_STATUS_SUCCESS) continue;
    std::uint32_t sc = CUBLASLT_REDUCTION_SCHEME_NONE;
    std::size_t written = 0;
    GPULAB_CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&results[i].algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME,
                                                             &sc, sizeof(sc), &written));
    if (int8 || sc == CUBLASLT_REDUCTION_SCHEME_NONE || sc == CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE) {
      chosen = i;
      scheme = sc;
    }
  }
  if (chosen < 0)
    throw CudaError(std::string("cuBLASLt offers no ") + (int8 ? "INT8" : "FP8") + " algorithm for " +
                        std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                        (int8 ? "" : " that keeps its split-K sums in FP32") + " on this GPU",
                    static_cast<int>(CUBLAS_STATUS_NOT_SUPPORTED));
  s.algo = results[chosen].algo;
  // What the heuristic chose, as cuBLASLt describes its configuration: a recording made on another driver (or
  // after an update) can then say whether the same kernel ran. A field the library does not report says so.
  auto config = [&s](cublasLtMatmulAlgoConfigAttributes_t attr) -> std::string {
    std::uint32_t value = 0;
    std::size_t written = 0;
    const cublasStatus_t st = cublasLtMatmulAlgoConfigGetAttribute(&s.algo, attr, &value, sizeof(value), &written);
    return st == CUBLAS_STATUS_SUCCESS && written == sizeof(value) ? std::to_string(value) : std::string("not reported");
  };
  const std::string which = "heuristic algo #" + std::to_string(chosen + 1) + " (id " + config(CUBLASLT_ALGO_CONFIG_ID) +
                            ", tile " + config(CUBLASLT_ALGO_CONFIG_TILE_ID) + ", stages " +
                            config(CUBLASLT_ALGO_CONFIG_STAGES_ID) + ", split-K " +
                            config(CUBLASLT_ALGO_CONFIG_SPLITK_NUM) + ", swizzle " +
                            config(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING) + "), reduction " +
                            (scheme == CUBLASLT_REDUCTION_SCHEME_NONE ? "none" : std::to_string(scheme));
  m_note = int8 ? "cuBLASLt INT8 TN, int32 accumulate, int32 out, " + which
                : "cuBLASLt FP8 E4M3 TN, FP32 accumulate (fast-accum off), BF16 out, scales 1, " + which;
}

LtGemm::~LtGemm() = default;

void LtGemm::run(const void* A, const void* Bt, void* C, cudaStream_t stream) {
  Impl& s = *m_impl;
  if (s.kind == Kind::int8) {
    const std::int32_t alpha = 1, beta = 0;
    GPULAB_CUBLAS_CHECK(cublasLtMatmul(s.handle, s.d.op, &alpha, Bt, s.d.a, A, s.d.b, &beta, C, s.d.c, C, s.d.c,
                                       &s.algo, s.workspace.get(), s.workspace.bytes(), stream));
  } else {
    const float alpha = 1.0f, beta = 0.0f;
    GPULAB_CUBLAS_CHECK(cublasLtMatmul(s.handle, s.d.op, &alpha, Bt, s.d.a, A, s.d.b, &beta, C, s.d.c, C, s.d.c,
                                       &s.algo, s.workspace.get(), s.workspace.bytes(), stream));
  }
}

}  // namespace gpulab::cuda::blas

// Emulated cuBLASLt: the descriptor calls the module makes, and cublasLtMatmul for INT8 (int8 in, int32
// accumulate and out, column-major, any transposes) on the CPU. FP8 is not emulated: the heuristic query offers no
// algorithm and returns CUBLAS_STATUS_NOT_SUPPORTED, as cuBLASLt does for a combination it cannot run.
#include "abi_common.hpp"
#include "gemm_engine.hpp"

#include <cublasLt.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace gpulab::emu::abi;

struct cublasLtContext {
  int unused = 0;
};

namespace {

// The descriptors are opaque to callers: each handle points at one of these (never at NVIDIA's opaque storage).
struct MatmulDesc {
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cudaDataType scale = CUDA_R_32F;
  cublasOperation_t trans_a = CUBLAS_OP_N, trans_b = CUBLAS_OP_N;
};
struct Layout {
  cudaDataType type = CUDA_R_32F;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
};
struct Preference {
  std::size_t max_workspace = 0;
};

MatmulDesc* desc(cublasLtMatmulDesc_t d) { return reinterpret_cast<MatmulDesc*>(d); }
Layout* layout(cublasLtMatrixLayout_t l) { return reinterpret_cast<Layout*>(l); }

template <class T>
cublasStatus_t set_value(T& field, const void* buf, std::size_t size) {
  if (!buf || size != sizeof(T)) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(&field, buf, sizeof(T));
  return CUBLAS_STATUS_SUCCESS;
}

bool is_int8(const MatmulDesc& d, const Layout& a, const Layout& b, const Layout& c) {
  return d.compute == CUBLAS_COMPUTE_32I && d.scale == CUDA_R_32I && a.type == CUDA_R_8I && b.type == CUDA_R_8I &&
         c.type == CUDA_R_32I;
}

}  // namespace

extern "C" {

std::size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }  // cuBLASLt ships with, and as, cuBLAS

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new cublasLtContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* d, cublasComputeType_t compute, cudaDataType_t scale) {
  if (!d) return CUBLAS_STATUS_INVALID_VALUE;
  *d = reinterpret_cast<cublasLtMatmulDesc_t>(new MatmulDesc{compute, scale});
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) {
  delete desc(d);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr,
                                              const void* buf, std::size_t size) {
  if (!d) return CUBLAS_STATUS_INVALID_VALUE;
  switch (attr) {
    case CUBLASLT_MATMUL_DESC_TRANSA: return set_value(desc(d)->trans_a, buf, size);
    case CUBLASLT_MATMUL_DESC_TRANSB: return set_value(desc(d)->trans_b, buf, size);
    default:
      std::fprintf(stderr, "gpulab emulator: cublasLtMatmulDescSetAttribute: attribute %d is not emulated\n",
                   static_cast<int>(attr));
      return CUBLAS_STATUS_NOT_SUPPORTED;
  }
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* l, cudaDataType type, std::uint64_t rows,
                                          std::uint64_t cols, std::int64_t ld) {
  if (!l) return CUBLAS_STATUS_INVALID_VALUE;
  if (ld < static_cast<std::int64_t>(rows)) return CUBLAS_STATUS_INVALID_VALUE;  // column-major: ld >= rows
  *l = reinterpret_cast<cublasLtMatrixLayout_t>(new Layout{type, rows, cols, ld});
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) {
  delete layout(l);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  *pref = reinterpret_cast<cublasLtMatmulPreference_t>(new Preference);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  delete reinterpret_cast<Preference*>(pref);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                                                    std::size_t size) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  if (attr == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES)
    return set_value(reinterpret_cast<Preference*>(pref)->max_workspace, buf, size);
  if (!buf) return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;  // filters (e.g. the reduction-scheme mask): the one emulated algorithm never splits k
}

// One algorithm for INT8 (no split-K, no workspace); nothing for any other combination, FP8 included.
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t op,
                                              cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                              cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                                              cublasLtMatmulPreference_t, int requested,
                                              cublasLtMatmulHeuristicResult_t* results, int* found) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!op || !a || !b || !c || !d || !results || !found || requested < 1) return CUBLAS_STATUS_INVALID_VALUE;
  *found = 0;
  if (!is_int8(*desc(op), *layout(a), *layout(b), *layout(c))) {
    std::fprintf(stderr, "gpulab emulator: cuBLASLt: only INT8 (int32 accumulate and out) is emulated\n");
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  std::memset(&results[0], 0, sizeof(results[0]));
  results[0].state = CUBLAS_STATUS_SUCCESS;
  results[0].wavesCount = 1.0f;
  *found = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t* algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr, void* buf,
                                                    std::size_t size, std::size_t* written) {
  if (!algo) return CUBLAS_STATUS_INVALID_VALUE;
  if (attr != CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME) return CUBLAS_STATUS_NOT_SUPPORTED;
  const std::uint32_t none = CUBLASLT_REDUCTION_SCHEME_NONE;
  if (size == 0) {
    if (!written) return CUBLAS_STATUS_INVALID_VALUE;
    *written = sizeof(none);
    return CUBLAS_STATUS_SUCCESS;
  }
  if (!buf || size != sizeof(none)) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(buf, &none, sizeof(none));
  if (written) *written = sizeof(none);
  return CUBLAS_STATUS_SUCCESS;
}

// D = alpha·op(A)·op(B) + beta·C with the layouts' column-major shapes; C and D must share a layout (as the module
// uses it, in place).
cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t op, const void* alpha, const void* A,
                              cublasLtMatrixLayout_t a_desc, const void* B, cublasLtMatrixLayout_t b_desc,
                              const void* beta, const void* C, cublasLtMatrixLayout_t c_desc, void* D,
                              cublasLtMatrixLayout_t d_desc, const cublasLtMatmulAlgo_t*, void*, std::size_t,
                              cudaStream_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!op || !alpha || !beta || !a_desc || !b_desc || !c_desc || !d_desc) return CUBLAS_STATUS_INVALID_VALUE;
  const MatmulDesc& m = *desc(op);
  const Layout &la = *layout(a_desc), &lb = *layout(b_desc), &lc = *layout(c_desc), &ld = *layout(d_desc);
  if (!is_int8(m, la, lb, lc) || ld.type != CUDA_R_32I) return CUBLAS_STATUS_NOT_SUPPORTED;
  GemmShape s;
  s.trans_a = m.trans_a != CUBLAS_OP_N;
  s.trans_b = m.trans_b != CUBLAS_OP_N;
  s.m = static_cast<long long>(s.trans_a ? la.cols : la.rows);
  s.k = static_cast<long long>(s.trans_a ? la.rows : la.cols);
  s.n = static_cast<long long>(s.trans_b ? lb.rows : lb.cols);
  const long long kb = static_cast<long long>(s.trans_b ? lb.cols : lb.rows);
  if (kb != s.k || static_cast<long long>(lc.rows) != s.m || static_cast<long long>(lc.cols) != s.n ||
      lc.rows != ld.rows || lc.cols != ld.cols || lc.ld != ld.ld) {
    std::fprintf(stderr, "gpulab emulator: cublasLtMatmul: the layouts' shapes do not fit together\n");
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  s.lda = la.ld;
  s.ldb = lb.ld;
  s.ldc = lc.ld;
  if (gemm_shape_error(s)) return CUBLAS_STATUS_INVALID_VALUE;
  if (!device_range_ok(A, gemm_span_a(s)) || !device_range_ok(B, gemm_span_b(s)) ||
      !device_range_ok(D, gemm_span_c(s) * 4)) {
    std::fprintf(stderr, "gpulab emulator: cublasLtMatmul: an operand reaches outside its device allocation\n");
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (!library_launch_allowed()) return CUBLAS_STATUS_EXECUTION_FAILED;
  const gpulab::emu::DeviceWork work("cublasLtMatmul");  // a simulated clock stretches the GEMM
  const auto* pa = static_cast<const std::int8_t*>(A);
  const auto* pb = static_cast<const std::int8_t*>(B);
  const auto* pc = static_cast<const std::int32_t*>(C);
  auto* pd = static_cast<std::int32_t*>(D);
  const std::int32_t al = *static_cast<const std::int32_t*>(alpha), be = *static_cast<const std::int32_t*>(beta);
  const auto Ap = pack_operand<std::int32_t>(s.trans_a, s.m, s.k, s.lda, [&](std::size_t i) { return pa[i]; });
  const auto Bp = pack_operand<std::int32_t>(s.trans_b, s.k, s.n, s.ldb, [&](std::size_t i) { return pb[i]; });
  const auto acc = multiply_packed(Ap, Bp, s.m, s.n, s.k);
  for (long long j = 0; j < s.n; ++j)
    for (long long i = 0; i < s.m; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * s.ldc);
      std::int32_t v = al * acc[static_cast<std::size_t>(i + j * s.m)];
      if (be != 0) v += be * pc[at];
      pd[at] = v;
    }
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"

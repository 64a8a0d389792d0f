#pragma once
// The arithmetic behind the emulated cuBLAS/cuBLASLt GEMMs, with cuBLAS's column-major semantics:
//   C = alpha · op(A) · op(B) + beta · C,  op(A) m×k, op(B) k×n, C m×n, element (i, j) of a matrix X with leading
//   dimension ldx at X[i + j·ldx]; op(X) = X (CUBLAS_OP_N) or Xᵀ (CUBLAS_OP_T / _C, real types). A with OP_N is
//   lda×k and needs lda >= max(1, m), with OP_T it is lda×m and needs lda >= max(1, k); B likewise (ldb >= k for
//   OP_N, >= n for OP_T); ldc >= max(1, m). With beta == 0, C is not read (it may hold NaN poison).
// Sums run in the accumulator type, in order over k, as one FMA-free multiply-add per term: a plain FP32 sum that
// the module's tolerances (FP32 accumulation) must accept, not a more exact one that would hide a bad tolerance.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpulab::emu::abi {

struct GemmShape {
  bool trans_a = false, trans_b = false;
  long long m = 0, n = 0, k = 0;
  long long lda = 0, ldb = 0, ldc = 0;
};

// 0 when the shape is valid, else a description of the first broken rule.
const char* gemm_shape_error(const GemmShape& s);
// Elements an operand spans in memory (for the allocation check): ld·(columns − 1) + rows.
std::size_t gemm_span_a(const GemmShape& s);
std::size_t gemm_span_b(const GemmShape& s);
std::size_t gemm_span_c(const GemmShape& s);

// Packs op(X) (rows × cols of the *operated* matrix) into column-major, contiguous, converted to Acc by `load`.
template <class Acc, class Load>
std::vector<Acc> pack_operand(bool trans, long long rows, long long cols, long long ld, Load load) {
  std::vector<Acc> out(static_cast<std::size_t>(rows * cols));
  for (long long j = 0; j < cols; ++j)
    for (long long i = 0; i < rows; ++i) {
      const long long src = trans ? j + i * ld : i + j * ld;  // op(X)(i, j) = X(j, i) when transposed
      out[static_cast<std::size_t>(i + j * rows)] = load(static_cast<std::size_t>(src));
    }
  return out;
}

// acc (m×n column-major) = Ap (m×k) · Bp (k×n), summed in order over k. The inner loop runs down a column of Ap,
// so the compiler vectorises it without reassociating any sum.
template <class Acc>
std::vector<Acc> multiply_packed(const std::vector<Acc>& Ap, const std::vector<Acc>& Bp, long long m, long long n,
                                 long long k) {
  std::vector<Acc> acc(static_cast<std::size_t>(m * n), Acc{});
  for (long long j = 0; j < n; ++j) {
    Acc* c = acc.data() + j * m;
    for (long long l = 0; l < k; ++l) {
      const Acc b = Bp[static_cast<std::size_t>(l + j * k)];
      const Acc* a = Ap.data() + l * m;
      for (long long i = 0; i < m; ++i) c[i] = c[i] + a[i] * b;
    }
  }
  return acc;
}

}  // namespace gpulab::emu::abi

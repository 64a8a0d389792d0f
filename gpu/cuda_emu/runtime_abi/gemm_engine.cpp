// Shape rules of the emulated GEMMs (gemm_engine.hpp): cuBLAS's own argument checks.
#include "gemm_engine.hpp"

#include <algorithm>

namespace gpulab::emu::abi {

const char* gemm_shape_error(const GemmShape& s) {
  if (s.m < 0 || s.n < 0 || s.k < 0) return "m, n and k must not be negative";
  if (s.lda < std::max(1LL, s.trans_a ? s.k : s.m)) return "lda is smaller than the rows of A as stored";
  if (s.ldb < std::max(1LL, s.trans_b ? s.n : s.k)) return "ldb is smaller than the rows of B as stored";
  if (s.ldc < std::max(1LL, s.m)) return "ldc is smaller than m";
  return nullptr;
}

namespace {
std::size_t span(long long rows, long long cols, long long ld) {
  if (rows <= 0 || cols <= 0) return 0;
  return static_cast<std::size_t>(ld * (cols - 1) + rows);
}
}  // namespace

// As stored: A is (m×k) with OP_N, (k×m) with OP_T; B is (k×n) or (n×k).
std::size_t gemm_span_a(const GemmShape& s) { return s.trans_a ? span(s.k, s.m, s.lda) : span(s.m, s.k, s.lda); }
std::size_t gemm_span_b(const GemmShape& s) { return s.trans_b ? span(s.n, s.k, s.ldb) : span(s.k, s.n, s.ldb); }
std::size_t gemm_span_c(const GemmShape& s) { return span(s.m, s.n, s.ldc); }

}  // namespace gpulab::emu::abi

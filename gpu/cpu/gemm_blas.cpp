// OpenBLAS GEMM: what a tuned library gets out of the same CPU (blocked for the caches, packed, hand-written
// micro-kernels, all cores). Optional at build time: without it the "blas" variant says why it is missing.
#include "cpu_internal.hpp"

#include <stdexcept>
#include <string>

#ifdef GPULAB_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace gpulab::cpu {

#ifdef GPULAB_HAVE_OPENBLAS
namespace {

std::string trimmed(const char* s) {
  std::string t = s ? s : "";
  const auto b = t.find_first_not_of(' ');
  const auto e = t.find_last_not_of(' ');
  return b == std::string::npos ? "" : t.substr(b, e - b + 1);
}

// OpenBLAS keeps one global thread count; set it on every call because another experiment (or the direct-call
// control) may have changed it since.
void set_threads(int threads) { openblas_set_num_threads(resolve_threads(threads)); }

}  // namespace

bool blas_available() { return true; }

std::string blas_version() {
  std::string v = trimmed(OPENBLAS_VERSION);  // " OpenBLAS 0.3.21 "
  const std::string prefix = "OpenBLAS ";
  return v.rfind(prefix, 0) == 0 ? v.substr(prefix.size()) : v;
}
std::string blas_config() { return trimmed(openblas_get_config()); }
std::string blas_core() { return trimmed(openblas_get_corename()); }

void gemm_blas(const float* A, const float* B, float* C, long long m, long long n, long long k, int threads) {
  set_threads(threads);
  // beta = 0: C is overwritten, so the NaN poison must disappear if every cell is written.
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0f, A, static_cast<blasint>(k), B, static_cast<blasint>(n), 0.0f, C,
              static_cast<blasint>(n));
}

void gemm_blas(const double* A, const double* B, double* C, long long m, long long n, long long k, int threads) {
  set_threads(threads);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0, A, static_cast<blasint>(k), B, static_cast<blasint>(n), 0.0, C,
              static_cast<blasint>(n));
}

#else

bool blas_available() { return false; }
std::string blas_version() { return ""; }
std::string blas_config() { return ""; }
std::string blas_core() { return ""; }

void gemm_blas(const float*, const float*, float*, long long, long long, long long, int) {
  throw std::runtime_error("This build of gpulab has no OpenBLAS: the BLAS variant is not available");
}
void gemm_blas(const double*, const double*, double*, long long, long long, long long, int) {
  throw std::runtime_error("This build of gpulab has no OpenBLAS: the BLAS variant is not available");
}

#endif

}  // namespace gpulab::cpu

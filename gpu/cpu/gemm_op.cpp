// One prepared CPU GEMM: owns A, B, C, fills the inputs once from the seed, poisons C before every run.
#include "cpu_internal.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::cpu {
namespace {

enum class Kernel { naive, reordered, blas };

Kernel kernel_from(const std::string& variant) {
  if (variant == "naive") return Kernel::naive;
  if (variant == "reordered") return Kernel::reordered;
  if (variant == "blas") return Kernel::blas;
  throw std::invalid_argument("Unknown CPU GEMM variant \"" + variant + "\" (choose naive, reordered or blas)");
}

template <typename T>
class GemmOp final : public TimedOp {
 public:
  GemmOp(const GemmSpec& spec, Kernel kernel)
      : m_m(spec.m), m_n(spec.n), m_k(spec.k), m_threads(spec.threads), m_kernel(kernel),
        m_precision(spec.precision),
        m_a(static_cast<std::size_t>(spec.m * spec.k)),
        m_b(static_cast<std::size_t>(spec.k * spec.n)),
        m_c(static_cast<std::size_t>(spec.m * spec.n)) {
    // Two different streams from one seed, so A and B are not the same numbers.
    fill_random(m_a.data(), m_a.size(), spec.seed);
    fill_random(m_b.data(), m_b.size(), spec.seed ^ 0xB0B0'B0B0'B0B0'B0B0ULL);
  }

  Check verify() override {
    compute();
    return check_gemm(m_a.data(), m_b.data(), m_c.data(), m_m, m_n, m_k, default_atol(m_precision, m_k),
                      default_rtol(m_precision, m_k));
  }

  double run_once() override {
    poison();  // outside the timed region: it is not part of the product
    const auto t0 = std::chrono::steady_clock::now();
    run_kernel();
    const auto t1 = std::chrono::steady_clock::now();
    // A sink, so the product cannot be optimised away even if nothing reads C afterwards.
    m_sink = m_c[m_c.size() / 2];
    return std::chrono::duration<double>(t1 - t0).count();
  }

  double flops() const override { return 2.0 * m_m * m_n * m_k; }
  double bytes() const override {
    return (static_cast<double>(m_m) * m_k + static_cast<double>(m_k) * m_n + static_cast<double>(m_m) * m_n) *
           sizeof(T);
  }

 private:
  void poison() { std::fill(m_c.begin(), m_c.end(), std::numeric_limits<T>::quiet_NaN()); }
  void compute() {
    poison();
    run_kernel();
  }
  void run_kernel() {
    switch (m_kernel) {
      case Kernel::naive: gemm_naive(m_a.data(), m_b.data(), m_c.data(), m_m, m_n, m_k); break;
      case Kernel::reordered: gemm_reordered(m_a.data(), m_b.data(), m_c.data(), m_m, m_n, m_k); break;
      case Kernel::blas: gemm_blas(m_a.data(), m_b.data(), m_c.data(), m_m, m_n, m_k, m_threads); break;
    }
  }

  long long m_m, m_n, m_k;
  int m_threads;
  Kernel m_kernel;
  Precision m_precision;
  std::vector<T> m_a, m_b, m_c;
  volatile T m_sink = 0;
};

std::string dims(const GemmSpec& s) {
  return std::to_string(s.m) + "\u00d7" + std::to_string(s.n) + "\u00d7" + std::to_string(s.k);
}

}  // namespace

std::unique_ptr<TimedOp> make_gemm_op(const GemmSpec& spec) {
  if (spec.m < 1 || spec.n < 1 || spec.k < 1)
    throw std::invalid_argument("GEMM sizes must be at least 1 (got m\u00d7n\u00d7k = " + dims(spec) + ")");
  const Kernel kernel = kernel_from(spec.variant);
  if (spec.precision != Precision::fp32 && spec.precision != Precision::fp64)
    throw std::invalid_argument("The CPU backend runs GEMM in FP32 and FP64 only, not " +
                                std::string(display_name(spec.precision)));
  resolve_threads(spec.threads);  // validates
  if (kernel == Kernel::blas) {
    if (!blas_available())
      throw std::runtime_error("This build of gpulab has no OpenBLAS: the BLAS variant is not available");
    if (spec.m > INT_MAX || spec.n > INT_MAX || spec.k > INT_MAX)
      throw std::invalid_argument("GEMM " + dims(spec) + " exceeds OpenBLAS's 32-bit dimension limit");
  }
  const double elems = static_cast<double>(spec.m) * spec.k + static_cast<double>(spec.k) * spec.n +
                       static_cast<double>(spec.m) * spec.n;
  // In double, so absurd sizes cannot overflow before they are refused.
  require_fits_in_memory(elems * bytes_per_element(spec.precision),
                         "GEMM " + dims(spec) + " in " + std::string(display_name(spec.precision)) + " (A, B and C)");
  if (spec.precision == Precision::fp64) return std::make_unique<GemmOp<double>>(spec, kernel);
  return std::make_unique<GemmOp<float>>(spec, kernel);
}

}  // namespace gpulab::cpu

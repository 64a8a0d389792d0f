// One prepared CPU GEMM: owns A, B, C, fills the inputs once from the seed, poisons C before every run.
#include "cpu_internal.hpp"
#include "host_array.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <cmath>
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
  // How many OpenBLAS calls the last run made: one, unless the product was cut into bands (run_blas).
  void describe(Params& params, Provenance&) const override {
    if (m_kernel == Kernel::blas) params["blas_calls_per_run"] = static_cast<double>(m_blas_calls);
  }

 private:
  void poison() { fill_value(m_c, std::numeric_limits<T>::quiet_NaN()); }
  void compute() {
    poison();
    run_kernel();
  }
  void run_kernel() {
    switch (m_kernel) {
      case Kernel::naive: gemm_naive(m_a.data(), m_b.data(), m_c.data(), m_m, m_n, m_k); break;
      case Kernel::reordered: gemm_reordered(m_a.data(), m_b.data(), m_c.data(), m_m, m_n, m_k); break;
      case Kernel::blas: run_blas(); break;
    }
  }
  // One OpenBLAS call cannot be interrupted, and 4096³ on one core takes seconds. Work that one call would keep
  // past the cancel window is cut into bands of whole rows of C, with a look at the stop token between bands; work
  // that one call finishes well inside it stays one call, because every cut costs speed: cut at a fixed 2 GFLOP,
  // 1024³ (2.1 GFLOP, ~11 ms here) ran as three calls at 0.86–0.97× the same OpenBLAS through numpy (1.05× whole).
  // Which is which is decided by time, estimated from the CPU's measured FMA peak (see blas_first_band), and the
  // bands after the first are sized from the last one's rate to take ~0.1 s, so a cancel lands within ~0.1 s on a
  // fast core and on a slow, shared one alike (a fixed 8 GFLOP band took 0.5 s on a busy 2-core CI machine). A
  // band stays at least 32 rows so OpenBLAS still runs its usual blocked kernel.
  void run_blas() {
    constexpr double band_target_s = 0.1;
    constexpr long long min_band = 32;
    if (m_first_band == 0) m_first_band = blas_first_band(band_target_s, min_band);
    m_blas_calls = 0;
    long long band = m_first_band;
    for (long long i0 = 0; i0 < m_m;) {
      throw_if_cancelled();
      const long long rows = std::min(band, m_m - i0);
      const auto t0 = std::chrono::steady_clock::now();
      gemm_blas(m_a.data() + i0 * m_k, m_b.data(), m_c.data() + i0 * m_n, rows, m_n, m_k, m_threads);
      ++m_blas_calls;
      const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      i0 += rows;
      if (took_s > 0) {
        const double next = static_cast<double>(rows) * band_target_s / took_s;
        band = std::clamp<long long>(static_cast<long long>(next), min_band, std::max(min_band, 2 * rows));
      }
    }
  }

  // The first band's rows: all of them (one call) when the whole product, at the measured FMA peak of the threads
  // it runs on, would take under half the cancel window (the other half is for OpenBLAS below the FMA peak and a
  // machine shared with other programs); else rows for about `target_s`. The peak is the process's (measured once,
  // at first use; the app and the bench take it at start-up). Without a peak, the old rule: one call up to 2 GFLOP,
  // then bands of ~1 GFLOP.
  long long blas_first_band(double target_s, long long min_band) const {
    constexpr double one_call_under_s = 0.25;  // half the 0.5 s cancel window
    const double row_flops = 2.0 * static_cast<double>(m_n) * static_cast<double>(m_k);
    const double total_flops = row_flops * static_cast<double>(m_m);
    const FmaPeak peak = measured_fma_peak();
    const double all_threads_gflops = m_precision == Precision::fp64 ? peak.gflops_fp64 : peak.gflops_fp32;
    const int threads = resolve_threads(m_threads);
    const double rate = all_threads_gflops * 1e9 * std::min(1.0, static_cast<double>(threads) / std::max(1, peak.threads));
    if (!(rate > 0)) {
      if (total_flops <= 2e9) return m_m;
      return std::max<long long>(min_band, static_cast<long long>(1e9 / row_flops));
    }
    if (total_flops / rate <= one_call_under_s) return m_m;
    return std::clamp<long long>(static_cast<long long>(target_s * rate / row_flops), min_band, m_m);
  }

  long long m_m, m_n, m_k;
  int m_threads;
  Kernel m_kernel;
  Precision m_precision;
  long long m_first_band = 0;  // rows of the first BLAS band (m_m: one call); set at the first run
  int m_blas_calls = 0;        // OpenBLAS calls in the last run
  HostArray<T> m_a, m_b, m_c;  // not zeroed: the fills below are the first touch, and they answer a cancel
  volatile T m_sink = 0;
};

std::string dims(const GemmSpec& s) {
  return std::to_string(s.m) + "\u00d7" + std::to_string(s.n) + "\u00d7" + std::to_string(s.k);
}

// The estimate's probe: times the kernel on a band of rows of the very product the run will compute (B full size,
// so every dot product walks B with the run's stride and meets the caches as the run will). Returns GFLOP/s and sets
// `rows` to the rows of the timed band. A small B (in cache) gets one untimed band first, so the timed one runs warm
// as the run's samples do; a large B is swept from memory by every row anyway.
template <typename T>
double probe_band(const GemmSpec& spec, Kernel kernel, double target_s, long long& rows) {
  const long long m = spec.m, n = spec.n, k = spec.k;
  std::vector<T> b(static_cast<std::size_t>(k * n));
  fill_random(b.data(), b.size(), spec.seed ^ 0xB0B0'B0B0'B0B0'B0B0ULL);
  const double row_flops = 2.0 * static_cast<double>(n) * static_cast<double>(k);
  auto band = [&](long long r) {
    std::vector<T> a(static_cast<std::size_t>(r * k));
    std::vector<T> c(static_cast<std::size_t>(r * n), T(0));
    fill_random(a.data(), a.size(), spec.seed);
    const auto t0 = std::chrono::steady_clock::now();
    if (kernel == Kernel::naive) gemm_naive(a.data(), b.data(), c.data(), r, n, k);
    else gemm_reordered(a.data(), b.data(), c.data(), r, n, k);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    volatile T sink = c[c.size() / 2];
    (void)sink;
    return std::max(t, 1e-9);
  };
  // First band: about 1 MFLOP (at least one row), enough to read a rate off.
  long long r = std::clamp<long long>(static_cast<long long>(std::ceil(1e6 / row_flops)), 1, m);
  double t = band(r);
  const bool b_in_cache = static_cast<double>(k) * static_cast<double>(n) * sizeof(T) <= 8.0 * 1024 * 1024;
  const long long want = std::clamp<long long>(
      static_cast<long long>(std::llround(target_s / (t / static_cast<double>(r)))), 1, m);
  if (b_in_cache || want > 2 * r) {
    r = want;
    t = band(r);
  }
  rows = r;
  return row_flops * static_cast<double>(r) / t / 1e9;
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

namespace gpulab {

RunEstimate estimate_cpu_gemm(const GemmSpec& spec, const MeasurePolicy& policy, double probe_s) {
  if (spec.variant != "naive" && spec.variant != "reordered")
    return estimate_gemm_from_rate(spec, policy, 0, "no probe for the " + spec.variant + " variant");
  if (spec.m < 1 || spec.n < 1 || spec.k < 1) throw std::invalid_argument("GEMM sizes must be at least 1");
  const cpu::Kernel kernel = cpu::kernel_from(spec.variant);
  cpu::require_fits_in_memory(
      static_cast<double>(spec.k) * static_cast<double>(spec.n) * bytes_per_element(spec.precision),
      "the estimate's probe for GEMM " + cpu::dims(spec));
  long long rows = 0;
  const double g = spec.precision == Precision::fp64 ? cpu::probe_band<double>(spec, kernel, probe_s, rows)
                                                     : cpu::probe_band<float>(spec, kernel, probe_s, rows);
  return estimate_gemm_from_rate(spec, policy, g,
                                 "timed just now: " + std::to_string(rows) + " of " + std::to_string(spec.m) +
                                     " rows of this product (same size, so the same cache misses)");
}

}  // namespace gpulab

// The CPU's compute roof and overhead floor as timed ops (experiments "peak" and "overhead", roofs.hpp).
//  - Peak: one all-thread burst of the register FMA chains of fma_peak.cpp, checked against the closed form of
//    the chains' recurrence. Timed in each thread's own CPU time (fma_peak.cpp says why: on a shared machine
//    another program's turn on a core is not this CPU's slowness), so run_once returns the seconds the burst
//    would take with every core to itself.
//  - Overhead: a pool of one thread per core, released and joined by two barriers: the "parallel region" a CPU
//    framework pays for every op it splits over its threads. Empty, or with x = y + s·z over `elements` floats
//    split in slices. run_once times a batch of regions back to back on the steady clock and returns one
//    region's share, so a sub-microsecond region is not lost in the clock's resolution.
#include "cpu_internal.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/platform.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

namespace gpulab::cpu {
namespace {

class FmaPeakOp final : public TimedOp {
 public:
  explicit FmaPeakOp(const PeakSpec& spec)
      : m_fp64(spec.precision == Precision::fp64), m_threads(logical_cores()),
        m_iters(fma_iterations_for(m_fp64, spec.target_s)) {}

  Check verify() override {
    const FmaBurstResult b = fma_burst(m_fp64, m_iters, m_threads);
    Check c;
    c.checked = static_cast<long long>(b.threads) * b.chains * b.lanes;
    c.max_abs_err = std::fabs(b.sum - b.expected);
    c.max_rel_err = c.max_abs_err / std::max(std::fabs(b.expected), 1e-30);
    // FP32 chains park within ~1e-4 of the limit (fma_peak.cpp); a skipped or doubled chain is off by 1/12.
    c.passed = std::isfinite(b.sum) && c.max_rel_err < (m_fp64 ? 1e-9 : 2e-3);
    if (!c.passed)
      c.message = "the FMA chains summed to " + format_fixed(b.sum, 4) + ", the closed form says " +
                  format_fixed(b.expected, 4);
    return c;
  }

  double run_once() override {
    const FmaBurstResult b = fma_burst(m_fp64, m_iters, m_threads);
    return b.cpu_rate_flops > 0 ? b.flops / b.cpu_rate_flops : b.wall_s;
  }
  double flops() const override { return 2.0 * (m_fp64 ? 4 : 8) * 12 * static_cast<double>(m_iters) * m_threads; }
  double bytes() const override { return 0; }
  void describe(Params& params, Provenance& prov) const override {
    params["chains"] = 12;
    params["lanes"] = m_fp64 ? 4 : 8;
    params["threads"] = m_threads;
    params["iterations"] = static_cast<double>(m_iters);
    params["invocations"] = m_threads;
    prov["kernel"] = "register FMA chains (fma_peak.cpp): 12 independent vector accumulators per thread, acc = acc·m + a";
    prov["isa"] = fma_burst(m_fp64, 1000, 1).isa;
    prov["timer"] = "each thread's CPU time (CLOCK_THREAD_CPUTIME_ID): seconds with every core to itself";
  }

 private:
  bool m_fp64;
  int m_threads;
  long long m_iters;
};

// Small dyadic values: y + s·z is exact in FP32 with or without a fused multiply-add.
inline float pattern_y(std::size_t i) { return 1.0f + static_cast<float>(i & 1023) * 0x1p-10f; }
inline float pattern_z(std::size_t i) { return 2.0f - static_cast<float>((i * 7) & 1023) * 0x1p-11f; }
constexpr float k_scalar = 3.0f;

class RegionOp final : public TimedOp {
 public:
  explicit RegionOp(const OverheadSpec& spec)
      : m_n(spec.elements), m_threads(logical_cores()), m_x(std::max<std::size_t>(1, m_n)),
        m_y(std::max<std::size_t>(1, m_n)), m_z(std::max<std::size_t>(1, m_n)), m_start(m_threads),
        m_done(m_threads) {
    for (std::size_t i = 0; i < m_n; ++i) {
      m_y[i] = pattern_y(i);
      m_z[i] = pattern_z(i);
    }
    for (int t = 1; t < m_threads; ++t) m_pool.emplace_back([this, t] { worker(t); });
    calibrate();
  }
  ~RegionOp() override {
    m_quit = true;
    m_start.arrive_and_wait();
    for (auto& th : m_pool) th.join();
  }

  Check verify() override {
    std::fill(m_x.begin(), m_x.end(), std::numeric_limits<float>::quiet_NaN());
    region();
    Check c;
    c.checked = static_cast<long long>(m_n);
    long long bad = 0;
    for (std::size_t i = 0; i < m_n; ++i)
      if (!(m_x[i] == pattern_y(i) + k_scalar * pattern_z(i))) {
        if (c.first_bad_index < 0) c.first_bad_index = static_cast<long long>(i);
        ++bad;
      }
    c.passed = bad == 0 && m_regions > 0;
    if (!c.passed) c.message = format_count(bad) + " of " + format_count(static_cast<long long>(m_n)) + " elements wrong";
    return c;
  }

  double run_once() override {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < m_batch; ++i) region();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / m_batch;
  }
  double flops() const override { return 2.0 * static_cast<double>(m_n); }
  double bytes() const override { return 12.0 * static_cast<double>(m_n); }
  void describe(Params& params, Provenance& prov) const override {
    params["threads"] = m_threads;
    params["batch"] = m_batch;
    prov["kernel"] = m_n == 0 ? "an empty parallel region: release " + std::to_string(m_threads) +
                                    " pool threads through a barrier and wait for all at a second"
                              : "x = y + s·z in FP32, split over " + std::to_string(m_threads) +
                                    " pool threads in one parallel region";
    prov["timer"] = "steady_clock around " + std::to_string(m_batch) + " regions back to back, divided by " +
                    std::to_string(m_batch);
  }

 private:
  void calibrate() {
    // About 2 ms of regions per timed run, between 1 and 10,000.
    m_batch = 1;
    const auto t0 = std::chrono::steady_clock::now();
    region();
    region();
    const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2;
    m_batch = static_cast<int>(std::clamp(2e-3 / std::max(one, 1e-9), 1.0, 1e4));
  }
  void region() {
    m_start.arrive_and_wait();
    slice(0);
    m_done.arrive_and_wait();
    ++m_regions;
  }
  void worker(int t) {
    while (true) {
      m_start.arrive_and_wait();
      if (m_quit) return;
      slice(t);
      m_done.arrive_and_wait();
    }
  }
  void slice(int t) {
    const std::size_t b = m_n * static_cast<std::size_t>(t) / m_threads;
    const std::size_t e = m_n * static_cast<std::size_t>(t + 1) / m_threads;
    float* x = m_x.data();
    const float* y = m_y.data();
    const float* z = m_z.data();
    for (std::size_t i = b; i < e; ++i) x[i] = y[i] + k_scalar * z[i];
  }

  std::size_t m_n;
  int m_threads;
  std::vector<float> m_x, m_y, m_z;
  platform::ThreadBarrier m_start, m_done;
  std::vector<std::thread> m_pool;
  bool m_quit = false;  // written before the start barrier, read after it
  int m_batch = 1;
  long long m_regions = 0;
};

}  // namespace

std::unique_ptr<TimedOp> make_fma_peak_op(const PeakSpec& spec) {
  if (spec.precision != Precision::fp32 && spec.precision != Precision::fp64)
    throw std::invalid_argument("the CPU's FMA peak runs in FP32 or FP64");
  return std::make_unique<FmaPeakOp>(spec);
}

std::unique_ptr<TimedOp> make_overhead_op(const OverheadSpec& spec) {
  if (spec.graph) throw std::invalid_argument("CUDA graphs exist only on a CUDA GPU");
  if (spec.elements > (std::size_t{256} << 20)) throw std::invalid_argument("at most 256 Mi elements");
  if (spec.elements > 0)
    require_fits_in_memory(12.0 * static_cast<double>(spec.elements), "the elementwise op's three arrays");
  return std::make_unique<RegionOp>(spec);
}

}  // namespace gpulab::cpu

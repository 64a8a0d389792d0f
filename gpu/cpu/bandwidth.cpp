// STREAM-style bandwidth: copy (b = a) and triad (a = b + s·c) over doubles, split across a pool of threads.
// The arithmetic is trivial, so the time is the memory system's: this is the "clerk" of the lesson.
#include "cpu_internal.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/platform.hpp"
#include "gpulab/units.hpp"

#include "vector_clones.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace gpulab::cpu {
namespace {

enum class Kind { copy, triad };

// Exactly representable inputs (small dyadic rationals) so b + s·c is exact: verification can demand equality
// whether or not the compiler fused the multiply-add.
constexpr double triad_scalar = 3.0;
inline double pattern_b(std::size_t i) { return 1.0 + static_cast<double>(i & 1023) * 0x1p-10; }
inline double pattern_c(std::size_t i) { return 2.0 - static_cast<double>((i * 7) & 1023) * 0x1p-11; }

// The inner loops: plain C++ the compiler vectorises (same clones and -O3 as the reordered GEMM, see
// gemm_loops.cpp), so that for cache-sized arrays the core is not the limit either.
#if GPULAB_USE_TARGET_CLONES  // vector_clones.hpp: x86-64-v3 with gcc 12, fma with gcc 11
#define GPULAB_STREAM_KERNEL __attribute__((target_clones(GPULAB_VECTOR_CLONE, "default"), optimize("O3")))
#else
#define GPULAB_STREAM_KERNEL
#endif

GPULAB_STREAM_KERNEL
void copy_range(const double* __restrict a, double* __restrict b, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) b[i] = a[i];
}
GPULAB_STREAM_KERNEL
void triad_range(double* __restrict a, const double* __restrict b, const double* __restrict c, double s,
                 std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
}

// Raw, uninitialised storage: std::vector would zero every page from the constructing thread, and the pages
// would then live on that thread's memory node. Each worker touches its own slice first instead.
struct RawArray {
  std::unique_ptr<double[]> data;
  explicit RawArray(std::size_t n) : data(new double[n]) {}
  double* get() const { return data.get(); }
};

class BandwidthOp final : public TimedOp {
 public:
  BandwidthOp(Kind kind, std::size_t elements, int threads)
      : m_kind(kind), m_n(elements), m_threads(threads), m_a(elements), m_b(elements), m_c(kind == Kind::triad ? elements : 1),
        m_start(threads), m_done(threads) {
    m_slices.resize(static_cast<std::size_t>(threads) + 1);
    for (int t = 0; t <= threads; ++t) m_slices[static_cast<std::size_t>(t)] = m_n * static_cast<std::size_t>(t) / threads;
    // Workers 1..threads-1 are pool threads; worker 0 is whoever calls run_once, so the timer's thread takes part.
    for (int t = 1; t < threads; ++t) m_pool.emplace_back([this, t] { worker(t); });
    dispatch(Task::first_touch);
    // Touching GBs takes a second or more on a busy machine: a cancel stops it too (the workers skip the rest of
    // their slices), and the pool must be shut down here, as no destructor runs for a throwing constructor.
    if (m_stop.stop_requested()) {
      stop_pool();
      throw Cancelled();
    }
  }

  ~BandwidthOp() override { stop_pool(); }

  Check verify() override {
    dispatch(Task::poison);  // an output the kernel forgets to write stays NaN and fails below
    dispatch(Task::kernel);
    Check c;
    c.checked = static_cast<long long>(m_n);
    const double* out = m_kind == Kind::copy ? m_b.get() : m_a.get();
    long long bad = 0;
    for (std::size_t i = 0; i < m_n; ++i) {
      if ((i & (k_chunk - 1)) == 0) throw_if_cancelled();
      const double want = m_kind == Kind::copy ? source_a(i) : pattern_b(i) + triad_scalar * pattern_c(i);
      if (!(out[i] == want)) {
        if (c.first_bad_index < 0) c.first_bad_index = static_cast<long long>(i);
        ++bad;
        if (std::isfinite(out[i])) c.max_abs_err = std::max(c.max_abs_err, std::fabs(out[i] - want));
      }
    }
    c.passed = bad == 0;
    if (!c.passed) {
      const auto i = static_cast<std::size_t>(c.first_bad_index);
      const double want = m_kind == Kind::copy ? source_a(i) : pattern_b(i) + triad_scalar * pattern_c(i);
      c.message = format_count(bad) + " of " + format_count(static_cast<long long>(m_n)) +
                  " elements wrong; first at index " + std::to_string(i) + ": got " + format_fixed(out[i], 6) +
                  ", expected " + format_fixed(want, 6);
    }
    return c;
  }

  double run_once() override {
    // Outputs are not re-poisoned between timed runs: poisoning writes a whole array, and whatever of it is still
    // in the last-level cache would make the next run look faster than memory is. verify() poisons instead.
    const auto t0 = std::chrono::steady_clock::now();
    dispatch(Task::kernel);
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
  }

  double flops() const override { return m_kind == Kind::triad ? 2.0 * static_cast<double>(m_n) : 0; }
  double bytes() const override {
    // Read + written, as STREAM counts (write-allocate traffic is not counted).
    const double arrays = m_kind == Kind::copy ? 2 : 3;
    return arrays * static_cast<double>(m_n) * sizeof(double);
  }

 private:
  enum class Task { first_touch, poison, kernel, quit };

  static double source_a(std::size_t i) { return pattern_b(i) * 0.5; }

  void stop_pool() {
    if (m_pool.empty() && m_stopped) return;
    m_stopped = true;
    m_task = Task::quit;
    m_start.arrive_and_wait();
    for (auto& th : m_pool) th.join();
    m_pool.clear();
  }

  // Runs `task` on every worker (this thread is worker 0) and returns when all are done.
  // A cancel reaches the pool threads through m_stop (the caller's current token, see StopScope): each worker
  // streams its slice in chunks and gives up between them; every worker still meets the barrier, then the caller
  // throws.
  void dispatch(Task task) {
    m_stop = current_stop();
    m_task = task;
    m_start.arrive_and_wait();
    do_task(0);
    m_done.arrive_and_wait();
    if (task != Task::quit && task != Task::first_touch) throw_if_cancelled();
  }

  void worker(int t) {
    while (true) {
      m_start.arrive_and_wait();  // the barrier orders m_task's write before this read
      if (m_task == Task::quit) return;
      do_task(t);
      m_done.arrive_and_wait();
    }
  }

  void do_task(int t) {
    const std::size_t b = m_slices[static_cast<std::size_t>(t)], e = m_slices[static_cast<std::size_t>(t) + 1];
    double* a = m_a.get();
    double* bb = m_b.get();
    double* c = m_c.get();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    switch (m_task) {
      case Task::first_touch:
        for (std::size_t i = b; i < e; ++i) {
          // Every 256 Ki elements: this loop is not vectorised (~0.5 GB/s on a busy machine), so a 32 MiB chunk
          // would already be ~0.2 s.
          if ((i & ((std::size_t{1} << 18) - 1)) == 0 && m_stop.stop_requested()) break;
          if (m_kind == Kind::copy) {
            a[i] = source_a(i);
            bb[i] = nan;
          } else {
            a[i] = nan;
            bb[i] = pattern_b(i);
            c[i] = pattern_c(i);
          }
        }
        break;
      case Task::poison:
        std::fill(m_kind == Kind::copy ? bb + b : a + b, m_kind == Kind::copy ? bb + e : a + e, nan);
        break;
      case Task::kernel:
        // 1 Mi doubles (8 MiB a stream) per chunk: a few ms at DRAM speed, so the check costs nothing measurable.
        for (std::size_t c0 = b; c0 < e; c0 += k_chunk) {
          if (m_stop.stop_requested()) break;
          const std::size_t c1 = std::min(e, c0 + k_chunk);
          if (m_kind == Kind::copy) copy_range(a, bb, c0, c1);
          else triad_range(a, bb, c, triad_scalar, c0, c1);
        }
        break;
      case Task::quit: break;
    }
  }

  static constexpr std::size_t k_chunk = std::size_t{1} << 20;
  Kind m_kind;
  std::stop_token m_stop;  // written before the start barrier, read by the workers after it
  std::size_t m_n;
  int m_threads;
  RawArray m_a, m_b, m_c;
  std::vector<std::size_t> m_slices;
  Task m_task = Task::first_touch;
  platform::ThreadBarrier m_start, m_done;
  std::vector<std::thread> m_pool;
  bool m_stopped = false;
};

}  // namespace

std::unique_ptr<TimedOp> make_bandwidth_op(const BandwidthSpec& spec) {
  Kind kind;
  if (spec.kind == "copy") kind = Kind::copy;
  else if (spec.kind == "triad") kind = Kind::triad;
  else throw std::invalid_argument("Unknown bandwidth kernel \"" + spec.kind + "\" (choose copy or triad)");

  constexpr std::size_t min_bytes = 4096;
  if (spec.bytes_per_array < min_bytes)
    throw std::invalid_argument("Bandwidth arrays must be at least " + format_count(min_bytes) + " bytes (got " +
                                format_count(static_cast<long long>(spec.bytes_per_array)) + ")");
  const std::size_t elements = spec.bytes_per_array / sizeof(double);
  int threads = resolve_threads(spec.threads);
  // Never more threads than cache lines of work: a thread with nothing to do only adds barrier latency.
  threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), std::max<std::size_t>(1, elements / 8)));
  const double arrays = kind == Kind::copy ? 2 : 3;
  require_fits_in_memory(arrays * static_cast<double>(elements) * sizeof(double),
                         std::string(kind == Kind::copy ? "Copy" : "Triad") + " over " +
                             format_bytes(static_cast<double>(spec.bytes_per_array)) + " arrays");
  return std::make_unique<BandwidthOp>(kind, elements, threads);
}

}  // namespace gpulab::cpu

// The measured arithmetic ceiling of this CPU: independent FMA chains that live in registers (no memory traffic),
// on every core at once. This is the "peak" the roofline's compute roof uses, measured rather than assumed.
#include "cpu_internal.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulab::cpu {
namespace {

typedef float v8f __attribute__((vector_size(32)));
typedef double v4d __attribute__((vector_size(32)));

// Enough independent accumulators to cover FMA latency x pipes (4 cycles x 2 pipes = 8 in flight on current x86),
// few enough to stay in the 16 AVX2 registers with the two constants.
constexpr int chains = 12;

// x86-64-v3 clone: one vfmadd per chain per iteration (fp-contract lets a*b+c become an FMA; ISO mode forbids
// it otherwise). The baseline clone measures what a CPU without AVX2/FMA can do with the same source.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(GPULAB_NO_TARGET_CLONES)
#define GPULAB_FMA_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default"), optimize("O3", "fp-contract=fast"), noinline))
#else
#define GPULAB_FMA_KERNEL __attribute__((noinline))
#endif


GPULAB_FMA_KERNEL
float fma_chains_f32(long long iters, float seed) {
  // acc = acc*mul + add converges to add/(1-mul): bounded, never denormal, never optimised into a closed form.
  const v8f mul = v8f{} + 0.999999f;
  const v8f add = v8f{} + 1e-3f;
  v8f acc[chains];
  for (int c = 0; c < chains; ++c) acc[c] = v8f{} + (seed + static_cast<float>(c));
  for (long long i = 0; i < iters; ++i) {
    for (int c = 0; c < chains; ++c) acc[c] = acc[c] * mul + add;
  }
  v8f sum = acc[0];
  for (int c = 1; c < chains; ++c) sum += acc[c];
  float s = 0;
  for (int l = 0; l < 8; ++l) s += sum[l];
  return s;
}

GPULAB_FMA_KERNEL
double fma_chains_f64(long long iters, double seed) {
  const v4d mul = v4d{} + 0.999999;
  const v4d add = v4d{} + 1e-3;
  v4d acc[chains];
  for (int c = 0; c < chains; ++c) acc[c] = v4d{} + (seed + static_cast<double>(c));
  for (long long i = 0; i < iters; ++i) {
    for (int c = 0; c < chains; ++c) acc[c] = acc[c] * mul + add;
  }
  v4d sum = acc[0];
  for (int c = 1; c < chains; ++c) sum += acc[c];
  double s = 0;
  for (int l = 0; l < 4; ++l) s += sum[l];
  return s;
}

volatile double g_sink = 0;

// Runs `iters` iterations on `threads` threads released together; returns the wall time until the last finishes.
template <typename Kernel>
double timed_parallel(Kernel kernel, long long iters, int threads) {
  std::atomic<bool> go{false};
  std::atomic<int> ready{0};
  std::vector<double> results(static_cast<std::size_t>(threads), 0.0);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      results[static_cast<std::size_t>(t)] = kernel(iters, t);
    });
  }
  while (ready.load() < threads - 1) std::this_thread::yield();
  const auto t0 = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  results[0] = kernel(iters, 0);
  for (auto& th : pool) th.join();
  const auto t1 = std::chrono::steady_clock::now();
  double s = 0;
  for (double r : results) s += r;
  g_sink = s;
  return std::chrono::duration<double>(t1 - t0).count();
}

// GFLOP/s of `kernel` on all threads, sized so the timed run lasts about `target_s`; best of three short runs,
// because a peak is a best case and a shared machine only ever subtracts from it.
template <typename Kernel>
double peak_gflops(Kernel kernel, int lanes, int threads, double target_s) {
  const double flops_per_iter = 2.0 * lanes * chains;
  long long iters = 1 << 14;
  double t = timed_parallel(kernel, iters, 1);
  while (t < 2e-3) {  // calibrate on one thread until the timing is well above clock resolution
    iters *= 4;
    t = timed_parallel(kernel, iters, 1);
  }
  const double per_iter = t / static_cast<double>(iters);
  iters = std::max<long long>(1000, static_cast<long long>(target_s / 3 / per_iter));
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const double s = timed_parallel(kernel, iters, threads);
    best = std::max(best, flops_per_iter * static_cast<double>(iters) * threads / s / 1e9);
  }
  return best;
}

std::string isa_name() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "AVX2+FMA (x86-64-v3 clone)";
  return "baseline x86-64 (SSE2, no FMA)";
#else
  return "portable C++ vectors";
#endif
}

}  // namespace

const FmaPeak& measured_fma_peak() {
  static FmaPeak peak;
  static std::once_flag once;
  std::call_once(once, [] {
    peak.threads = logical_cores();
    peak.isa = isa_name();
    peak.gflops_fp32 = peak_gflops([](long long it, int t) { return static_cast<double>(fma_chains_f32(it, 0.5f + t)); },
                                   8, peak.threads, 0.05);
    peak.gflops_fp64 =
        peak_gflops([](long long it, int t) { return fma_chains_f64(it, 0.5 + t); }, 4, peak.threads, 0.05);
  });
  return peak;
}

}  // namespace gpulab::cpu

// The measured arithmetic ceiling of this CPU: independent FMA chains that live in registers (no memory traffic),
// on every core at once. This is the "peak" the roofline's compute roof uses, measured rather than assumed.
#include "cpu_internal.hpp"
#include "gpulab/platform.hpp"

#include "vector_clones.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
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
constexpr float k_mul32 = 0.9999f, k_add32 = 1e-3f;
constexpr double k_mul64 = 0.9999, k_add64 = 1e-3;

// What one thread's kernel must return: every chain is the affine recurrence x -> m·x + a from x0 = seed + c, so
// after n steps x = L + m^n (x0 - L) with L = a / (1 - m), summed over the chains and the vector's lanes.
double expected_chain_sum(double m, double a, long long n, double seed, int lanes) {
  const double limit = a / (1 - m), decay = std::pow(m, static_cast<double>(n));
  double s = 0;
  for (int c = 0; c < chains; ++c) s += limit + decay * (seed + c - limit);
  return s * lanes;
}

// x86-64-v3 clone: one vfmadd per chain per iteration (fp-contract lets a*b+c become an FMA; ISO mode forbids
// it otherwise). The baseline clone measures what a CPU without AVX2/FMA can do with the same source.
#if GPULAB_USE_TARGET_CLONES  // vector_clones.hpp: x86-64-v3 with gcc 12, fma with gcc 11
#define GPULAB_FMA_KERNEL __attribute__((target_clones(GPULAB_VECTOR_CLONE, "default"), optimize("O3", "fp-contract=fast"), noinline))
#else
#define GPULAB_FMA_KERNEL __attribute__((noinline))
#endif


GPULAB_FMA_KERNEL
float fma_chains_f32(long long iters, float seed) {
  // acc = acc*mul + add converges to add/(1-mul): bounded, never denormal, never optimised into a closed form.
  // mul is far enough from 1 that rounding cannot park a chain far from the closed form the check computes
  // (a float fixed point sits within ulp/(1-mul) of the limit: 1e-4 relative here).
  const v8f mul = v8f{} + k_mul32;
  const v8f add = v8f{} + k_add32;
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
  const v4d mul = v4d{} + k_mul64;
  const v4d add = v4d{} + k_add64;
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

// GPULAB_SIMULATE_STEAL=1 charges each burst thread the burst's wall time instead of its own CPU time: what a VM's
// clock does when its host hands the core to another guest for a while (the guest counts the stolen
// time as its own). That is the busy machine the CPU-time rating cannot see through (one GUI start in seven read
// half the peak on a 2-vCPU cloud VM, issue 40); with it, a test's busy thread in the same process lowers the bursts
// as that host did (a busy thread of another program, or of this one, is otherwise invisible to them: measured here,
// two busy threads on the two cores cost the best of five bursts under 10 %).
bool clock_counts_steal() {
  static const bool on = [] {
    const char* v = std::getenv("GPULAB_SIMULATE_STEAL");
    return v && v[0] == '1';
  }();
  return on;
}

struct Burst {
  double wall_s = 0;
  double cpu_rate = 0;      // Σ over threads of iterations / that thread's own CPU seconds
  double min_cpu_s = 1e30;  // the shortest thread's CPU time
};

// Runs `iters` iterations on `threads` threads released together. Each thread also times itself in its own CPU
// time: on a shared machine the OS may take a core away from one of them for a while (another program's turn), and
// wall time would then charge this CPU for time it spent running someone else. CPU time counts only the time the
// thread ran, so a burst reads the same whether or not another program shared the cores.
// `steal_clock`: time as the simulated VM does (GPULAB_SIMULATE_STEAL); a calibration never does.
template <typename Kernel>
Burst timed_parallel(Kernel kernel, long long iters, int threads, bool steal_clock = clock_counts_steal()) {
  std::atomic<bool> go{false};
  std::atomic<int> ready{0};
  std::vector<double> results(static_cast<std::size_t>(threads), 0.0);
  std::vector<double> cpu_s(static_cast<std::size_t>(threads), 0.0);
  auto body = [&](int t) {
    const double c0 = platform::thread_cpu_seconds();
    results[static_cast<std::size_t>(t)] = kernel(iters, t);
    cpu_s[static_cast<std::size_t>(t)] = platform::thread_cpu_seconds() - c0;
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      body(t);
    });
  }
  while (ready.load() < threads - 1) std::this_thread::yield();
  const auto t0 = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  body(0);
  for (auto& th : pool) th.join();
  const auto t1 = std::chrono::steady_clock::now();
  // Simulated steal: every thread is charged the burst's wall time, as a VM's clock charges a guest for time its
  // host gave the core to another guest. (Its share of the process's CPU time, tried first, also charged it for the
  // app's own idle threads, a sixth of a core, and over-rated a thread whose partner ran part of its span elsewhere:
  // 373 GFLOP/s where the quiet peak is 229.)
  if (steal_clock) std::fill(cpu_s.begin(), cpu_s.end(), std::chrono::duration<double>(t1 - t0).count());
  double s = 0;
  for (double r : results) s += r;
  g_sink = s;
  Burst b;
  b.wall_s = std::chrono::duration<double>(t1 - t0).count();
  for (double c : cpu_s) {
    // A thread-CPU clock coarser than the burst (not on Linux, but never divide by ~0): fall back to wall time.
    b.cpu_rate += static_cast<double>(iters) / (c > 50e-6 ? c : b.wall_s);
    b.min_cpu_s = std::min(b.min_cpu_s, c);
  }
  return b;
}

// Iterations for a burst of about `target_s` of CPU time on one thread, calibrated once per kernel. In CPU time,
// not wall time: a calibration run that lost the core for a while would otherwise make every burst far too short
// (so not on the simulated steal clock either: under a loaded start-up it made 15 ms bursts 4 ms long, and a
// thread's wake-up latency then cost the quiet sets half their rate).
template <typename Kernel>
long long iterations_for(Kernel kernel, double target_s) {
  long long iters = 1 << 14;
  Burst b = timed_parallel(kernel, iters, 1, false);
  while (b.min_cpu_s < 2e-3 && b.wall_s < 0.05) {  // until the timing is well above clock resolution
    iters *= 4;
    b = timed_parallel(kernel, iters, 1, false);
  }
  return std::max<long long>(1000, static_cast<long long>(target_s * b.cpu_rate));
}

std::string isa_name() {
#if defined(__x86_64__) && GPULAB_USE_TARGET_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "AVX2+FMA (x86-64-v3 clone)";
  return "baseline x86-64 (SSE2, no FMA)";
#elif defined(__x86_64__)  // no clones in this build (Windows: PE has no ifunc; clang; TSan): the baseline ran
  return "baseline x86-64 (SSE2, no FMA; this build has no AVX2 clone)";
#else
  return "portable C++ vectors";
#endif
}

// ---- The peak as the process knows it ---------------------------------------------------------------------------
// A peak is a best case, and a shared machine only ever subtracts from it — so the peak is the best of many short
// bursts (each ~15 ms on every thread), taken a few at a time: five at start-up, spread over ~0.2 s with pauses
// between them so one busy moment cannot cover them all, and more whenever the machine is found quiet
// (retake_fma_peak_if_quiet). Each burst counts FLOPs per CPU-second of its threads (see timed_parallel), so
// another program sharing the cores slows the burst's wall time but not its rate. A GEMM the app measures faster
// than the bursts raises the peak to that rate (raise_fma_peak_floor): a share of peak above 100 % is a wrong
// peak, never a discovery.
constexpr double k_burst_s = 0.015;
constexpr int k_startup_bursts = 5;
constexpr auto k_pause = std::chrono::milliseconds(25);

auto f32_kernel = [](long long it, int t) { return static_cast<double>(fma_chains_f32(it, 0.5f + static_cast<float>(t))); };
auto f64_kernel = [](long long it, int t) { return fma_chains_f64(it, 0.5 + t); };

struct PeakState {
  std::mutex mutex;
  bool taken = false;
  FmaPeak peak;
  long long iters32 = 0, iters64 = 0;
  std::chrono::steady_clock::time_point first_taken{}, last_retake{};
  std::vector<double> set_bests;  // each set's best FP32 burst, in the order taken (the start-up set first)
};

// Two sets of bursts agree when their best FP32 bursts are within this share of each other.
constexpr double k_sets_agree = 0.05;

// The clock time now, "16:47:03 UTC": when the best burst was taken, for the device details.
std::string utc_now() {
  const std::tm tm = platform::utc_calendar(std::time(nullptr));
  char buf[32];
  std::strftime(buf, sizeof buf, "%H:%M:%S UTC", &tm);
  return buf;
}

PeakState& state() {
  static PeakState s;
  return s;
}

double best_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

// Takes `n` pairs of bursts (FP32 then FP64) with pauses between them. Called with the state's mutex held.
// Each set is one more look at the machine: the peak is settled once two sets taken after the start-up one agree.
// Not with the start-up set: every burst of a busy start-up agrees, low, and the first set after it can still be
// busy (here a loaded start-up of 151 GFLOP/s was "settled" by the next set at 156, quiet being 225). Any two, not
// only neighbours: on CI's shared 2-vCPU machine five sets in a minute (loaded start-up 178, best 298) had no two
// neighbours within 5 %, and the page kept calling its figure provisional.
void take_bursts(PeakState& s, int n) {
  FmaPeak& p = s.peak;
  const double f32_per_iter = 2.0 * 8 * chains, f64_per_iter = 2.0 * 4 * chains;
  const double best_before = best_of(p.bursts_fp32);
  double set_best = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0) std::this_thread::sleep_for(k_pause);
    const Burst b32 = timed_parallel(f32_kernel, s.iters32, p.threads);
    p.bursts_fp32.push_back(f32_per_iter * b32.cpu_rate / 1e9);
    set_best = std::max(set_best, p.bursts_fp32.back());
    const Burst b64 = timed_parallel(f64_kernel, s.iters64, p.threads);
    p.bursts_fp64.push_back(f64_per_iter * b64.cpu_rate / 1e9);
  }
  if (set_best > best_before) {
    p.best_taken_at = utc_now();
    p.best_taken_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.first_taken).count();
  }
  if (!p.settled && !s.set_bests.empty())
    p.settled = std::any_of(s.set_bests.begin() + 1, s.set_bests.end(), [&](double earlier) {
      return std::abs(set_best - earlier) <= k_sets_agree * std::max(set_best, earlier);
    });
  s.set_bests.push_back(set_best);
  p.sets = static_cast<int>(s.set_bests.size());
  p.gflops_fp32 = std::max(best_of(p.bursts_fp32), p.floor_fp32);
  p.gflops_fp64 = std::max(best_of(p.bursts_fp64), p.floor_fp64);
}

void ensure_taken(PeakState& s) {
  if (s.taken) return;
  s.peak.threads = logical_cores();
  s.peak.isa = isa_name();
  s.iters32 = iterations_for(f32_kernel, k_burst_s);
  s.iters64 = iterations_for(f64_kernel, k_burst_s);
  s.first_taken = std::chrono::steady_clock::now();
  take_bursts(s, k_startup_bursts);
  s.last_retake = std::chrono::steady_clock::now();
  s.taken = true;
}

// Share of all cores that programs used over `window` (from /proc/stat); negative when it cannot be read.
double busy_share(std::chrono::milliseconds window) {
  auto read = [](unsigned long long& busy, unsigned long long& total) {
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (!f) return false;
    unsigned long long v[8] = {};
    const int got = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                                &v[5], &v[6], &v[7]);
    std::fclose(f);
    if (got < 5) return false;
    total = 0;
    for (unsigned long long x : v) total += x;
    busy = total - v[3] - v[4];  // everything but idle and iowait (steal counts as busy: the core was not ours)
    return true;
  };
  unsigned long long b0, t0, b1, t1;
  if (!read(b0, t0)) return -1;
  std::this_thread::sleep_for(window);
  if (!read(b1, t1) || t1 <= t0) return -1;
  return static_cast<double>(b1 - b0) / static_cast<double>(t1 - t0);
}

}  // namespace

long long fma_iterations_for(bool fp64, double target_s) {
  return fp64 ? iterations_for(f64_kernel, target_s) : iterations_for(f32_kernel, target_s);
}

FmaBurstResult fma_burst(bool fp64, long long iters, int threads) {
  FmaBurstResult out;
  out.iters = iters;
  out.threads = threads;
  out.chains = chains;
  out.lanes = fp64 ? 4 : 8;
  out.isa = isa_name();
  const Burst b = fp64 ? timed_parallel(f64_kernel, iters, threads) : timed_parallel(f32_kernel, iters, threads);
  const double per_iter = 2.0 * out.lanes * chains;
  out.flops = per_iter * static_cast<double>(iters) * threads;
  out.wall_s = b.wall_s;
  out.cpu_rate_flops = per_iter * b.cpu_rate;
  out.sum = g_sink;
  for (int t = 0; t < threads; ++t)
    out.expected += fp64 ? expected_chain_sum(k_mul64, k_add64, iters, 0.5 + t, 4)
                         : expected_chain_sum(static_cast<double>(k_mul32), static_cast<double>(k_add32), iters,
                                              static_cast<double>(0.5f + static_cast<float>(t)), 8);
  return out;
}

FmaPeak measured_fma_peak() {
  PeakState& s = state();
  std::lock_guard lock(s.mutex);
  ensure_taken(s);
  return s.peak;
}

bool retake_fma_peak_if_quiet(int bursts) {
  PeakState& s = state();
  {
    std::lock_guard lock(s.mutex);
    if (!s.taken) return false;  // nobody has asked for the peak yet: it is taken at first use
    // At most every 20 s and 40 bursts in all: the peak settles after a few quiet moments.
    if (s.peak.bursts_fp32.size() >= 40 || std::chrono::steady_clock::now() - s.last_retake < std::chrono::seconds(20))
      return false;
  }
  // Quiet: other programs used less than a quarter of one core over 100 ms.
  const double busy = busy_share(std::chrono::milliseconds(100));
  const int cores = std::max(1, logical_cores());
  if (busy < 0 || busy * cores > 0.25) return false;
  std::lock_guard lock(s.mutex);
  take_bursts(s, std::max(1, bursts));
  s.last_retake = std::chrono::steady_clock::now();
  ++s.peak.retakes;
  return true;
}

FmaPeak settle_fma_peak(int bursts) {
  PeakState& s = state();
  std::lock_guard lock(s.mutex);
  ensure_taken(s);
  // Past 40 sets the machine has been looked at for long enough: what the sets say by then is the answer.
  if (s.set_bests.size() < 40) {
    take_bursts(s, std::max(1, bursts));
    s.last_retake = std::chrono::steady_clock::now();
    ++s.peak.retakes;
  }
  return s.peak;
}

void raise_fma_peak_floor(double gflops, bool fp64, const std::string& what) {
  if (!(gflops > 0)) return;
  PeakState& s = state();
  std::lock_guard lock(s.mutex);
  ensure_taken(s);
  FmaPeak& p = s.peak;
  double& floor = fp64 ? p.floor_fp64 : p.floor_fp32;
  double& peak = fp64 ? p.gflops_fp64 : p.gflops_fp32;
  if (gflops <= peak) return;
  floor = gflops;
  peak = gflops;
  (fp64 ? p.floor_source_fp64 : p.floor_source_fp32) = what;
}

}  // namespace gpulab::cpu

// The lab's GPU timing harness (issue 37). gpulab ships this file (embedded in the program, written to its cache
// folder at run time) and nvcc compiles it together with a student's kernel file into one small executable:
//   nvcc -O3 -arch=... student_timing_main.cu student.cu -o student_timing -lcublas
// The executable runs the student's
//   void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream)
// on device 0 beside cuBLAS SGEMM and prints ONE line of JSON on stdout, whose first key is "gpulab_student_timing"
// (the parent takes the last such line: a student's printf may write other lines). Exit codes:
//   0 timed (checked against cuBLAS and right)      4 wrong answer (checked, not timed)
//   2 bad command line                              5 the student's code raised a CUDA error (a fault, a bad launch)
//   3 no CUDA device (the JSON says why)            6 any other CUDA or cuBLAS call failed (the JSON names it)
// gpu/lab/gpu_timing.cpp reads them; keep the two in step.
//
// The measurement follows gpulab's method (DESIGN.md "Measurement method", gpu/harness/measure.cpp), re-stated here
// because this file is built on the student's machine, without gpulab's libraries:
//  - random inputs in (-1, 1) from a fixed seed, never zeros; C poisoned with NaN (0xFF bytes) before every run;
//  - an untimed first run at a small size (module load, lazy loading), then the size chosen by a time estimate:
//    the request (default 4096³) halved while one run of the student's kernel would take longer than
//    kMaxRunSeconds (a GPU that drives a display kills kernels after about 2 s, and a class waits);
//  - check first: the student's C against cuBLAS's at the timed size, |C - ref| <= atol + rtol·|ref| with atol
//    growing with k; NaN or Inf fails; a wrong answer is reported, never timed;
//  - each of the two warms up by time (at least kDeviceWarmupS of device work: a GPU idles at a fraction of its
//    boost clock), then is timed with CUDA events on the stream, the L2 cache flushed before each sample (outside
//    the timed region), until the last kMinSamples samples agree within kTargetSpread, or kTimeBudgetS of timed
//    work, or kMaxSamples; leading samples slower than all the agreeing ones are dropped (still warming); the
//    median is the figure.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// The student's launcher, in the student's own file (a link error here means the file does not define it).
void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);

namespace {

// Exit codes (see the top of the file).
constexpr int kExitTimed = 0, kExitUsage = 2, kExitNoDevice = 3, kExitWrong = 4, kExitStudentError = 5,
              kExitCudaError = 6;

// The method's rules (gpu/include/gpulab/harness.hpp: kDeviceWarmupS and MeasurePolicy's defaults).
constexpr double kDeviceWarmupS = 0.2;
constexpr int kMinSamples = 3;
constexpr int kMaxSamples = 50;
constexpr double kTargetSpread = 0.05;
constexpr double kTimeBudgetS = 2.0;
constexpr double kMaxRunSeconds = 0.5;  // one run of the student's kernel at the timed size, by the estimate
constexpr int kProbeSize = 256;         // the untimed first run
constexpr int kEstimateSize = 1024;     // the run the size is estimated from
constexpr int kSmallestSize = 256;

// The nvcc flags this executable was built with, for its JSON: gpulab writes them into this header beside the file.
#if __has_include("student_timing_build.h")
#include "student_timing_build.h"
#endif
#ifndef GPULAB_TIMING_FLAGS
#define GPULAB_TIMING_FLAGS ""
#endif

#include "student_timing_support.cuh"  // JSON, checked calls, RAII owners

// ---- The run ---------------------------------------------------------------------------------------------------------
struct Options {
  int m = 4096, n = 4096, k = 4096;
  std::uint64_t seed = 42;
  bool resize = true;  // size down by the time estimate
};

// Uniform in (-1, 1), never 0 (gpu/harness/random.cpp's construction: odd multiples of 2^-24, exact in FP32).
void fill_random(std::vector<float>& v, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (float& x : v) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const auto j = static_cast<std::uint32_t>(z >> 40);
    x = static_cast<float>((static_cast<double>(j) + 0.5) * 0x1p-23 - 1.0);
  }
}

struct Stats {
  double median = 0, min = 0, max = 0, spread = 0;
  int n = 0, dropped = 0, warmup_runs = 0;
  double warmup_s = 0;
};

Stats summarize(std::vector<double> s) {
  Stats out;
  out.n = static_cast<int>(s.size());
  if (s.empty()) return out;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  out.median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  out.min = s.front();
  out.max = s.back();
  out.spread = out.median > 0 ? (out.max - out.min) / out.median : 0;
  return out;
}

bool tail_agrees(const std::vector<double>& s) {
  if (static_cast<int>(s.size()) < kMinSamples) return false;
  return summarize(std::vector<double>(s.end() - kMinSamples, s.end())).spread <= kTargetSpread;
}

class Bench {
 public:
  Bench(const Options& o, const cudaDeviceProp& prop)
      : m_opt(o),
        m_a(sizeof(float) * std::size_t(o.m) * o.k),
        m_b(sizeof(float) * std::size_t(o.k) * o.n),
        m_c(sizeof(float) * std::size_t(o.m) * o.n),
        m_ref(sizeof(float) * std::size_t(o.m) * o.n),
        // Twice the L2, written before each sample: what the inputs left in L2 is gone (the ladder reads such a buffer
        // with a kernel; a memset does the same to the cache and keeps this file free of kernels of its own).
        m_flush(2 * std::size_t(std::max(prop.l2CacheSize, 1 << 20))) {
    std::vector<float> host(std::size_t(o.m) * o.k);
    fill_random(host, o.seed);
    CHECK_CUDA(cudaMemcpy(m_a.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    host.assign(std::size_t(o.k) * o.n, 0.0f);
    fill_random(host, o.seed ^ 0x9E3779B97F4A7C15ull);
    CHECK_CUDA(cudaMemcpy(m_b.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUBLAS(cublasSetStream(m_blas.get(), m_stream.get()));
    // Plain FP32 (no TF32 tensor cores), reductions in FP32: what the gpulab CUDA module's "cuBLAS FP32" is.
    CHECK_CUBLAS(cublasSetMathMode(m_blas.get(), static_cast<cublasMath_t>(
                                                     CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  }

  // One untimed run of both at a small size: the modules load here, not in a timed run.
  void first_run(int size) {
    set_phase("the first run of your kernel (" + shape(size, size, size) + ")", true);
    run_student(size, size, size);
    sync();
    set_phase("the first run of cuBLAS", false);
    run_cublas(size, size, size, m_ref.floats());
    sync();
  }

  // Seconds of one run of the student's kernel at `size`³, after warming up by time at that size.
  double estimate(int size) {
    set_phase("estimating your kernel's time at " + shape(size, size, size), true);
    double spent = 0, last = 0;
    const auto t0 = wall();
    while (spent < kDeviceWarmupS && wall() - t0 < 2 * kDeviceWarmupS) {
      last = timed([&] { run_student(size, size, size); }, false);
      spent += last;
      if (last > kMaxRunSeconds) break;  // slow enough to decide already
    }
    return last;
  }

  struct Check {
    double run_s = 0;  // the student's check run, timed (cold: only to catch an estimate that was far too low)
    bool passed = false;
    double max_abs_error = 0, tolerance = 0;
    long long wrong = 0, nonfinite = 0;
    long long first_row = -1, first_col = -1;
    double first_got = 0, first_expected = 0;
  };

  Check check(int m, int n, int k) {
    set_phase("the check run of your kernel (" + shape(m, n, k) + ")", true);
    poison();
    const double run_s = timed([&] { run_student(m, n, k); }, false);
    set_phase("the check run of cuBLAS", false);
    run_cublas(m, n, k, m_ref.floats());
    sync();
    const std::size_t cells = std::size_t(m) * n;
    std::vector<float> got(cells), ref(cells);
    CHECK_CUDA(cudaMemcpy(got.data(), m_c.get(), cells * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ref.data(), m_ref.get(), cells * sizeof(float), cudaMemcpyDeviceToHost));
    // Two FP32 sums of k products of values in (-1, 1), in different orders: each is within about u·k/3 of the
    // exact sum (u = 2^-24) at worst; 32x that for each of the two, so a single dropped product (~0.25) or a
    // missing tile is still far outside. rtol covers rounding the outputs.
    Check c;
    c.run_s = run_s;
    c.tolerance = 2 * 32.0 * 0x1p-24 * k / 3.0;
    const double rtol = 0x1p-21;
    for (std::size_t i = 0; i < cells; ++i) {
      const double g = got[i], r = ref[i];
      const bool finite = std::isfinite(g);
      const double err = finite ? std::fabs(g - r) : INFINITY;
      const double allowed = c.tolerance + rtol * std::fabs(r);
      if (!finite) ++c.nonfinite;
      if (finite && err > c.max_abs_error) c.max_abs_error = err;
      if (err > allowed) {
        if (c.wrong++ == 0) {
          c.first_row = static_cast<long long>(i / n);
          c.first_col = static_cast<long long>(i % n);
          c.first_got = g;
          c.first_expected = r;
        }
      }
    }
    c.passed = c.wrong == 0;
    return c;
  }

  // Warm up by time, then sample until successive samples agree (see the top of the file).
  Stats measure(bool student, int m, int n, int k) {
    set_phase(student ? "timing your kernel" : "timing cuBLAS", student);
    const auto once = [&] {
      return timed([&] { student ? run_student(m, n, k) : run_cublas(m, n, k, m_c.floats()); }, true);
    };
    // The check run, then at least one untimed run and more until they add up to kDeviceWarmupS of device time (or
    // twice that in wall time: measure.cpp's rule for a timer that counts less than a run takes).
    double warmup_s = 0;
    int warmup_runs = 0;
    const auto t0 = wall();
    do {
      warmup_s += once();
      ++warmup_runs;
    } while (warmup_s < kDeviceWarmupS && wall() - t0 < 2 * kDeviceWarmupS);
    std::vector<double> samples;
    double spent = 0;
    while (true) {
      samples.push_back(once());
      spent += samples.back();
      const int count = static_cast<int>(samples.size());
      if (count >= kMaxSamples) break;
      if (count < kMinSamples) continue;
      if (spent >= kTimeBudgetS || tail_agrees(samples)) break;
    }
    int dropped = 0;
    if (tail_agrees(samples)) {
      const double tail_max = *std::max_element(samples.end() - kMinSamples, samples.end());
      while (dropped < static_cast<int>(samples.size()) - kMinSamples && samples[dropped] > tail_max * (1 + kTargetSpread))
        ++dropped;
      samples.erase(samples.begin(), samples.begin() + dropped);
    }
    Stats out = summarize(samples);
    out.dropped = dropped;
    out.warmup_runs = warmup_runs;
    out.warmup_s = warmup_s;
    return out;
  }

  static std::string shape(int m, int n, int k) {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }

 private:
  static double wall() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  void run_student(int m, int n, int k) {
    sgemm_student(m, n, k, m_a.floats(), m_b.floats(), m_c.floats(), m_stream.get());
    CHECK_CUDA(cudaGetLastError());  // a bad launch configuration, at once
  }

  void run_cublas(int m, int n, int k, float* c) {
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the operands swapped, m with n (gpu/cuda/kernels/blas.hpp).
    const float alpha = 1.0f, beta = 0.0f;
    CHECK_CUBLAS(cublasSgemm(m_blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, m_b.floats(), n, m_a.floats(), k,
                             &beta, c, n));
  }

  void poison() { CHECK_CUDA(cudaMemsetAsync(m_c.get(), 0xFF, m_c.bytes(), m_stream.get())); }
  void sync() { CHECK_CUDA(cudaStreamSynchronize(m_stream.get())); }

  // Device seconds of `work` between two events on the stream; with `flush`, C poisoned and the L2 flushed first,
  // outside the timed region.
  template <class Work>
  double timed(Work&& work, bool flush) {
    if (flush) {
      poison();
      CHECK_CUDA(cudaMemsetAsync(m_flush.get(), 0, m_flush.bytes(), m_stream.get()));
    }
    CHECK_CUDA(cudaEventRecord(m_start.get(), m_stream.get()));
    work();
    CHECK_CUDA(cudaEventRecord(m_stop.get(), m_stream.get()));
    CHECK_CUDA(cudaEventSynchronize(m_stop.get()));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()));
    return ms * 1e-3;
  }

  Options m_opt;
  Stream m_stream;
  Event m_start, m_stop;
  Cublas m_blas;
  DeviceBuffer m_a, m_b, m_c, m_ref, m_flush;
};

Json stats_json(const Stats& s, double flops) {
  Json j;
  j.num("median_s", s.median).num("min_s", s.min).num("max_s", s.max).num("rel_spread", s.spread);
  j.integer("samples", s.n).integer("settling_dropped", s.dropped).integer("warmup_runs", s.warmup_runs);
  j.num("warmup_s", s.warmup_s).num("gflops", s.median > 0 ? flops / s.median * 1e-9 : 0);
  return j;
}

bool parse_int(const char* text, long long lo, long long hi, long long& out) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (!end || *end || v < lo || v > hi) return false;
  out = v;
  return true;
}

int usage(const std::string& why) {
  emit(header("usage").str("reason", why + " (usage: student_timing [--size N | --m M --n N --k K] [--seed S] "
                                          "[--no-resize])"));
  return kExitUsage;
}

int run(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    long long v = 0;
    if (a == "--no-resize") {
      o.resize = false;
    } else if ((a == "--size" || a == "--m" || a == "--n" || a == "--k") && i + 1 < argc &&
               parse_int(argv[i + 1], 1, 32768, v)) {
      ++i;
      if (a == "--size") o.m = o.n = o.k = static_cast<int>(v);
      if (a == "--m") o.m = static_cast<int>(v);
      if (a == "--n") o.n = static_cast<int>(v);
      if (a == "--k") o.k = static_cast<int>(v);
    } else if (a == "--seed" && i + 1 < argc && parse_int(argv[i + 1], 0, (1ll << 53) - 1, v)) {
      o.seed = static_cast<std::uint64_t>(v);
      ++i;
    } else {
      return usage("bad argument \"" + a + "\"");
    }
  }

  int devices = 0;
  const cudaError_t counted = cudaGetDeviceCount(&devices);
  if (counted != cudaSuccess || devices == 0) {
    // 35 (insufficient driver) with no driver, 34 with only the stub library, 100 with a driver and no device.
    const std::string why = counted != cudaSuccess
                                ? std::string("no CUDA device: cudaGetDeviceCount says ") + cudaGetErrorName(counted) +
                                      " (" + cudaGetErrorString(counted) + ")"
                                : std::string("no CUDA device: the driver reports none");
    emit(header("no_device").str("reason", why).integer("cuda_error", counted));
    return kExitNoDevice;
  }
  CHECK_CUDA(cudaSetDevice(0));
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int runtime = 0, driver = 0;
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  Json device;
  device.str("name", prop.name)
      .str("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor))
      .integer("sms", prop.multiProcessorCount)
      .integer("l2_bytes", prop.l2CacheSize)
      .num("memory_bytes", static_cast<double>(prop.totalGlobalMem))
      .integer("runtime_version", runtime)
      .integer("driver_version", driver);

  // The buffers at the size asked for (a smaller timed size uses their first elements), when the device has room.
  std::size_t free_bytes = 0, total_bytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const int asked_m = o.m, asked_n = o.n, asked_k = o.k;
  const auto need = [&] {
    return 4.0 * (double(o.m) * o.k + double(o.k) * o.n + 2.0 * o.m * o.n) + 2.0 * prop.l2CacheSize + (64 << 20);
  };
  while (need() > 0.8 * double(free_bytes) && std::max({o.m, o.n, o.k}) > kSmallestSize) {
    o.m = std::max(1, o.m / 2), o.n = std::max(1, o.n / 2), o.k = std::max(1, o.k / 2);
  }
  Bench bench(o, prop);
  const int probe = std::min({kProbeSize, o.m, o.n, o.k});
  bench.first_run(probe);

  // The time estimate: one run at kEstimateSize³ (warm), scaled by the FLOPs to the size asked for; halved while it
  // is too slow. The sizes stay proportional to what was asked.
  std::string resized;
  if (o.resize) {
    const int est = std::min({kEstimateSize, o.m, o.n, o.k});
    const double t = bench.estimate(est);
    const double per_flop = t / (2.0 * est * est * double(est));
    while (per_flop * 2.0 * o.m * o.n * double(o.k) > kMaxRunSeconds && std::max({o.m, o.n, o.k}) > kSmallestSize) {
      o.m = std::max(1, o.m / 2), o.n = std::max(1, o.n / 2), o.k = std::max(1, o.k / 2);
    }
    if (o.m != asked_m || o.n != asked_n || o.k != asked_k)
      resized = "sized down from " + Bench::shape(asked_m, asked_n, asked_k) + ": one run of your kernel there would "
                "take about " + number(per_flop * 2.0 * asked_m * asked_n * double(asked_k)) + " s";
  } else if (o.m != asked_m || o.n != asked_n || o.k != asked_k) {
    resized = "sized down from " + Bench::shape(asked_m, asked_n, asked_k) + " to fit the device's free memory";
  }

  Bench::Check c = bench.check(o.m, o.n, o.k);
  // The estimate scales FLOPs; a kernel whose caches stop helping at the larger size can be far slower than that.
  // A check run over four times the limit halves the size again (and checks again).
  while (o.resize && c.passed && c.run_s > 4 * kMaxRunSeconds && std::max({o.m, o.n, o.k}) > kSmallestSize) {
    resized = "sized down from " + Bench::shape(asked_m, asked_n, asked_k) + ": one run of your kernel at " +
              Bench::shape(o.m, o.n, o.k) + " took " + number(c.run_s) + " s";
    o.m = std::max(1, o.m / 2), o.n = std::max(1, o.n / 2), o.k = std::max(1, o.k / 2);
    c = bench.check(o.m, o.n, o.k);
  }
  Json check;
  check.boolean("passed", c.passed)
      .num("max_abs_error", c.max_abs_error)
      .num("atol", c.tolerance)
      .num("rtol", 0x1p-21)
      .integer("wrong_cells", c.wrong)
      .integer("nonfinite_cells", c.nonfinite)
      .str("reference", "cuBLAS SGEMM (FP32, no TF32)");
  if (c.wrong) {
    check.integer("first_wrong_row", c.first_row).integer("first_wrong_col", c.first_col);
    check.num("first_wrong_got", c.first_got).num("first_wrong_expected", c.first_expected);
  }
  Json out = header(c.passed ? "timed" : "wrong");
  out.object("device", device).integer("m", o.m).integer("n", o.n).integer("k", o.k).integer("seed",
                                                                                              static_cast<long long>(o.seed));
  if (!resized.empty()) out.str("resized", resized);
  out.object("check", check);
  if (!c.passed) {
    emit(out);
    return kExitWrong;
  }
  const double flops = 2.0 * o.m * o.n * double(o.k);
  const Stats s = bench.measure(true, o.m, o.n, o.k);
  const Stats b = bench.measure(false, o.m, o.n, o.k);
  out.object("student", stats_json(s, flops)).object("cublas", stats_json(b, flops));
  out.str("method", "CUDA events on one stream; C poisoned and L2 flushed before each sample; warm-up by time (at "
                    "least 0.2 s of device work) for each; samples until 3 in a row agree within 5 % (or 2 s, or "
                    "50); the median");
  emit(out);
  return kExitTimed;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const CudaFailure& e) {
    emit(header(e.student ? "student_error" : "cuda_error").str("reason", e.what()).str("error", e.name).str("phase",
                                                                                                            g_phase));
    return e.student ? kExitStudentError : kExitCudaError;
  } catch (const std::exception& e) {
    emit(header("cuda_error").str("reason", std::string("the timing harness failed: ") + e.what()).str("phase", g_phase));
    return kExitCudaError;
  }
}

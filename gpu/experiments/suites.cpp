// The named suites behind `gpulab bench`. A suite is planned as a list of jobs first, so progress is a true
// fraction of the whole and the CLI can say what runs next; then the jobs run in order, each producing one Result.
// Nothing here throws past run_suite except for an unknown suite name: a failing job becomes an error result.
#include "gpulab/suites.hpp"

#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/decode_experiments.hpp"
#include "gpulab/memory_hold.hpp"
#include "gpulab/models/vram_model.hpp"

#include "gpulab/cli.hpp"
#include "gpulab/precision_error.hpp"
#include "gpulab/underflow_demo.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace gpulab {
namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

struct Job {
  std::string label;  // shown while it runs: "gemm blas fp32 512³ (1 thread)"
  double weight = 1;  // a rough share of the suite's time, for the progress bar
  std::function<Result(const RunContext&)> run;
  // What the job measures, for the error result when it throws.
  Backend* backend = nullptr;
  std::string experiment, variant;
  Precision precision = Precision::fp32;
  // Set instead of run for a job that measures several things side by side (the Amdahl ladder).
  std::function<std::vector<Result>(const RunContext&)> run_many = {};
};

std::string cube(long long n) { return std::to_string(n) + "³"; }
std::string mib(std::size_t bytes) { return std::to_string(bytes / MiB) + " MiB"; }
std::string threads_word(int threads) {
  return threads == 0 ? "all threads" : threads == 1 ? "1 thread" : std::to_string(threads) + " threads";
}

bool offers(const Backend& b, const std::string& variant) {
  auto v = b.gemm_variants();
  return std::find(v.begin(), v.end(), variant) != v.end();
}

// A result that records why something did not run, so the recording shows the gap instead of hiding it.
Result error_result(const Backend& b, std::string experiment, std::string variant, Precision p, Params params,
                    std::string why) {
  Result r;
  r.experiment = std::move(experiment);
  r.backend = b.kind();
  r.variant = std::move(variant);
  r.precision = p;
  r.params = std::move(params);
  r.check.message = "not run";
  r.error = std::move(why);
  return r;
}

// Timing estimates for the progress bar only: a run is checked once, warmed up, and repeated up to the budget.
double gemm_weight(const GemmSpec& s, const std::string& kind) {
  double flops = 2.0 * s.m * s.n * s.k;
  double rate = s.variant == "naive" ? 1e9 : s.variant == "reordered" ? 8e9 : kind == "cuda" ? 5e12 : 5e10;
  return std::min(4.0, 0.05 + 5 * flops / rate);
}

class Planner {
 public:
  explicit Planner(const Backends& b) : m_b(b) {}

  void gemm(Backend& b, long long m, long long n, long long k, const std::string& variant, Precision p,
            int threads = 0) {
    GemmSpec s;
    s.m = m;
    s.n = n;
    s.k = k;
    s.variant = variant;
    s.precision = p;
    s.threads = threads;
    std::string label = "gemm " + variant + " " + std::string(to_string(p)) + " " +
                        (m == n && n == k ? cube(n) : std::to_string(m) + "×" + std::to_string(n) + "×" +
                                                          std::to_string(k));
    if (b.kind() == "cpu" && variant != "naive" && variant != "reordered") label += " (" + threads_word(threads) + ")";
    if (b.kind() == "cuda") label = "GPU " + label;
    Backend* bp = &b;
    m_jobs.push_back({label, gemm_weight(s, b.kind()), [bp, s](const RunContext& ctx) {
                        if (!offers(*bp, s.variant))
                          return error_result(*bp, "gemm", s.variant, s.precision,
                                              {{"m", double(s.m)}, {"n", double(s.n)}, {"k", double(s.k)}},
                                              "the " + bp->kind() + " backend has no GEMM variant \"" + s.variant + "\"");
                        return run_gemm(*bp, s, ctx);
                      },
                      bp, "gemm", s.variant, s.precision});
  }

  void bandwidth(Backend& b, const std::string& kind, std::size_t bytes, int threads = 0) {
    BandwidthSpec s;
    s.kind = kind;
    s.bytes_per_array = bytes;
    s.threads = threads;
    std::string label = (b.kind() == "cuda" ? "GPU bandwidth " : "bandwidth ") + kind + " " + mib(bytes);
    if (b.kind() == "cpu") label += " (" + threads_word(threads) + ")";
    Backend* bp = &b;
    m_jobs.push_back({label, 0.5 + bytes / (1024.0 * MiB), [bp, s](const RunContext& ctx) {
                        return run_bandwidth(*bp, s, ctx);
                      },
                      bp, "bandwidth", s.kind, Precision::fp32});
  }

  void transfer(Backend& b, const std::string& direction, bool pinned, std::size_t bytes) {
    TransferSpec s;
    s.direction = direction;
    s.pinned = pinned;
    s.bytes = bytes;
    std::string label = "transfer " + direction + (direction == "h2d" || direction == "d2h"
                                                       ? (pinned ? " pinned " : " pageable ")
                                                       : " ") + mib(bytes);
    Backend* bp = &b;
    m_jobs.push_back({label, 0.5 + bytes / (1024.0 * MiB), [bp, s](const RunContext& ctx) {
                        return run_transfer(*bp, s, ctx);
                      },
                      bp, "transfer", s.direction, Precision::fp32});
  }

  // The control for "the harness adds nothing": OpenBLAS's sgemm called directly with a bare clock, run
  // right after the harness's own BLAS run of the same size and threads so both see the same machine state.
  void direct_blas(Backend& cpu, long long n, int threads) {
    Backend* bp = &cpu;
    m_jobs.push_back({"gemm blas-direct fp32 " + cube(n) + " (" + threads_word(threads) + ", no harness)",
                      gemm_weight({n, n, n, Precision::fp32, "blas", threads, 42}, "cpu"),
                      [bp, n, threads](const RunContext&) {
                        Params params{{"m", double(n)}, {"n", double(n)}, {"k", double(n)},
                                      {"threads", double(threads)}};
                        // Enough repeats for a stable median at this size, bounded so 2 cores stay quick.
                        const int repeats = n <= 512 ? 30 : n <= 1024 ? 10 : 5;
                        double median = direct_blas_sgemm_median_s(n, threads, repeats);
                        if (!(median > 0))
                          return error_result(*bp, "gemm", "blas-direct", Precision::fp32, params,
                                              "OpenBLAS is not available in this build");
                        Result r;
                        r.experiment = "gemm";
                        r.backend = bp->kind();
                        r.variant = "blas-direct";
                        r.precision = Precision::fp32;
                        r.params = params;
                        r.params["repeats"] = repeats;
                        // Timed only: the harness's "blas" result of the same call is the checked one.
                        r.check.passed = true;
                        r.check.message = "timing control: output not checked (the harness's blas run is)";
                        r.stats.median_s = r.stats.min_s = r.stats.max_s = r.stats.mean_s = median;
                        r.stats.n = repeats;
                        r.flops = 2.0 * double(n) * double(n) * double(n);
                        r.bytes = 3.0 * double(n) * double(n) * 4;
                        r.provenance = bp->provenance();
                        r.provenance["timing"] = "bare steady_clock around cblas_sgemm, median of " +
                                                 std::to_string(repeats) + " calls; only the median is kept";
                        finalize_rates(r);
                        return r;
                      },
                      bp, "gemm", "blas-direct", Precision::fp32});
  }

  void note(Backend& b, std::string experiment, std::string variant, Precision p, Params params, std::string why) {
    Backend* bp = &b;
    m_jobs.push_back({experiment + " " + variant + " " + std::string(to_string(p)) + " (skipped)", 0.01,
                      [=](const RunContext&) { return error_result(*bp, experiment, variant, p, params, why); },
                      bp, experiment, variant, p});
  }

  // ---- the building blocks of the suites ----

  void quick() {
    Backend& cpu = *m_b.cpu;
    gemm(cpu, 256, 256, 256, "naive", Precision::fp32);
    gemm(cpu, 512, 512, 512, "naive", Precision::fp32);
    gemm(cpu, 512, 512, 512, "reordered", Precision::fp32);
    gemm(cpu, 512, 512, 512, "blas", Precision::fp32, 1);
    direct_blas(cpu, 512, 1);
    gemm(cpu, 512, 512, 512, "blas", Precision::fp32, 0);
    direct_blas(cpu, 512, 0);
    for (std::size_t bytes : {64 * MiB, 256 * MiB})
      for (const char* kind : {"copy", "triad"}) bandwidth(cpu, kind, bytes);
    if (m_b.cuda) {
      Backend& gpu = *m_b.cuda;
      for (const auto& v : gpu.gemm_variants()) gemm(gpu, 2048, 2048, 2048, v, Precision::fp32);
      bandwidth(gpu, "triad", 256 * MiB);
      transfer(gpu, "h2d", true, 256 * MiB);
      transfer(gpu, "d2h", true, 256 * MiB);
    }
  }

  // The naive loop where its length matters (issue 13): each run announces its predicted time, from a probe of
  // the same product, and the recording keeps it beside the real one, so `bench` shows how far off it was.
  void estimate() {
    Backend& cpu = *m_b.cpu;
    for (long long n : {1024LL, 2048LL}) gemm(cpu, n, n, n, "naive", Precision::fp32);
  }

  void matmul() {
    Backend& cpu = *m_b.cpu;
    for (long long n : {64, 128, 256, 512, 1024, 2048, 4096}) {
      for (const auto& v : cpu.gemm_variants()) {
        // The naive loop at 2048³ takes minutes; the point (it is slow) is made by 1024³.
        if (v == "naive" && n > 1024) continue;
        if (v == "reordered" && n > 2048) continue;
        if (v == "blas") {
          gemm(cpu, n, n, n, v, Precision::fp32, 1);
          gemm(cpu, n, n, n, v, Precision::fp32, 0);
        } else {
          gemm(cpu, n, n, n, v, Precision::fp32);
        }
      }
    }
    direct_blas(cpu, 1024, 0);
    // The matmul page's presets beyond the squares above: the lesson's n = 60 practice and its layer, batch 32
    // times 4096×4096 (m = 32, k = n = 4096; the naive loop there is ~1 GFLOP, seconds, not minutes), so a
    // recording shows bars at both.
    auto lesson_shapes = [this](Backend& b, bool cpu_side) {
      for (const auto& [m, k, n] : {std::array<long long, 3>{60, 60, 60}, std::array<long long, 3>{32, 4096, 4096}})
        for (const auto& v : b.gemm_variants()) {
          if (cpu_side && v == "blas") {
            gemm(b, m, n, k, v, Precision::fp32, 1);
            gemm(b, m, n, k, v, Precision::fp32, 0);
          } else {
            gemm(b, m, n, k, v, Precision::fp32);
          }
        }
    };
    lesson_shapes(cpu, true);
    if (m_b.cuda) {
      Backend& gpu = *m_b.cuda;
      for (long long n : {256, 1024, 2048, 4096})
        for (const auto& v : gpu.gemm_variants()) gemm(gpu, n, n, n, v, Precision::fp32);
      if (offers(gpu, "cublas")) gemm(gpu, 8192, 8192, 8192, "cublas", Precision::fp32);
      lesson_shapes(gpu, false);
    }
  }

  void bandwidth_suite() {
    Backend& cpu = *m_b.cpu;
    // Small arrays live in cache: the curve shows the cliff down to DRAM bandwidth.
    for (std::size_t bytes : {1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB})
      for (const char* kind : {"copy", "triad"}) {
        bandwidth(cpu, kind, bytes, 1);
        bandwidth(cpu, kind, bytes, 0);
      }
    if (m_b.cuda)
      for (std::size_t bytes : {4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1024 * MiB})
        for (const char* kind : {"copy", "triad"}) bandwidth(*m_b.cuda, kind, bytes);
  }

  void transfer_suite() {
    for (std::size_t bytes : {1 * MiB, 16 * MiB, 256 * MiB}) transfer(*m_b.cpu, "h2h", false, bytes);
    if (m_b.cuda)
      for (std::size_t bytes : {1 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1024 * MiB}) {
        for (bool pinned : {true, false}) {
          transfer(*m_b.cuda, "h2d", pinned, bytes);
          transfer(*m_b.cuda, "d2h", pinned, bytes);
        }
        transfer(*m_b.cuda, "d2d", true, bytes);
      }
    // GPU to GPU, for the many-GPUs page: measured when a second GPU is there, otherwise one note says why.
    if (m_b.cuda) {
      const Support p2p = m_b.cuda->supports(TransferSpec{"p2p", true, 64 * MiB});
      if (!p2p.ok) note(*m_b.cuda, "transfer", "p2p", Precision::fp32, {{"bytes", double(64 * MiB)}}, p2p.reason);
      else
        for (std::size_t bytes : {64 * MiB, 256 * MiB, 1024 * MiB}) transfer(*m_b.cuda, "p2p", true, bytes);
    }
  }

  // Y = X·W with X B×d and W d×d: at small B the weights' bytes dominate (memory-bound), at large B the
  // FLOPs do (compute-bound). The sweep finds where the crossover is on this machine.
  void batch(long long d = 4096) {
    for (long long batch = 1; batch <= 1024; batch *= 2) gemm(*m_b.cpu, batch, d, d, "blas", Precision::fp32, 0);
    if (m_b.cuda && offers(*m_b.cuda, "cublas"))
      for (Precision p : {Precision::fp32, Precision::bf16})
        for (long long batch = 1; batch <= 1024; batch *= 2) {
          GemmSpec s{batch, d, d, p, "cublas", 0, 42};
          Support ok = m_b.cuda->supports(s);
          if (!ok.ok) {
            note(*m_b.cuda, "gemm", "cublas", p, {{"m", double(batch)}, {"n", double(d)}, {"k", double(d)}},
                 ok.reason);
            break;  // one note per precision says it all
          }
          gemm(*m_b.cuda, batch, d, d, "cublas", p);
        }
  }

  // Every precision, on every backend: the ones a backend lacks are recorded with its reason so the page can
  // grey them out and say why.
  void precision() {
    precision_on(*m_b.cpu, 512, {"blas", "reordered", "naive"});
    if (m_b.cuda) {
      std::vector<std::string> order{"cublas"};
      for (const auto& v : m_b.cuda->gemm_variants())
        if (v != "cublas") order.push_back(v);
      precision_on(*m_b.cuda, 4096, order);
    }
    // Each format's own error against FP64 and the FP16 underflow demo: software on the CPU, a second or two.
    for (Precision p : all_precisions)
      m_jobs.push_back({"precision error " + std::string(to_string(p)) + " (emulated)", 0.05,
                        [p](const RunContext&) {
                          PrecisionErrorSpec s;
                          s.m = s.n = 64;
                          s.k = 4096;
                          s.precision = p;
                          return emulated_error_result(s);
                        },
                        m_b.cpu, "precision_error", "emulated", p});
    m_jobs.push_back({"underflow demo (FP16, BF16, loss scaling)", 0.2,
                      [](const RunContext&) { return underflow_result(UnderflowSpec{}); }, m_b.cpu, "underflow",
                      "software-fp16-bf16", Precision::fp16});
  }

  void precision_on(Backend& b, long long n, const std::vector<std::string>& preferred) {
    for (Precision p : all_precisions) {
      std::string first_reason, chosen;
      for (const auto& v : preferred) {
        if (!offers(b, v)) continue;
        Support ok = b.supports(GemmSpec{n, n, n, p, v, 0, 42});
        if (ok.ok) {
          chosen = v;
          break;
        }
        if (first_reason.empty()) first_reason = ok.reason;
      }
      if (!chosen.empty())
        gemm(b, n, n, n, chosen, p);
      else
        note(b, "gemm", preferred.front(), p, {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}},
             first_reason.empty() ? "no GEMM variant on " + b.kind() + " runs " + std::string(display_name(p))
                                  : first_reason);
    }
  }

  // One decode step of a 7B-shaped model at 1…64 users — the decode page's measured chain — with as many layers
  // as fit the budget (the page extrapolates to 32). CPU in FP32, GPU in FP16.
  void decode() {
    decode_on(*m_b.cpu, Precision::fp32, 2e9);
    if (m_b.cuda) decode_on(*m_b.cuda, Precision::fp16, std::min(16e9, m_b.cuda->memory_info().free_bytes / 2));
  }

  void decode_on(Backend& b, Precision p, double budget_bytes) {
    const TransformerShape shape;
    const LayerChainSpec probe = layer_chain_for(shape, 1, 1, p);
    const Support ok = b.supports(probe);
    if (!ok.ok) {
      note(b, "layer_chain", "gemm_chain", p, {{"batch", 1.0}}, ok.reason);
      return;
    }
    const int layers = layer_chain_layers_that_fit(probe, budget_bytes, shape.layers);
    for (long long users = 1; users <= 64; users *= 2)
      m_jobs.push_back({"decode chain " + std::string(display_name(p)) + ", " + std::to_string(layers) + " of " +
                            std::to_string(shape.layers) + " layers, " + std::to_string(users) + " users",
                        1.0,
                        [&b, shape, layers, users, p](const RunContext& ctx) {
                          return run_layer_chain(b, layer_chain_for(shape, layers, users, p), ctx);
                        },
                        &b, "layer_chain", "gemm_chain", p});
  }

  // Amdahl's law measured: a job with a 30 % serial prefix (the page's example) on 1, 2, 4 … all threads, timed
  // side by side; and on a GPU the cost of launching many tiny kernels, the serial part GPUs add.
  void amdahl() {
    AmdahlScalingSpec spec;
    spec.serial_share = 0.3;
    spec.threads = amdahl_thread_ladder(std::max(2, static_cast<int>(std::thread::hardware_concurrency())));
    Backend* cpu = m_b.cpu;
    Job j;
    j.label = "Amdahl job, 30 % serial, 1…" + std::to_string(spec.threads.back()) + " threads";
    j.weight = 2;
    j.run_many = [cpu, spec](const RunContext& ctx) { return run_amdahl_scaling(*cpu, spec, ctx); };
    j.backend = cpu;
    j.experiment = "amdahl_scaling";
    j.variant = "threads";
    j.precision = Precision::fp64;
    m_jobs.push_back(std::move(j));
    if (m_b.cuda) {
      Backend* gpu = m_b.cuda;
      const LaunchOverheadSpec launch{1000, 1024};
      m_jobs.push_back({"GPU 1000 tiny kernels back to back", 0.5,
                        [gpu, launch](const RunContext& ctx) { return run_launch_overhead(*gpu, launch, ctx); },
                        gpu, "launch_overhead", "tiny_kernels", Precision::fp32});
    }
  }

  // The VRAM page's live bars: the page's default estimate (a 7B model served in FP16, 4,096 tokens) held on
  // the GPU in 8 steps for half a second and released, with cudaMemGetInfo read at every step. A GPU only:
  // the page is about the card's memory, not the host's.
  void vram() {
    if (!m_b.cuda) {
      note(*m_b.cpu, "hold_memory", "held", Precision::fp32, {},
           "the live memory bars need a GPU: " + (m_b.cuda_reason.empty() ? std::string("none here") : m_b.cuda_reason));
      return;
    }
    Backend* gpu = m_b.cuda;
    models::VramInputs in;
    in.shape = *models::find_preset("lesson-7b");
    in.context = 4096;
    const double request = models::vram_budget(in, 0).total;  // 17.4 GB: what the page shows by default
    m_jobs.push_back({"GPU memory: hold " + format_bytes(request) + " in 8 steps, then free it", 1.0,
                      [gpu, request](const RunContext& ctx) {
                        return run_hold_memory(*gpu, request, default_hold_margin(gpu->memory_info()), 8, 0.5, ctx);
                      },
                      gpu, "hold_memory", "held", Precision::fp32});
  }

  std::vector<Job>& jobs() { return m_jobs; }

 private:
  const Backends& m_b;
  std::vector<Job> m_jobs;
};

const std::vector<SuiteInfo> suite_table{
    {"quick", "CPU GEMM naive/reordered/BLAS at 512³ with a direct-BLAS control, and memory bandwidth (about a minute)"},
    {"matmul", "GEMM from 64³ to 4096³: every CPU variant, and on a GPU the kernel ladder and cuBLAS"},
    {"bandwidth", "copy and triad from cache-sized to DRAM-sized arrays (CPU, and GPU when present)"},
    {"transfer", "host memcpy; on a GPU host→device, device→host (pinned and pageable), device→device, GPU→GPU"},
    {"batch", "Y = X·W with d = 4096 and batch 1…1024: memory-bound to compute-bound"},
    {"precision", "GEMM in every precision each backend supports; the others recorded with the reason"},
    {"decode", "a 7B-shaped decode step (GEMV chain) at 1…64 users, against the bandwidth ceiling"},
    {"amdahl", "a job with a 30 % serial part on 1…all CPU threads, timed side by side; GPU kernel-launch cost"},
    {"vram", "on a GPU: a 7B FP16 model's memory held in 8 steps and freed, free memory read at each step"},
    {"all", "every suite above, one after another"},
    {"estimate", "the naive loop at 1024³ and 2048³, its predicted time beside the real one (minutes; not in all)"},
};

std::string hostname() {
  char buf[256] = {0};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

// Library versions as one line: "OpenBLAS 0.3.21; nlohmann_json 3.11.2; ...". Backends report theirs in
// provenance under keys that name a library.
std::string libraries_line(const Backends& b) {
  std::string out = "nlohmann_json " + std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                    std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  auto scan = [&out](const Backend* be) {
    if (!be) return;
    for (const auto& [key, value] : be->provenance()) {
      std::string k = key;
      std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      bool library = k.find("blas") != std::string::npos || k.find("cuda") != std::string::npos ||
                     k.find("driver") != std::string::npos || k.find("runtime") != std::string::npos ||
                     k.find("librar") != std::string::npos || k.find("compiler") != std::string::npos;
      if (library && !value.empty()) out += "; " + key + " " + value;
    }
  };
  scan(b.cpu);
  scan(b.cuda);
  return out;
}

}  // namespace

const std::vector<SuiteInfo>& suites() { return suite_table; }

bool is_suite(const std::string& name) {
  return std::any_of(suite_table.begin(), suite_table.end(), [&](const SuiteInfo& s) { return s.name == name; });
}

Recording run_suite(const std::string& name, const Backends& backends, const RunContext& ctx,
                    const std::function<void(const Recording&)>& on_update) {
  if (!is_suite(name)) throw std::invalid_argument("unknown suite \"" + name + "\"");
  if (!backends.cpu) throw std::invalid_argument("run_suite needs the CPU backend");

  Recording rec;
  for (const auto& [key, value] : base_provenance()) rec.context[key] = value;
  const DeviceInfo cpu = backends.cpu->device_info();
  rec.context["host"] = hostname();
  rec.context["cpu"] = cpu.name;
  rec.context["cpu_cores"] = std::to_string(cpu.compute_units);
  if (!cpu.simd.empty()) rec.context["cpu_simd"] = cpu.simd;
  if (backends.cuda) {
    const DeviceInfo gpu = backends.cuda->device_info();
    rec.context["gpu"] = gpu.name;
    if (!gpu.compute_capability.empty()) rec.context["gpu_compute_capability"] = gpu.compute_capability;
    if (!gpu.driver_version.empty()) rec.context["gpu_driver"] = gpu.driver_version;
    if (!gpu.runtime_version.empty()) rec.context["gpu_runtime"] = gpu.runtime_version;
  } else {
    rec.context["gpu"] = "none";
    rec.context["gpu_reason"] = backends.cuda_reason.empty() ? "no CUDA backend" : backends.cuda_reason;
  }
  rec.context["libraries"] = libraries_line(backends);
  rec.context["date"] = iso_date_now();
  rec.context["suite"] = name;
  rec.context["gpulab_version"] = version_string();
  std::ostringstream policy;
  policy << "min " << ctx.policy.min_samples << ", max " << ctx.policy.max_samples << " samples; stop at spread "
         << ctx.policy.target_rel_spread << " or after " << ctx.policy.time_budget_s << " s of timed work";
  rec.context["policy"] = policy.str();

  Planner plan(backends);
  if (name == "quick") plan.quick();
  if (name == "estimate") plan.estimate();
  if (name == "matmul" || name == "all") plan.matmul();
  if (name == "bandwidth" || name == "all") plan.bandwidth_suite();
  if (name == "transfer" || name == "all") plan.transfer_suite();
  if (name == "batch" || name == "all") plan.batch();
  if (name == "precision" || name == "all") plan.precision();
  if (name == "decode" || name == "all") plan.decode();
  if (name == "amdahl" || name == "all") plan.amdahl();
  if (name == "vram" || name == "all") plan.vram();

  rec.complete = false;  // until every job has run
  if (on_update) on_update(rec);
  auto& jobs = plan.jobs();
  // GPU jobs first: GPU time is the scarce kind (a borrowed server, a capped device check), and a run stopped
  // early should have spent it on the GPU. Stable, so CPU jobs that pair up (BLAS then direct BLAS) stay adjacent.
  if (backends.cuda)
    std::stable_partition(jobs.begin(), jobs.end(), [&](const Job& j) { return j.backend == backends.cuda; });
  double total = 0;
  for (const auto& j : jobs) total += j.weight;
  double done = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (ctx.cancelled()) break;
    const Job& job = jobs[i];
    // Each job reports into its own slice of the bar, always under its own label: the experiment's inner
    // messages ("sample 7") would make the suite's progress line flicker.
    RunContext sub = ctx;
    sub.on_result = nullptr;  // the experiments call on_result themselves; the suite does it once, below
    sub.progress_base = ctx.progress_base + ctx.progress_span * (done / total);
    sub.progress_span = ctx.progress_span * (job.weight / total);
    if (ctx.on_progress) {
      const ProgressFn outer = ctx.on_progress;
      const std::string label = job.label;
      sub.on_progress = [outer, label](const Progress& p) { outer(Progress{p.fraction, label}); };
    }
    sub.report(0, job.label);
    std::vector<Result> rs;
    try {
      if (job.run_many) rs = job.run_many(sub);
      else rs.push_back(job.run(sub));
    } catch (const std::exception& e) {
      // A bad spec or a device fault ends this job only; the suite goes on and the recording says what broke.
      rs = {error_result(job.backend ? *job.backend : *backends.cpu, job.experiment, job.variant, job.precision, {},
                         job.label + ": " + e.what())};
    } catch (...) {
      rs = {error_result(job.backend ? *job.backend : *backends.cpu, job.experiment, job.variant, job.precision, {},
                         job.label + ": failed with an unknown error")};
    }
    // Interrupted before its first sample: there is nothing to record, only the stop.
    const bool nothing = std::all_of(rs.begin(), rs.end(), [](const Result& r) {
      return r.samples_s.empty() && r.stats.n == 0;
    });
    if (ctx.cancelled() && nothing) break;
    for (auto& r : rs) {
      rec.results.push_back(std::move(r));
      if (ctx.on_result) ctx.on_result(rec.results.back());
    }
    if (on_update) on_update(rec);
    done += job.weight;
  }
  if (ctx.cancelled()) rec.context["cancelled"] = "yes: the run was stopped early; results are those measured";
  rec.complete = !ctx.cancelled();
  ctx.report(ctx.cancelled() ? done / total : 1.0, ctx.cancelled() ? "cancelled" : "done");
  return rec;
}

}  // namespace gpulab

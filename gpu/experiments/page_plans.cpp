// The plan builders behind the pages' Run buttons and `gpulab bench --suite NAME` (see page_plans.hpp).
#include "gpulab/page_plans.hpp"
#include "gpulab/roofs.hpp"

#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/device_words.hpp"
#include "gpulab/matmul_suite.hpp"
#include "gpulab/memory_hold.hpp"
#include "gpulab/models/vram_model.hpp"
#include "gpulab/precision_error.hpp"
#include "gpulab/underflow_demo.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace gpulab {
namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

std::vector<Result> one(Result r) { return {std::move(r)}; }

}  // namespace

// ---- precision -------------------------------------------------------------------------------------------------

long long precision_default_n(const Backend& b) { return b.kind() == "cpu" ? 1024 : 8192; }

std::string precision_gemm_variant(Backend& b, Precision p, Support* why) {
  std::vector<std::string> order{"cublas", "cublaslt", "blas"};
  for (const auto& v : b.gemm_variants())
    if (std::find(order.begin(), order.end(), v) == order.end()) order.push_back(v);
  GemmSpec s;
  s.precision = p;
  Support first = Support::no("no GEMM variant on " + b.kind() + " runs " + std::string(display_name(p)));
  bool have_first = false;
  for (const auto& v : order) {
    if (!offers_variant(b, v)) continue;
    s.variant = v;
    const Support ok = b.supports(s);
    if (ok.ok) {
      if (why) *why = ok;
      return v;
    }
    if (!have_first) {
      first = ok;
      have_first = true;
    }
  }
  if (why) *why = first;
  return {};
}

Plan precision_plan(const Backends& backends, const PrecisionControls& c) {
  PlanBuilder plan(plan_name::precision);
  Backend& b = c.use_gpu && backends.gpu ? *backends.gpu : *backends.cpu;
  const long long n = c.n > 0 ? c.n : precision_default_n(b);
  for (Precision p : all_precisions) {
    Support why;
    const std::string v = precision_gemm_variant(b, p, &why);
    if (!v.empty()) plan.gemm(b, n, n, n, v, p);
    else plan.note(b, "gemm", "library", p, {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}}, why.reason);
  }
  // Each format's own error against FP64: software on the CPU, a second or two for all seven.
  for (Precision p : all_precisions) {
    PrecisionErrorSpec s;
    s.m = s.n = 64;
    s.k = 4096;
    s.precision = p;
    plan.add({{}, "precision error " + std::string(display_name(p)) + " against FP64 (emulated)", 0.05,
              backends.cpu, experiment_name::precision_error, "emulated", p,
              {{"m", double(s.m)}, {"n", double(s.n)}, {"k", double(s.k)}},
              [s](const RunContext&) { return one(emulated_error_result(s)); }});
  }
  if (c.underflow)
    plan.add({{}, "underflow demo (FP16, BF16, loss scaling)", 0.2, backends.cpu, experiment_name::underflow,
              "software-fp16-bf16", Precision::fp16, {},
              [](const RunContext&) { return one(underflow_result(UnderflowSpec{})); }});
  return plan.take();
}

// ---- transfers (the PCIe page) ---------------------------------------------------------------------------------

std::vector<std::size_t> transfer_sweep_bytes() {
  std::vector<std::size_t> sizes;
  for (std::size_t b = 64 * 1024; b <= 1024 * MiB; b *= 4) sizes.push_back(b);
  return sizes;
}

Plan transfer_plan(const Backends& backends, const TransferControls& c) {
  PlanBuilder plan(plan_name::transfer);
  for (std::size_t bytes : c.cpu_bytes) plan.transfer(*backends.cpu, "h2h", false, bytes);
  if (backends.gpu) {
    Backend& gpu = *backends.gpu;
    for (std::size_t bytes : c.gpu_bytes) {
      for (bool pinned : {true, false}) {
        if (!pinned && !c.pageable) continue;
        plan.transfer(gpu, "h2d", pinned, bytes);
        plan.transfer(gpu, "d2h", pinned, bytes);
      }
      plan.transfer(gpu, "d2d", true, bytes);
    }
  }
  Plan out = plan.take();
  if (c.p2p) out.append(multigpu_plan(backends));
  return out;
}

// ---- GPU to GPU (the many-GPUs page) ---------------------------------------------------------------------------

Plan multigpu_plan(const Backends& backends, const MultiGpuControls& c) {
  PlanBuilder plan(plan_name::multigpu);
  const std::size_t first = c.bytes.empty() ? 64 * MiB : c.bytes.front();
  if (!backends.gpu) {
    plan.note(*backends.cpu, "transfer", "p2p", Precision::fp32, {{"bytes", double(first)}},
              "GPU-to-GPU copies need two GPUs in one machine, and this one has none" +
                  (backends.gpu_reason.empty() ? std::string() : " (" + backends.gpu_reason + ")"));
    return plan.take();
  }
  Backend& gpu = *backends.gpu;
  const Support p2p = gpu.supports(TransferSpec{"p2p", true, first});
  if (!p2p.ok) plan.note(gpu, "transfer", "p2p", Precision::fp32, {{"bytes", double(first)}}, p2p.reason);
  else
    for (std::size_t bytes : c.bytes) plan.transfer(gpu, "p2p", true, bytes);
  return plan.take();
}

// ---- the stadium's pace ----------------------------------------------------------------------------------------

std::string stadium_gpu_variant(Backend& gpu, long long gpu_n, long long* n, std::string* why) {
  std::vector<std::string> order;
  if (offers_variant(gpu, "cublas")) order.push_back("cublas");
  const auto ladder = gpu.gemm_variants();
  for (auto it = ladder.rbegin(); it != ladder.rend(); ++it)
    if (std::find(order.begin(), order.end(), *it) == order.end()) order.push_back(*it);
  std::string first_reason;
  // A slow device (a CPU-type Vulkan one) caps the work per run: halve the size until the best step fits.
  for (long long size = gpu_n; size >= 256; size /= 2)
    for (const auto& v : order) {
      GemmSpec s;
      s.m = s.n = s.k = size;
      s.variant = v;
      const Support ok = gpu.supports(s);
      if (ok.ok) {
        if (n) *n = size;
        return v;
      }
      if (first_reason.empty()) first_reason = ok.reason;
    }
  if (why) *why = first_reason.empty() ? "no GEMM on " + gpu.kind() : first_reason;
  return {};
}

// The professor (one core, the naive loop) against the stadium (BLAS on every core, and the chosen GPU's best GEMM):
// quick timings that set the race's pace.
Plan stadium_plan(const Backends& backends, const StadiumControls& c) {
  PlanBuilder plan(plan_name::stadium);
  Backend& cpu = *backends.cpu;
  // 512³: big enough that the loop strides through memory as the lesson's long dot products do.
  plan.gemm(cpu, c.cpu_n, c.cpu_n, c.cpu_n, "naive", Precision::fp32);
  plan.gemm(cpu, c.cpu_n, c.cpu_n, c.cpu_n, "blas", Precision::fp32, 0);
  if (c.use_gpu && backends.gpu) {
    long long n = c.gpu_n;
    std::string why;
    const std::string v = stadium_gpu_variant(*backends.gpu, c.gpu_n, &n, &why);
    if (v.empty())
      plan.note(*backends.gpu, "gemm", "best", Precision::fp32,
                {{"m", double(c.gpu_n)}, {"n", double(c.gpu_n)}, {"k", double(c.gpu_n)}}, why);
    else
      plan.gemm(*backends.gpu, n, n, n, v, Precision::fp32);
  }
  return plan.take();
}

// ---- the memory page's live bars -------------------------------------------------------------------------------

double vram_default_request_bytes() {
  models::VramInputs in;
  in.shape = *models::find_preset("lesson-7b");
  in.context = 4096;
  return models::vram_budget(in, 0).total;  // 17.4 GB: what the page shows by default
}

std::string vram_hold_unavailable(const Backend& gpu) {
  // Holding needs a device allocator and a reading of the memory: CUDA (cudaMemGetInfo) and Vulkan (the heap's
  // budget, or its size less what is held) both have them.
  if (gpu.kind() == "cuda" || gpu.kind() == "vulkan") return {};
  return "holding memory is not offered on " + gpu.kind();
}

HoldRequest vram_hold_request(const models::VramInputs& in) {
  using models::VramMode;
  const models::VramBudget b = models::vram_budget(in, 0);
  HoldRequest q;
  auto add = [&q](HoldPartKind k, double bytes) {
    if (bytes > 0) q.parts.push_back({k, bytes});
  };
  add(HoldPartKind::weights, b.weights);
  if (in.mode == VramMode::train) {
    add(HoldPartKind::gradients, b.gradients);
    add(HoldPartKind::master_weights, b.master_weights);
    add(HoldPartKind::adam_m, b.optimizer / 2);
    add(HoldPartKind::adam_v, b.optimizer / 2);
  }
  if (in.mode == VramMode::lora) add(HoldPartKind::adapters, b.adapter);
  add(HoldPartKind::kv_cache, b.kv_cache);
  add(HoldPartKind::activations, b.activations);
  // The overhead allowance is not held: it stands for what the driver and framework take, which the device's
  // reading shows beside the prediction. After the parts: one more user (their KV cache) per step.
  if (in.mode == VramMode::inference && in.users > 0) q.more_user_bytes = b.kv_cache / in.users;
  return q;
}

namespace {
models::VramInputs vram_default_inputs() {
  models::VramInputs in;
  in.shape = *models::find_preset("lesson-7b");
  in.context = 4096;
  return in;
}
}  // namespace

// The page's estimate held on the GPU slot's device, step by step, and released, with the memory read at every
// step. A device only: the page is about the card's memory, not the host's.
Plan vram_plan(const Backends& backends, const VramControls& c) {
  PlanBuilder plan(plan_name::vram);
  if (!backends.gpu) {
    plan.note(*backends.cpu, experiment_name::hold_memory, "held", Precision::fp32, {},
              "the live memory bars need a GPU: " +
                  (backends.gpu_reason.empty() ? std::string("none here") : backends.gpu_reason));
    return plan.take();
  }
  if (const std::string why = vram_hold_unavailable(*backends.gpu); !why.empty()) {
    plan.note(*backends.gpu, experiment_name::hold_memory, "held", Precision::fp32, {}, why);
    return plan.take();
  }
  Backend* gpu = backends.gpu;
  HoldRequest q;
  if (c.inputs || !(c.request_bytes > 0)) {
    q = vram_hold_request(c.inputs ? *c.inputs : vram_default_inputs());
  } else {
    const int steps = std::max(1, c.steps);
    for (int i = 0; i < steps; ++i) q.parts.push_back({HoldPartKind::chunk, c.request_bytes / steps});
  }
  q.hold_s = c.hold_s;
  q.until_refused = c.until_refused;
  // A CPU-type device's "device memory" is this computer's RAM (and on CI a shared runner's): a cap by default,
  // and the estimate scaled to fit under it, so every step is still held and read.
  const bool cpu_type = device_words(gpu->device_info()).device_class == DeviceClass::vulkan_on_cpu;
  q.cap_bytes = c.cap_bytes >= 0 ? c.cap_bytes : cpu_type ? vram_cpu_device_cap : 0;
  const double total = q.predicted_total();
  if (q.cap_bytes > 0 && total > 0.6 * q.cap_bytes) {
    q.scale = 0.6 * q.cap_bytes / total;
    for (auto& p : q.parts) p.bytes *= q.scale;
    q.more_user_bytes *= q.scale;
  }
  const MemoryInfo now = gpu->hold_reading();
  q.margin = default_hold_margin(now);
  // One more user per step, unless a user is a tiny share of the room: then enough users per step that the
  // extra steps number about 32.
  if (q.more_user_bytes > 0) {
    double room = now.free_bytes - q.margin - q.predicted_total();
    if (q.cap_bytes > 0) room = std::min(room, q.cap_bytes - q.predicted_total());
    if (room > 32 * q.more_user_bytes) q.users_per_step = std::ceil(room / q.more_user_bytes / 32);
  }
  const std::string what = c.inputs || !(c.request_bytes > 0) ? "the estimate's parts" : "in " + std::to_string(q.parts.size()) + " steps";
  plan.add({{}, "device memory: hold " + format_bytes(q.predicted_total()) + " (" + what + ")" +
                    (q.until_refused ? ", then more until the device refuses" : ", then more users until one would not fit") +
                    ", then free it",
            1.0, gpu, experiment_name::hold_memory, "held", Precision::fp32, {{"requested", q.predicted_total()}},
            [gpu, q](const RunContext& ctx) { return one(run_hold(*gpu, q, ctx)); }});
  return plan.take();
}

// ---- the suites of the pages converted in round two ------------------------------------------------------------

namespace {
// The largest n = n_max, n_max/2, … ≥ n_min at which `variant` runs an n³ GEMM on `b` (0: none; *why: the
// reason n_max was refused, empty when it was not).
long long largest_square_gemm(Backend& b, const std::string& variant, long long n_max, long long n_min,
                              std::string* why) {
  for (long long n = n_max; n >= n_min; n /= 2) {
    GemmSpec s;
    s.m = s.n = s.k = n;
    s.variant = variant;
    const Support ok = b.supports(s);
    if (ok.ok) return n;
    if (why && n == n_max) *why = ok.reason;
  }
  return 0;
}
}  // namespace

Plan quick_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::quick);
  Backend& cpu = *backends.cpu;
  plan.gemm(cpu, 256, 256, 256, "naive", Precision::fp32);
  plan.gemm(cpu, 512, 512, 512, "naive", Precision::fp32);
  plan.gemm(cpu, 512, 512, 512, "reordered", Precision::fp32);
  plan.gemm(cpu, 512, 512, 512, "blas", Precision::fp32, 1);
  plan.direct_blas(cpu, 512, 1);
  plan.gemm(cpu, 512, 512, 512, "blas", Precision::fp32, 0);
  plan.direct_blas(cpu, 512, 0);
  for (std::size_t bytes : {64 * MiB, 256 * MiB})
    for (const char* kind : {"copy", "triad"}) plan.bandwidth(cpu, kind, bytes);
  if (backends.gpu) {
    Backend& gpu = *backends.gpu;
    // Each GEMM step at 2048³, or at the largest size below it the device accepts (a CPU-type Vulkan device caps
    // the work per run at 512³): one note says why 2048³ was refused, and the CPU's BLAS runs at that size too,
    // so "GPU GEMM / CPU BLAS" divides like for like from this one run.
    long long top_n = 0;  // the size the ladder's top step ran at
    for (const auto& v : gpu.gemm_variants()) {
      std::string why;
      const long long n = largest_square_gemm(gpu, v, 2048, 256, &why);
      if (n < 2048)
        plan.note(gpu, "gemm", v, Precision::fp32, {{"m", 2048.0}, {"n", 2048.0}, {"k", 2048.0}},
                  why + (n > 0 ? "; run at " + std::to_string(n) + "³ instead, the largest size it accepts" : ""));
      if (n > 0) plan.gemm(gpu, n, n, n, v, Precision::fp32);
      top_n = n;
    }
    if (top_n > 0 && top_n != 512) plan.gemm(cpu, top_n, top_n, top_n, "blas", Precision::fp32, 0);
    // Copy beside triad: the device's copy is what the bench divides by the CPU's triad (both read + written).
    plan.bandwidth(gpu, "copy", 256 * MiB);
    plan.bandwidth(gpu, "triad", 256 * MiB);
    plan.transfer(gpu, "h2d", true, 256 * MiB);
    plan.transfer(gpu, "d2h", true, 256 * MiB);
  }
  return plan.take();
}

// The naive loop where its length matters (issue 13): each run announces its predicted time, from a probe of the
// same product, and the recording keeps it beside the real one, so `bench` shows how far off it was.
Plan estimate_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::estimate);
  for (long long n : {1024LL, 2048LL}) plan.gemm(*backends.cpu, n, n, n, "naive", Precision::fp32);
  return plan.take();
}

// ==== The matrix-multiply page (matmul) ==========================================================================

std::string matmul_way_key(const MatmulWay& way) {
  return way.backend + "/" + way.variant + "/" + std::to_string(way.threads);
}

MatmulWay matmul_way_of(const std::string& backend, const std::string& variant, int threads, bool library) {
  MatmulWay w;
  w.backend = backend;
  w.variant = variant;
  if (backend == "cpu") {
    // CPU BLAS splits into one thread and all of them (0, or any count a recording used).
    w.kind = variant == "naive"       ? MatmulWayKind::cpu_naive
             : variant == "reordered" ? MatmulWayKind::cpu_reordered
             : threads == 1           ? MatmulWayKind::cpu_blas_one
                                      : MatmulWayKind::cpu_blas_all;
    w.threads = variant == "blas" ? (threads == 1 ? 1 : 0) : -1;
  } else {
    w.kind = library ? MatmulWayKind::gpu_library : MatmulWayKind::gpu_step;
  }
  return w;
}

std::vector<MatmulWay> matmul_ways(const Backends& backends) {
  std::vector<MatmulWay> ways{matmul_way_of("cpu", "naive", -1, false), matmul_way_of("cpu", "reordered", -1, false),
                              matmul_way_of("cpu", "blas", 1, true), matmul_way_of("cpu", "blas", 0, true)};
  if (backends.gpu) {
    int step = 0;
    for (const auto& v : backends.gpu->gemm_variants()) {
      const bool library = v == "cublas" || v == "cublaslt";  // a vendor's, not one of gpulab's steps
      MatmulWay w = matmul_way_of(backends.gpu->kind(), v, -1, library);
      w.step = library ? 0 : ++step;
      ways.push_back(w);
    }
  }
  return ways;
}

// A rough single-run rate for ways not measured yet, only to decide which jobs a big size runs once (and, for
// the matmul suite on a GPU, which size each step runs at).
double matmul_guess_gflops(const MatmulWay& w, double naive_gflops) {
  switch (w.kind) {
    case MatmulWayKind::cpu_naive: return naive_gflops > 0 ? naive_gflops : matmul_assumed_naive_gflops;
    case MatmulWayKind::cpu_reordered: return 8;
    case MatmulWayKind::cpu_blas_one:
    case MatmulWayKind::cpu_blas_all: return 30;
    case MatmulWayKind::gpu_step: return w.step <= 2 ? 300 : 5000;
    case MatmulWayKind::gpu_library: return 5000;
  }
  return matmul_assumed_naive_gflops;
}

Plan matmul_plan(const Backends& backends, const MatmulControls& c) {
  PlanBuilder builder(plan_name::matmul);
  const double flops = 2.0 * double(c.m) * double(c.n) * double(c.k);
  std::vector<bool> once;  // per job: a big size, checked once and timed once
  for (const MatmulWay& w : matmul_ways(backends)) {
    if (std::find(c.left_out.begin(), c.left_out.end(), matmul_way_key(w)) != c.left_out.end()) continue;
    Backend& b = w.backend == "cpu" ? *backends.cpu : *backends.gpu;
    builder.gemm(b, c.m, c.n, c.k, w.variant, Precision::fp32, w.threads < 0 ? 0 : w.threads);
    once.push_back(flops / (matmul_guess_gflops(w, c.naive_gflops) * 1e9) > c.single_run_s);
  }
  Plan plan = builder.take();
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    if (!once[i]) continue;
    // A second sample would double minutes of waiting for little.
    plan.jobs[i].run = [run = std::move(plan.jobs[i].run)](const RunContext& ctx) {
      RunContext single = ctx;
      single.policy.warmup_runs = 0;
      single.policy.min_samples = 1;
      single.policy.max_samples = 1;
      return run(single);
    };
  }
  return plan;
}

Plan matmul_practice_plan(const Backends& backends) {
  MatmulControls c;  // 60³
  for (const MatmulWay& w : matmul_ways(backends))
    if (w.kind != MatmulWayKind::cpu_naive && w.kind != MatmulWayKind::cpu_blas_all)
      c.left_out.push_back(matmul_way_key(w));
  return matmul_plan(backends, c);
}

bool is_matmul_page_plan(const std::string& plan) {
  // The quick suite's GEMMs are this page's own ways (the CPU's four at 512³, a GPU's ladder at 2048³): a
  // `bench --suite quick` recording must show here, not leave the page empty.
  return plan.empty() || plan == plan_name::matmul || plan == plan_name::matmul_sizes || plan == plan_name::quick;
}

Plan matmul_sizes_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::matmul_sizes);
  Backend& cpu = *backends.cpu;
  for (long long n : {64, 128, 256, 512, 1024, 2048, 4096}) {
    for (const auto& v : cpu.gemm_variants()) {
      // The naive loop at 2048³ takes minutes; the point (it is slow) is made by 1024³.
      if (v == "naive" && n > 1024) continue;
      if (v == "reordered" && n > 2048) continue;
      if (v == "blas") {
        plan.gemm(cpu, n, n, n, v, Precision::fp32, 1);
        plan.gemm(cpu, n, n, n, v, Precision::fp32, 0);
      } else {
        plan.gemm(cpu, n, n, n, v, Precision::fp32);
      }
    }
  }
  plan.direct_blas(cpu, 1024, 0);
  // The matmul page's presets beyond the squares above: the lesson's n = 60 practice and its layer, batch 32
  // times 4096×4096 (m = 32, k = n = 4096; the naive loop there is ~1 GFLOP, seconds, not minutes), so a
  // recording shows bars at both.
  auto lesson_shapes = [&plan](Backend& b, bool cpu_side) {
    for (const auto& [m, k, n] : {std::array<long long, 3>{60, 60, 60}, std::array<long long, 3>{32, 4096, 4096}})
      for (const auto& v : b.gemm_variants()) {
        if (cpu_side && v == "blas") {
          plan.gemm(b, m, n, k, v, Precision::fp32, 1);
          plan.gemm(b, m, n, k, v, Precision::fp32, 0);
        } else {
          plan.gemm(b, m, n, k, v, Precision::fp32);
        }
      }
  };
  lesson_shapes(cpu, true);
  if (backends.gpu) {
    Backend& gpu = *backends.gpu;
    for (long long n : {256, 1024, 2048, 4096})
      for (const auto& v : gpu.gemm_variants()) plan.gemm(gpu, n, n, n, v, Precision::fp32);
    if (offers_variant(gpu, "cublas")) plan.gemm(gpu, 8192, 8192, 8192, "cublas", Precision::fp32);
    lesson_shapes(gpu, false);
  }
  return plan.take();
}

// ==== end of the matrix-multiply page ============================================================================

Plan bandwidth_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::bandwidth);
  Backend& cpu = *backends.cpu;
  // Small arrays live in cache: the curve shows the cliff down to DRAM bandwidth.
  for (std::size_t bytes : {1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB})
    for (const char* kind : {"copy", "triad"}) {
      plan.bandwidth(cpu, kind, bytes, 1);
      plan.bandwidth(cpu, kind, bytes, 0);
    }
  if (backends.gpu)
    for (std::size_t bytes : {4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1024 * MiB})
      for (const char* kind : {"copy", "triad"}) plan.bandwidth(*backends.gpu, kind, bytes);
  return plan.take();
}

// Y = X·W with X B×d and W d×d: at small B the weights' bytes dominate (memory-bound), at large B the FLOPs do
// (compute-bound). The sweep finds where the crossover is on this machine.
std::vector<long long> batch_default_sizes() {
  std::vector<long long> out;
  for (long long b = 1; b <= 1024; b *= 2) out.push_back(b);
  return out;
}

std::string batch_gemm_variant(Backend& b, Precision p, long long max_batch, long long d_in, long long d_out,
                               std::string* why) {
  std::vector<std::string> order;
  for (const char* lib : {"cublas", "cublaslt", "blas"})
    if (offers_variant(b, lib)) order.push_back(lib);
  const auto ladder = b.gemm_variants();
  for (auto it = ladder.rbegin(); it != ladder.rend(); ++it)  // a ladder's last step is its fastest
    if (std::find(order.begin(), order.end(), *it) == order.end()) order.push_back(*it);
  std::string first_reason;
  for (const auto& v : order) {
    const Support ok = b.supports(GemmSpec{std::max(1LL, max_batch), d_out, d_in, p, v, 0, 42});
    if (ok.ok) return v;
    if (first_reason.empty()) first_reason = ok.reason;
  }
  if (why) *why = first_reason.empty() ? "no GEMM on " + b.kind() : first_reason;
  return {};
}

// The batch page's sweep on one device: the triad first (the memory roof the points are read against, measured in
// the same run), then Y = X·W for every batch size through the device's library GEMM.
Plan batch_plan(const Backends& backends, const BatchControls& c) {
  PlanBuilder plan(plan_name::batch);
  Backend& b = c.use_gpu && backends.gpu ? *backends.gpu : *backends.cpu;
  std::string why;
  const long long largest = c.batches.empty() ? 1 : *std::max_element(c.batches.begin(), c.batches.end());
  const std::string variant = batch_gemm_variant(b, c.precision, largest, c.d_in, c.d_out, &why);
  if (variant.empty()) {
    const long long first = c.batches.empty() ? 1 : c.batches.front();
    plan.note(b, "gemm", "library", c.precision,
              {{"m", double(first)}, {"n", double(c.d_out)}, {"k", double(c.d_in)}}, why);
    return plan.take();
  }
  // A GPU's triad runs past its L2 (1 GiB arrays); a CPU's 64 MiB arrays are already DRAM-sized.
  plan.bandwidth(b, "triad", b.kind() == "cuda" ? 1024 * MiB : 64 * MiB);
  for (long long batch : c.batches) plan.gemm(b, batch, c.d_out, c.d_in, variant, c.precision);
  return plan.take();
}

// Amdahl's law measured: a job with a serial prefix (the page's slider; 5 % by default) on 1, 2, 4 … all threads, timed
// side by side; and on a GPU the cost of launching many tiny kernels, the serial part GPUs add.
Plan amdahl_plan(const Backends& backends, const AmdahlControls& c) {
  PlanBuilder plan(plan_name::amdahl);
  AmdahlScalingSpec spec;
  spec.serial_share = c.serial_share;
  const int hw = c.max_threads > 0 ? c.max_threads : static_cast<int>(std::thread::hardware_concurrency());
  spec.threads = amdahl_thread_ladder(std::max(2, hw));
  Backend* cpu = backends.cpu;
  plan.add({{}, "Amdahl job, " + format_fixed(100 * spec.serial_share, 0) + " % serial, 1…" +
                    std::to_string(spec.threads.back()) + " threads",
            2, cpu, experiment_name::amdahl_scaling, "threads", Precision::fp64,
            {{"serial_share", spec.serial_share}, {"max_threads", double(spec.threads.back())}},
            [cpu, spec](const RunContext& ctx) { return run_amdahl_scaling(*cpu, spec, ctx); }});
  if (backends.gpu) {
    Backend* gpu = backends.gpu;
    const LaunchOverheadSpec launch{1000, 1024};
    const Params params{{"kernels", double(launch.kernels)}, {"elements", double(launch.elements)}};
    // Vulkan records no launch cost (the CUDA module does): the page says why instead of a gap.
    if (const Support ok = gpu->supports(launch); !ok.ok)
      plan.note(*gpu, experiment_name::launch_overhead, "tiny_kernels", Precision::fp32, params, ok.reason);
    else
      plan.add({{}, "GPU 1000 tiny kernels back to back", 0.5, gpu, experiment_name::launch_overhead, "tiny_kernels",
                Precision::fp32, params,
                [gpu, launch](const RunContext& ctx) { return one(run_launch_overhead(*gpu, launch, ctx)); }});
  }
  return plan.take();
}

// ==== The roofline page (roofline) ===============================================================================
// The GPU's roofs come from its vendor library (cuBLASLt, else cuBLAS) at the GPU's sizes; a device without one (a
// Vulkan device, perhaps lavapipe on the CPU) gets the CPU's sizes and the CPU's library, which it does not run, so
// only its triad is measured, as the page did before it had a plan. A precision the device lacks is left out.
Plan roofline_plan(const Backends& backends, const RooflineControls& c) {
  PlanBuilder plan(plan_name::roofline);
  std::vector<Backend*> devices{backends.cpu};
  if (backends.gpu) devices.push_back(backends.gpu);
  for (Backend* be : devices) {
    std::vector<std::string> libraries;
    for (const char* lib : {"cublaslt", "cublas"})
      if (be != backends.cpu && offers_variant(*be, lib)) libraries.push_back(lib);
    const bool gpu_sizes = !libraries.empty();
    if (!gpu_sizes) libraries = {"blas"};
    plan.bandwidth(*be, "triad", gpu_sizes ? c.gpu_triad_bytes : c.cpu_triad_bytes);
    const long long n = gpu_sizes ? c.gpu_n : c.cpu_n;
    for (Precision p : all_precisions)
      for (const std::string& v : libraries)
        if (be->supports(GemmSpec{n, n, n, p, v, 0, 42}).ok) {
          plan.gemm(*be, n, n, n, v, p);
          break;
        }
  }
  // Each device's own compute roof (FMA chains) and overhead floor (one empty launch), as the roofs suite
  // measures them, without its sweep: the page draws all three regimes (roofs.hpp).
  Plan roofs = roofs_plan(backends, RoofsControls{false, false});
  for (PlanJob& j : roofs.jobs) j.plan = plan_name::roofline;
  Plan out = plan.take();
  out.append(std::move(roofs));
  return out;
}
// ==== end of the roofline page ===================================================================================

Plan suite_plan(const std::string& name, const Backends& b, const SuiteOptions& options) {
  if (!b.cpu) throw std::invalid_argument("a plan needs the CPU backend");
  if (name == plan_name::quick) return quick_plan(b);
  if (name == plan_name::estimate) return estimate_plan(b);
  Plan all;
  all.name = name;
  const bool every = name == "all";
  bool known = every;
  auto take = [&](const char* suite, auto build) {
    if (!every && name != suite) return;
    known = true;
    Plan p = build();
    if (!every) all.name = p.name;
    all.append(std::move(p));
  };
  // The matmul page's default (60³) alone; "all" takes its sizes instead, which include 60³.
  // On a GPU the suite adds the ladder and cuBLAS at real sizes (matmul_suite.hpp); the page keeps 60³.
  if (!every) take(plan_name::matmul, [&] { return matmul_suite_plan(b); });
  take(plan_name::matmul_sizes, [&] { return matmul_sizes_plan(b); });
  take(plan_name::bandwidth, [&] { return bandwidth_plan(b); });
  take(plan_name::transfer, [&] { return transfer_plan(b); });
  take(plan_name::batch, [&] { return batch_plan(b); });
  take(plan_name::precision, [&] { return precision_plan(b); });
  take(plan_name::decode, [&] { return decode_plan(b); });
  take(plan_name::amdahl, [&] { return amdahl_plan(b); });
  take(plan_name::vram, [&] { return vram_plan(b, options.vram); });
  take(plan_name::stadium, [&] { return stadium_plan(b); });
  take(plan_name::multigpu, [&] { return multigpu_plan(b); });
  take(plan_name::roofs, [&] { return roofs_plan(b); });
  // Not in "all": the bandwidth and precision suites already record a triad and a GEMM in every format.
  if (!every) take(plan_name::roofline, [&] { return roofline_plan(b); });
  if (!known) throw std::invalid_argument("unknown suite \"" + name + "\"");
  return all;
}

}  // namespace gpulab

#pragma once
// The plan builders: each page's controls, as a small struct, turned into the plan its Run executes. Qt-free, so
// `gpulab bench --suite NAME` runs the very plan the page of that name builds for its default controls (a
// default-constructed controls struct), and a test holds the two to the same jobs.
#include "gpulab/decode_experiments.hpp"
#include "gpulab/memory_hold.hpp"
#include "gpulab/models/vram_model.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* quick = "quick";
inline constexpr const char* estimate = "estimate";
inline constexpr const char* matmul = "matmul";
inline constexpr const char* bandwidth = "bandwidth";
inline constexpr const char* matmul_sizes = "matmul-sizes";  // the matmul page's sizes for recordings
inline constexpr const char* transfer = "transfer";
inline constexpr const char* batch = "batch";
inline constexpr const char* precision = "precision";
inline constexpr const char* decode = "decode";
inline constexpr const char* amdahl = "amdahl";
inline constexpr const char* vram = "vram";
inline constexpr const char* stadium = "stadium";
inline constexpr const char* multigpu = "multigpu";
inline constexpr const char* roofline = "roofline";
}  // namespace plan_name

// ---- The precision page ----------------------------------------------------------------------------------------
struct PrecisionControls {
  bool use_gpu = true;  // time the formats on the GPU when there is one, else on the CPU
  long long n = 0;      // the GEMM is n × n × n; 0: the device's default (precision_default_n)
  bool underflow = true;  // record the FP16 underflow demo's result too (the page also computes it live)
};
long long precision_default_n(const Backend& b);
// The GEMM variant that times format `p` on `b`: a library first (cuBLAS, cuBLASLt, OpenBLAS), then any other
// variant that runs it. Empty with *why set when none does.
std::string precision_gemm_variant(Backend& b, Precision p, Support* why);
// Every format on the chosen device (the ones it lacks recorded with the reason), the emulated error of every
// format against FP64, and the underflow demo.
Plan precision_plan(const Backends& backends, const PrecisionControls& controls = {});

// ---- The PCIe page ---------------------------------------------------------------------------------------------
// The page's sweep: 64 KiB to 1 GiB in steps of four, so the curve shows latency at the small end and the link's
// (or the memory's) bandwidth at the large end.
std::vector<std::size_t> transfer_sweep_bytes();
struct TransferControls {
  std::vector<std::size_t> cpu_bytes = transfer_sweep_bytes();  // host memcpy sizes
  std::vector<std::size_t> gpu_bytes = transfer_sweep_bytes();
  bool pageable = true;  // also the pageable (not pinned) host↔device copies
  bool p2p = false;      // also the many-GPUs page's plan (its jobs keep the name "multigpu")
};
Plan transfer_plan(const Backends& backends, const TransferControls& controls = {});

// ---- The many-GPUs page ----------------------------------------------------------------------------------------
struct MultiGpuControls {
  std::vector<std::size_t> bytes{64u << 20, 256u << 20, 1024u << 20};  // GPU-to-GPU copy sizes
};
// GPU-to-GPU copies when a second GPU is there; otherwise one note saying why.
Plan multigpu_plan(const Backends& backends, const MultiGpuControls& controls = {});

// ---- The stadium page ------------------------------------------------------------------------------------------
struct StadiumControls {
  long long cpu_n = 512;   // the professor (the naive loop) and the CPU's stadium (BLAS, all cores)
  long long gpu_n = 2048;  // the chosen GPU's stadium: the largest size up to this that its best GEMM runs
  bool use_gpu = true;
};
// The GPU GEMM the stadium races with: the vendor library where there is one (cuBLAS), else the top step of the
// backend's own ladder; empty when none runs at any size. *n gets the size it runs at (gpu_n, or halved until the
// device accepts it), *why the reason when none does.
std::string stadium_gpu_variant(Backend& gpu, long long gpu_n, long long* n, std::string* why);
Plan stadium_plan(const Backends& backends, const StadiumControls& controls = {});

// ---- The memory (VRAM) page ------------------------------------------------------------------------------------
struct VramControls {
  double request_bytes = 0;  // without `inputs`: a bare byte count held in `steps` equal chunks; 0: the default
  int steps = 8;
  double hold_s = 2.0;  // long enough for the class to read the bars while the memory is held
  // The estimate whose parts (weights, KV cache, activations; training state) are held one step each, then one more
  // user's KV cache per step until the next would not fit. Unset and no request_bytes: the page's default (a 7B
  // model served in FP16, 4,096 tokens).
  std::optional<models::VramInputs> inputs;
  bool until_refused = false;  // go on past the budget until the device refuses (Vulkan; the page's control)
  double cap_bytes = -1;       // the most the run holds: -1 the default (none on a GPU; vram_cpu_device_cap on a
                               // CPU-type device, whose memory is this computer's RAM); 0 none
};
double vram_default_request_bytes();
// The cap a CPU-type device (lavapipe) gets by default: it holds this computer's RAM, so the run is scaled to fit.
inline constexpr double vram_cpu_device_cap = 256.0 * 1024 * 1024;
// Why `gpu` cannot hold memory for the live bars (empty: it can).
std::string vram_hold_unavailable(const Backend& gpu);
// The estimate as the steps of a hold: its parts in order and one user's KV cache (scale 1, no cap, no margin).
HoldRequest vram_hold_request(const models::VramInputs& in);
Plan vram_plan(const Backends& backends, const VramControls& controls = {});

// ==== The roofline page (roofline) ===============================================================================
// Its "Measure ceilings": on the CPU and (when there is one) the GPU slot's device, a streaming triad beyond every
// cache (the memory roof), then one large library GEMM in every precision the device runs (the compute roofs).
struct RooflineControls {
  long long cpu_n = 2048;                     // compute-bound (intensity n/6 in FP32), seconds on a 2-core laptop
  long long gpu_n = 8192;                     // a GPU's library GEMM
  std::size_t cpu_triad_bytes = 64u << 20;    // per array: past a CPU's caches
  std::size_t gpu_triad_bytes = std::size_t(1) << 30;  // per array: past an H200's 50 MB L2 many times over
};
Plan roofline_plan(const Backends& backends, const RooflineControls& controls = {});
// ==== end of the roofline page ===================================================================================

// ---- The suites whose pages are converted in round two (their builders hold the suites' content today) --------
// ==== The matrix-multiply page (matmul) ==========================================================================
// One way of computing C = A·B, a row of the page's chart: the CPU's four, then the GPU slot's ladder in its order.
enum class MatmulWayKind { cpu_naive, cpu_reordered, cpu_blas_one, cpu_blas_all, gpu_step, gpu_library };
struct MatmulWay {
  MatmulWayKind kind = MatmulWayKind::cpu_naive;
  std::string backend;  // Backend::kind(): "cpu", "cuda", "vulkan"
  std::string variant;  // the GEMM variant it runs
  int threads = -1;     // CPU BLAS: 1 or 0 (all threads); -1 where threads are not a choice
  int step = 0;         // gpu_step: its place on the backend's ladder, from 1
};
// "cpu/naive/-1", "cpu/blas/1", "cpu/blas/0", "cuda/cublas/-1", "vulkan/smem/-1": what the page's tick boxes name.
std::string matmul_way_key(const MatmulWay& way);
MatmulWay matmul_way_of(const std::string& backend, const std::string& variant, int threads, bool library);
// The CPU's four ways, then (when there is one) every GEMM of the GPU slot's device in its ladder's order.
std::vector<MatmulWay> matmul_ways(const Backends& backends);
// What the page assumes for the naive loop before it has measured one (the reference 2-vCPU machines' ijk loop
// at n = 512), in GFLOP/s.
inline constexpr double matmul_assumed_naive_gflops = 0.65;
struct MatmulControls {
  long long m = 60, k = 60, n = 60;   // A is m×k, B is k×n: by default the lesson's n = 60 practice
  std::vector<std::string> left_out;  // ways not ticked (matmul_way_key)
  // The naive loop's expected rate (0: assumed): a job whose one run should take over single_run_s is checked
  // once and timed once (a second sample would double minutes of waiting for little).
  double naive_gflops = 0;
  double single_run_s = 0.5;
};
// Every ticked way at m×k×n, each checked against the reference before it is timed.
Plan matmul_plan(const Backends& backends, const MatmulControls& controls = {});
// The lesson's exercise (BLAS on all cores against the naive loop at n = 60): those two ways at 60³, in the
// matmul plan's name, so their bars show on the page too. Run with many samples: the minimum is the ratio's basis.
Plan matmul_practice_plan(const Backends& backends);
// `gpulab bench --suite matmul-sizes`: the page's ways from 64³ to 4096³ (the naive loop to 1024³, the reordered
// one to 2048³) and at the lesson's shapes (60³, 32×4096·4096), so a recording has bars at the sizes a class
// visits. In "all" it stands for the matmul suite, whose 60³ it includes.
Plan matmul_sizes_plan(const Backends& backends);
// A result of one of the matmul page's plans ("" too: a recording from before plans).
bool is_matmul_page_plan(const std::string& plan);
// ==== end of the matrix-multiply page ============================================================================

Plan quick_plan(const Backends& backends);
Plan estimate_plan(const Backends& backends);
Plan bandwidth_plan(const Backends& backends);

// ---- The batch page --------------------------------------------------------------------------------------------
std::vector<long long> batch_default_sizes();  // B = 1, 2, 4 … 1024
struct BatchControls {
  long long d_in = 4096, d_out = 4096;          // the layer: Y (B × d_out) = X (B × d_in) · W (d_in × d_out)
  std::vector<long long> batches = batch_default_sizes();
  Precision precision = Precision::fp32;        // FP32: the one format every device runs
  bool use_gpu = true;                          // the GPU slot's device when there is one, else the CPU
};
// The GEMM a batch sweep times on `b`: the vendor library (cuBLAS, cuBLASLt, OpenBLAS) where it runs `p` at this
// layer's shape up to the largest batch, else the top of the backend's own ladder (a Vulkan device's best shader).
// Empty with *why set when nothing runs it.
std::string batch_gemm_variant(Backend& b, Precision p, long long max_batch, long long d_in, long long d_out,
                               std::string* why);
// The triad (the memory roof the points are read against), then Y = X·W for every batch size, on one device.
Plan batch_plan(const Backends& backends, const BatchControls& controls = {});

// ---- The decode page -------------------------------------------------------------------------------------------
struct DecodeControls {
  TransformerShape shape;        // one layer of the chain (the 7B model's by default)
  double budget_bytes = 0;       // weights the chain may hold; 0: decode_default_budget for the device
  int max_users = 64;            // the chain runs 1, 2, 4 … users up to this
  bool use_gpu = true;           // the GPU slot's device when it runs the chain, else the CPU
  std::size_t triad_bytes = 64u << 20;  // the triad before the chain (the ceiling's measured bandwidth)
  int prompt_tokens = 1000;      // the page's prompt: its prefill is the chain at this batch (capped on a CPU)
};
// The CPU: a quarter of free memory, 0.1 to 2 GB; a GPU: half of its free memory, at most 16 GB.
double decode_default_budget(const Backend& b);
// The triad, then one decode step of the chain at 1, 2, 4 … users, with as many layers as fit the budget (the
// page extrapolates to the full depth), then the prompt's prefill: the chain at a batch of the prompt's tokens (one
// layer and at most prefill_cpu_max_flops a pass on a CPU, prefill_gpu_max_tokens on a GPU; prompt_tokens < 2: none),
// its result carrying the prompt's length as "prompt_tokens". A GPU runs FP16 where it can, the CPU FP32; a GPU without the chain: a
// note saying why, and the CPU runs it.
Plan decode_plan(const Backends& backends, const DecodeControls& controls = {});

// ---- The Amdahl page -------------------------------------------------------------------------------------------
struct AmdahlControls {
  double serial_share = 0.05;  // the page's slider: the lesson's 5 % (a ceiling of 20×)
  int max_threads = 0;         // 0: every hardware thread (at least 2)
};
// The job with a serial prefix on 1, 2, 4 … threads; on a GPU that launches kernels, 1,000 tiny kernels back to
// back (a note saying why where the GPU cannot time that).
Plan amdahl_plan(const Backends& backends, const AmdahlControls& controls = {});

// The plan `gpulab bench --suite NAME` runs ("all": every suite's plan in turn). Throws std::invalid_argument for
// an unknown name.
// Controls a bench run may set for a suite (gpulab bench flags); the defaults are the pages' defaults.
struct SuiteOptions {
  VramControls vram;  // --until-refused, --hold-cap
};
Plan suite_plan(const std::string& name, const Backends& backends, const SuiteOptions& options = {});

}  // namespace gpulab

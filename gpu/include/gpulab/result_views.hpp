#pragma once
// Typed views of results: the one schema. Each kind of result the core writes has a struct here and an as_…()
// that reads it, defined in the same .cpp as the code that writes it (run_experiments.cpp for gemm, bandwidth and
// transfer; decode_chain.cpp, amdahl_scaling.cpp, precision_error.cpp, underflow_demo.cpp, vram_hold.cpp for the
// rest), so a renamed parameter is renamed in one file. Pages, page models, bench summaries and the recording
// check read results through these, never by experiment name or parameter string. An as_…() returns nullopt
// for a result of another kind.
#include "gpulab/backend_kind.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"

#include <optional>
#include <string>

namespace gpulab {

// What every view carries: where the result came from and whether it can be drawn.
struct ResultHeader {
  std::string plan;      // the plan that made it ("" before plans were recorded)
  std::string backend;   // "cpu", "cuda", … as recorded: for labels
  BackendKind kind = BackendKind::unknown;  // the same, typed: what code branches on
  bool on_gpu = false;   // any backend but the CPU
  std::string device;    // the device's name as the backend gave it (provenance "device"); "" when not recorded
  bool cpu_device = false;  // on_gpu, yet not a GPU: a CPU-type Vulkan device (lavapipe) or the CUDA emulator (device_words)
  std::string variant;   // for labels and CSV only: pages never branch on it
  Precision precision = Precision::fp32;
  bool ok = false;       // ran and passed its check
  std::string error;     // why it did not run, when it did not
  double median_s = 0;
};

// gemm: C = A·B, m×k times k×n.
struct GemmPoint {
  ResultHeader head;
  long long m = 0, n = 0, k = 0;
  int threads = 0;               // CPU: 0 = all threads
  bool direct_control = false;   // OpenBLAS called directly, no harness (the "harness adds nothing" control)
  bool library = false;          // a vendor library (OpenBLAS, cuBLAS, cuBLASLt), not one of gpulab's own loops
  double gflops = 0;
  double check_max_abs = -1;     // the kernel's own check against FP64 (-1: not checked)
  bool square() const { return m == n && n == k; }
};
std::optional<GemmPoint> as_gemm(const Result& r);

enum class StreamKernel { copy, triad, other };
// bandwidth: STREAM-style copy or triad over arrays of bytes_per_array each.
struct BandwidthPoint {
  ResultHeader head;
  StreamKernel kernel = StreamKernel::other;
  double bytes_per_array = 0;  // as asked for; a GPU raises small arrays past its L2 (see the provenance)
  int threads = 0;
  double gbps = 0;
};
std::optional<BandwidthPoint> as_bandwidth(const Result& r);

enum class TransferDirection { h2h, h2d, d2h, d2d, p2p, other };
struct TransferPoint {
  ResultHeader head;
  TransferDirection direction = TransferDirection::other;
  bool pinned = false;
  double bytes = 0;
  double gbps = 0;
};
std::optional<TransferPoint> as_transfer(const Result& r);

// layer_chain: one decode step of a transformer-shaped chain of GEMVs/GEMMs.
struct LayerChainPoint {
  ResultHeader head;
  long long users = 0;  // the batch
  int layers = 0;
  double params_per_layer = 0;
  double weight_bytes = 0;
  double gbps = 0, gflops = 0;
  // A prompt's prefill (the decode plan's last step): the prompt's length the page asked for; `users` is then the
  // batch of prompt tokens that ran, which is smaller when capped (prefill_chain_batch). 0: a decode step.
  long long prompt_tokens = 0;
  bool prefill() const { return prompt_tokens > 0; }
};
std::optional<LayerChainPoint> as_layer_chain(const Result& r);

// amdahl_scaling: one thread count of the Amdahl job.
struct AmdahlStep {
  ResultHeader head;
  int threads = 0;
  double serial_share = 0;
  double speedup = 0;               // against one thread; 0 when not known
  double implied_serial_share = -1;  // from the speed-up; -1 on one thread
  double serial_s = 0;
};
std::optional<AmdahlStep> as_amdahl_step(const Result& r);

// launch_overhead: many tiny kernels back to back.
struct LaunchOverhead {
  ResultHeader head;
  int kernels = 0;
  double elements = 0;
  double per_launch_s = 0;
};
std::optional<LaunchOverhead> as_launch_overhead(const Result& r);

// precision_error: a format's emulated GEMM error against FP64.
struct PrecisionErrorPoint {
  ResultHeader head;
  long long m = 0, n = 0, k = 0;
  double rel_frobenius = -1;
  double max_abs = -1;
};
std::optional<PrecisionErrorPoint> as_precision_error(const Result& r);

// underflow: the FP16 underflow demo's totals.
struct UnderflowTotals {
  ResultHeader head;
  double count = 0;
  double lost_fp16_plain = 0, lost_fp16_static = 0, lost_fp16_dynamic = 0, lost_bf16 = 0;
  double loss_scale = 0;
};
std::optional<UnderflowTotals> as_underflow(const Result& r);

// refused: the next step would not fit (never tried: "this is where it would not fit"); out_of_memory: the device
// itself refused an allocation (the run was asked to go on past the budget).
enum class HoldStage { holding, held, released, refused, out_of_memory };
// What a step of a hold holds: the calculator's parts of the estimate, "more users" (each one more KV cache)
// after them, or one of N equal chunks (a hold of a bare byte count).
enum class HoldPartKind { chunk = 0, weights, kv_cache, activations, gradients, master_weights, adam_m, adam_v, adapters,
                          more_users };
const char* hold_part_name(HoldPartKind k);  // "weights", "KV cache", …, "more users"
// hold_memory: one step of holding memory on a device.
struct MemoryHoldStep {
  ResultHeader head;
  HoldStage stage = HoldStage::holding;
  double requested = 0, held = 0, margin = 0;
  double before_free = 0, before_total = 0, now_free = 0, now_total = 0;
  int step = 0, steps = 0;
  HoldPartKind part = HoldPartKind::chunk;
  double predicted = 0;  // the calculator's bytes for everything held up to this step (× scale)
  double step_bytes = 0;  // what this step asked for (a refusal: what would not fit)
  double users = 0;       // more_users: how many more users this step adds
  double scale = 1;       // the estimate was held at this fraction (a capped run on a CPU-type device)
  double cap = 0;         // the most this run would hold (0: no cap)
  int shared_memory = -1;  // 1: the memory is the system's RAM (iGPU, CPU-type device); 0: the card's own; -1 unknown
  // false: the "reading" is only the heap's size less what gpulab holds (no VK_EXT_memory_budget), not a measurement
  bool reading_measured = true;
  // What the device reads as taken since the run began (free before − free now): the measured side of a bar.
  double measured() const { return before_free - now_free; }
};
std::optional<MemoryHoldStep> as_memory_hold(const Result& r);

// Shared by the as_…() functions: the header every view carries.
ResultHeader result_header(const Result& r);

}  // namespace gpulab

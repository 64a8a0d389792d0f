#pragma once
// The Backend interface: primitive operations an experiment can time. The CPU backend always exists;
// the CUDA backend lives in a module loaded at run time (see cuda_loader.hpp).
#include "gpulab/backend_kind.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {

struct DeviceInfo {
  std::string kind;  // "cpu" | "cuda" | "vulkan"
  BackendKind kind_id() const { return backend_kind(kind); }  // the same, typed: what code compares
  std::string name;
  int compute_units = 0;           // CPU: logical cores; GPU: SMs
  int threads = 0;                 // CPU: threads the backend uses by default
  std::string compute_capability;  // GPU only, "9.0"
  double clock_mhz = 0;
  double memory_total_bytes = 0;
  double memory_free_bytes = 0;
  std::string driver_version, runtime_version;
  std::string simd;  // CPU: "AVX2 FMA", ...
  std::vector<std::pair<std::string, std::string>> details;  // caches, bus, library versions: shown as-is
  // The peak the backend judges shares of peak against: CPU = the measured register-FMA peak; GPU = the
  // clock × units model. `peak_source` says which, for every label that shows it. 0 = unknown.
  double peak_gflops_fp32 = 0;
  double peak_gflops_fp64 = 0;
  std::string peak_source;  // "measured: register FMA chains" or "model: SMs × lanes × clock"
};

struct Support {
  bool ok = true;
  std::string reason;  // why not, in words a student understands
  static Support yes() { return {}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
};

// C = A·B with A m×k, B k×n, row-major. `variant` names the implementation (backend.gemm_variants()).
struct GemmSpec {
  long long m = 512, n = 512, k = 512;
  Precision precision = Precision::fp32;
  std::string variant = "blas";
  int threads = 0;           // CPU: 0 = all cores
  std::uint64_t seed = 42;   // inputs are random from this seed, never zeros
};

// Streaming kernels: "copy" (b = a) or "triad" (a = b + s·c). Bytes counted = read + written.
struct BandwidthSpec {
  std::string kind = "triad";
  std::size_t bytes_per_array = 64u << 20;
  int threads = 0;
};

// Moves between host and device. direction: "h2d", "d2h", "d2d" (GPU) or "h2h" (host memcpy).
struct TransferSpec {
  // h2d, d2h, d2d (one GPU), p2p (this GPU into a second one), h2h (host memcpy, CPU backend)
  std::string direction = "h2d";
  bool pinned = true;
  std::size_t bytes = 64u << 20;
};

struct MemoryInfo {
  double total_bytes = 0;
  double free_bytes = 0;
};

// A chain of GEMMs run back to back, shaped like a transformer's layers at a given batch (decode page):
// each layer is a list of (k -> n) weight matrices applied to a batch×k activation.
struct LayerChainSpec {
  struct Matrix {
    long long k = 4096, n = 4096;
  };
  std::vector<Matrix> matrices;  // one layer's weights, in order
  int layers = 1;                // the layer is repeated this many times (distinct weights per layer)
  long long batch = 1;           // tokens per step (users batched together)
  Precision precision = Precision::fp16;
  std::uint64_t seed = 42;
};

// Many tiny kernels launched one after another: the fixed cost of each launch is the GPU's serial part.
struct LaunchOverheadSpec {
  int kernels = 1000;
  std::size_t elements = 1024;  // work per kernel
};

// The compute roof (experiment "peak"): independent FMA chains held in registers, as peak tools build them, with
// enough work per launch to hide the launch. FLOPs = invocations x chains x lanes x 2 x iterations.
struct PeakSpec {
  Precision precision = Precision::fp32;  // fp32; fp64 and fp16 where the device runs them
  double target_s = 0.02;                 // about this long per timed run (calibrated once); never over 0.1 s
};

// The overhead floor (experiment "overhead"): one launch and wait with nothing (elements = 0) or an elementwise
// op x = y + s·z over `elements` floats. Timed on the host clock around launch + wait, as a framework sees it.
struct OverheadSpec {
  std::size_t elements = 0;  // 0: an empty launch (empty kernel, empty dispatch, empty thread-pool region)
  bool graph = false;        // CUDA: the same launch captured in a CUDA graph and replayed
};

// Memory held on the device until the object is destroyed (VRAM page). Reports what cudaMemGetInfo said
// before and after (Vulkan: the heap's budget reading, see Backend::hold_reading).
// The device itself refused an allocation (it was tried: the teacher asked to go on past the budget). Not a
// crash: the memory page shows it as the out-of-memory moment.
class DeviceOutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HeldMemory {
 public:
  virtual ~HeldMemory() = default;
  virtual double bytes_held() const = 0;
  virtual MemoryInfo before() const = 0;
  virtual MemoryInfo after() const = 0;
};

// One prepared operation: buffers allocated and filled once, then checked and timed many times.
class TimedOp {
 public:
  virtual ~TimedOp() = default;
  // Runs once and compares the output with an independent reference. Doubles as the warm-up.
  virtual Check verify() = 0;
  // Runs once and returns the elapsed seconds (CPU: steady clock; GPU: CUDA events on the op's stream).
  virtual double run_once() = 0;
  virtual double flops() const = 0;  // per run
  virtual double bytes() const = 0;  // per run
  // How it measured, for the recording (chains, threads, sizes, the timer): added to the result's params and
  // provenance. Most ops say nothing more than their spec.
  virtual void describe(Params& /*params*/, Provenance& /*provenance*/) const {}
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string kind() const = 0;  // "cpu" | "cuda" | "vulkan"
  BackendKind kind_id() const { return backend_kind(kind()); }  // the same, typed: what code branches on
  virtual DeviceInfo device_info() const = 0;
  virtual Provenance provenance() const = 0;

  virtual std::vector<std::string> gemm_variants() const = 0;
  virtual Support supports(const GemmSpec& spec) const = 0;
  // Throws std::invalid_argument for bad sizes, std::runtime_error for device faults (with the reason).
  virtual std::unique_ptr<TimedOp> make_gemm(const GemmSpec& spec) = 0;
  virtual std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec& spec) = 0;
  virtual Support supports(const TransferSpec& spec) const = 0;
  virtual std::unique_ptr<TimedOp> make_transfer(const TransferSpec& spec) = 0;
  virtual MemoryInfo memory_info() const = 0;

  // Optional operations: the defaults say the backend does not offer them.
  virtual Support supports(const LayerChainSpec&) const { return Support::no("this backend has no layer-chain run"); }
  virtual std::unique_ptr<TimedOp> make_layer_chain(const LayerChainSpec&) { return nullptr; }
  virtual Support supports(const LaunchOverheadSpec&) const {
    return Support::no("kernel launches exist only on a GPU");
  }
  virtual std::unique_ptr<TimedOp> make_launch_overhead(const LaunchOverheadSpec&) { return nullptr; }
  // The three regimes' roofs (experiments/roofs.cpp): the FMA peak and the overhead floor.
  virtual Support supports(const PeakSpec&) const { return Support::no("this backend has no FMA-peak kernel"); }
  virtual std::unique_ptr<TimedOp> make_fma_peak(const PeakSpec&) { return nullptr; }
  virtual Support supports(const OverheadSpec&) const { return Support::no("this backend has no overhead probe"); }
  virtual std::unique_ptr<TimedOp> make_overhead(const OverheadSpec&) { return nullptr; }
  // Allocates `bytes` in chunks and holds them. Refuses (throws std::invalid_argument with the numbers)
  // when bytes exceed free memory minus `safety_margin_bytes`: an allocation that cannot fit is never tried.
  virtual std::unique_ptr<HeldMemory> hold_memory(double bytes, double safety_margin_bytes) {
    throw std::invalid_argument("this backend has no device memory to allocate (no GPU)");
  }
  // The same, without asking first: only for a run the teacher asked to go on until the device says no. The
  // device's own refusal (VK_ERROR_OUT_OF_DEVICE_MEMORY, CUDA's cudaErrorMemoryAllocation) throws DeviceOutOfMemory, with everything this call had
  // allocated already freed. Backends that do not offer it throw std::invalid_argument with the reason.
  virtual std::unique_ptr<HeldMemory> hold_memory_past_budget(double bytes) {
    (void)bytes;
    throw std::invalid_argument("going on until the device refuses an allocation is offered on a GPU only (CUDA or Vulkan)");
  }
  // The reading the memory page's hold shows: {total, free} of the memory a hold fills. By default what
  // memory_info() says (cudaMemGetInfo, /proc/meminfo); Vulkan reads the heap's budget, or without
  // VK_EXT_memory_budget the heap's size less what this process holds (hold_reading_source says which).
  virtual MemoryInfo hold_reading() const { return memory_info(); }
  virtual std::string hold_reading_source() const { return kind() == "cuda" ? "cudaMemGetInfo" : "/proc/meminfo MemAvailable"; }
};

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace gpulab

// The CUDA backend: device facts (name, SMs, clocks, versions, the labelled peak model), what it supports, and which
// op makes each measurement (gemm_op.cpp, bandwidth_ops.cpp, transfer_ops.cpp, memory_ops.cpp, layer_chain.cpp).
#include "cuda_backend.hpp"

#include "backend_internal.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/memory_hold.hpp"
#include "kernels/blas.hpp"
#include "peak_model.hpp"
#include "toolkit_features.hpp"

#include <cmath>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

// CMAKE_CUDA_ARCHITECTURES as configured ("75 80 86 89 90", "native", "75-virtual"); the emulated module has none.
std::string compiled_architectures() {
#if defined(GPULAB_CUDA_EMULATED_MODULE)
  return "none: the CPU emulator runs the kernels' C++";
#elif defined(GPULAB_CUDA_ARCHS)
  return std::string("sm ") + GPULAB_CUDA_ARCHS + " (CMAKE_CUDA_ARCHITECTURES)";
#else
  return "not recorded by this build";
#endif
}

std::string version_string(int v) {  // 13000 → "13.0", 12080 → "12.8"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  GPULAB_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device));
  return v;
}

// ---- the backend ---------------------------------------------------------------------------------------------------

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) {
    m_ctx.device = device;
    use_device(device);
    cudaDeviceProp prop{};
    GPULAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    m_ctx.cc_major = prop.major;
    m_ctx.cc_minor = prop.minor;
    m_ctx.sms = prop.multiProcessorCount;
    m_ctx.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);

    // Clock fields left cudaDeviceProp in CUDA 13: ask for them as attributes (kHz).
    const double clock_mhz = attribute(cudaDevAttrClockRate, device) / 1000.0;
    const double mem_clock_mhz = attribute(cudaDevAttrMemoryClockRate, device) / 1000.0;
    const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
    const bool ecc = attribute(cudaDevAttrEccEnabled, device) != 0;
    int driver = 0, runtime = 0, device_count = 0;
    GPULAB_CUDA_CHECK(cudaDriverGetVersion(&driver));
    GPULAB_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    GPULAB_CUDA_CHECK(cudaGetDeviceCount(&device_count));
    int cublas_major = 0, cublas_minor = 0, cublas_patch = 0;
    GPULAB_CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &cublas_major));
    GPULAB_CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &cublas_minor));
    GPULAB_CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &cublas_patch));
    const std::string cublas_version =
        std::to_string(cublas_major) + "." + std::to_string(cublas_minor) + "." + std::to_string(cublas_patch);
    const std::size_t lt = cublasLtGetVersion();
    const std::string cublaslt_version =
        std::to_string(lt / 10000) + "." + std::to_string((lt / 100) % 100) + "." + std::to_string(lt % 100);
    char pci[32] = {};
    GPULAB_CUDA_CHECK(cudaDeviceGetPCIBusId(pci, sizeof(pci), device));
    // A second GPU, for the GPU-to-GPU copy: the next one, with direct peer access when the topology allows it.
    if (device_count >= 2) {
      m_peer = (device + 1) % device_count;
      int can = 0;
      GPULAB_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device, m_peer));
      if (can) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(m_peer, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();  // not sticky: clear it and go on
        else GPULAB_CUDA_CHECK(e);
      }
      m_peer_direct = can != 0;
    }

    const int lanes32 = fp32_lanes_per_sm(prop.major, prop.minor);
    const Fp64Peak peak64 = fp64_peak(prop.major, prop.minor, prop.multiProcessorCount, clock_mhz);
    const double ghz = clock_mhz / 1000.0;
    const double mem_model_gbps = 2.0 * mem_clock_mhz * 1e6 * (bus_bits / 8.0) / 1e9;  // DDR: two transfers a clock

    DeviceInfo& d = m_info;
    d.kind = "cuda";
    d.name = prop.name;
    d.compute_units = prop.multiProcessorCount;
    d.threads = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
    d.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    d.clock_mhz = clock_mhz;
    d.memory_total_bytes = static_cast<double>(prop.totalGlobalMem);
    d.driver_version = version_string(driver);
    d.runtime_version = version_string(runtime);
    d.peak_gflops_fp32 = lanes32 * 2.0 * prop.multiProcessorCount * ghz;
    // DGEMM goes through cuBLAS, which uses the FP64 tensor cores where there are some (A100, H100, H200): judged
    // against the FMA lanes alone it would show more than 100 % of peak.
    d.peak_gflops_fp64 = peak64.gflops;
    const std::string peak_model = "model: " + std::to_string(prop.multiProcessorCount) + " SMs × " +
                                   std::to_string(lanes32) + " FP32 lanes × 2 FLOP (FMA) × " +
                                   number_text(clock_mhz, 5) + " MHz peak clock";
    d.peak_source = peak_model;
    d.details = {
        {"L2 cache", bytes_text(static_cast<double>(prop.l2CacheSize))},
        {"memory bus", std::to_string(bus_bits) + "-bit"},
        {"memory clock", number_text(mem_clock_mhz, 5) + " MHz"},
        {"memory bandwidth (model)", number_text(mem_model_gbps, 4) + " GB/s (2 × memory clock × bus width)"},
        {"peak FP32 (model)", number_text(d.peak_gflops_fp32, 5) + " GFLOP/s (" + peak_model + ")"},
        {"peak FP64 (model)", number_text(d.peak_gflops_fp64, 5) + " GFLOP/s (" + peak64.source + ")"},
        {"peak FP64 without tensor cores (model)",
         number_text(peak64.fma_gflops, 5) + " GFLOP/s (" + std::to_string(peak64.lanes) + " FP64 lanes per SM)"},
        {"shared memory per SM", bytes_text(static_cast<double>(prop.sharedMemPerMultiprocessor))},
        {"registers per SM", std::to_string(prop.regsPerMultiprocessor)},
        {"max threads per SM", std::to_string(prop.maxThreadsPerMultiProcessor)},
        {"ECC", ecc ? "on" : "off"},
        {"PCI bus", pci},
        {"GPUs visible", std::to_string(device_count)},
        {"GPU-to-GPU copies", m_peer < 0 ? std::string("need a second GPU (this machine has one)")
                                         : "to GPU " + std::to_string(m_peer) +
                                               (m_peer_direct ? ", direct (peer access)" : ", staged through host memory")},
        {"CUDA driver API", version_string(driver)},
        {"CUDA runtime (static)", version_string(runtime)},
        {"cuBLAS", cublas_version},
        {"cuBLASLt", cublaslt_version},
    };

    Provenance& p = m_prov;
    p = base_provenance();
    p["backend"] = "cuda";
    p["device"] = d.name;
    p["device_index"] = std::to_string(device);
    p["compute_capability"] = d.compute_capability;
    p["sms"] = std::to_string(d.compute_units);
    p["clock_mhz"] = number_text(clock_mhz, 5);
    p["memory_clock_mhz"] = number_text(mem_clock_mhz, 5);
    p["memory_bus_bits"] = std::to_string(bus_bits);
    p["memory_total_bytes"] = number_text(d.memory_total_bytes, 15);
    p["l2_bytes"] = std::to_string(prop.l2CacheSize);
    p["driver"] = d.driver_version;
    p["runtime"] = d.runtime_version;
    p["cublas"] = cublas_version;
    p["cublaslt"] = cublaslt_version;
    p["ecc"] = ecc ? "on" : "off";
    p["gpus_visible"] = std::to_string(device_count);
    if (m_peer >= 0)
      p["p2p"] = "GPU " + std::to_string(device) + " -> GPU " + std::to_string(m_peer) +
                 (m_peer_direct ? ": peer access enabled (direct over NVLink or PCIe)"
                                : ": no peer access (the driver stages the copy through host memory)");
    p["peak_fp32_gflops"] = number_text(d.peak_gflops_fp32, 6);
    p["peak_fp32_source"] = peak_model;
    p["peak_fp64_gflops"] = number_text(d.peak_gflops_fp64, 6);
    p["peak_fp64_source"] = peak64.source;
    p["peak_fp64_fma_gflops"] = number_text(peak64.fma_gflops, 6);
    p["timer"] = "CUDA events on the op's own stream";
    p["l2_flush"] = "a read of a 2x L2 buffer before every timed run (outside the timed region)";
    p["output_poison"] = "0xFF bytes (NaN) before every run";
    p["inputs"] = "uniform [-1, 1) from the seed, rounded on the host to the precision; reference from the rounded values";
    p["cublas_fp32_math"] = "CUBLAS_DEFAULT_MATH (no TF32); TF32 only as its own precision (CUBLAS_COMPUTE_32F_FAST_TF32)";
    p["cublas_fp16_bf16"] = "cublasGemmEx, FP32 accumulate, 16-bit output";
    p["cublas_int8_fp8"] = "cuBLASLt TN (B stored transposed); INT8 int32 out; FP8 E4M3 BF16 out, fast-accum off";
    // The checks' tolerances assume FP32 sums with one final rounding to 16 bits; by default cuBLAS may add split-K
    // partial sums in the output type, so that is switched off (kernels/cublas.cu) and said here.
    p["reduction"] = "FP32, reduced-precision split-K disallowed (cuBLAS: " + std::string(blas::kMathModeName) +
                     "; cuBLASLt FP8: reduction scheme NONE or COMPUTE_TYPE only)";
    p["uploads"] = "cudaMemcpyAsync on the op's own stream, synchronized before the first launch";
    p["ladder_time_cap"] = "naive, coalesced, smem refused when a run is estimated over " +
                           number_text(kMaxLadderRunSeconds, 2) + " s (share of the FP32 peak model)";
    p["bandwidth_arrays"] = "at least 4x L2 per array; bytes = read + written";
    for (const char* env : {"NVIDIA_TF32_OVERRIDE", "CUBLAS_EMULATE_SINGLE_PRECISION", "CUDA_VISIBLE_DEVICES"})
      if (const char* v = std::getenv(env)) p[std::string("env_") + env] = v;
    p["compiled_architectures"] = compiled_architectures();
    // Lazy loading moves each kernel's load into its first launch (the warm-up's untimed launch pays it).
    const char* loading = std::getenv("CUDA_MODULE_LOADING");
    p["cuda_module_loading"] = loading && *loading ? std::string(loading) : "unset (LAZY, the default since CUDA 12.2)";
  }

  std::string kind() const override { return "cuda"; }

  DeviceInfo device_info() const override {
    DeviceInfo d = m_info;
    d.memory_free_bytes = memory_info().free_bytes;
    return d;
  }

  // What can change while the backend lives is read now: the host memory the module sees (it sizes and refuses jobs
  // by it) and a sticky fault that has broken the device's context (gpulab bench ends the run on it).
  Provenance provenance() const override {
    Provenance p = m_prov;
    if (const auto host = host_available_bytes())
      p["host_memory_available"] = bytes_text(*host) + " (" + host_memory_source() + ")";
    if (const std::string fault = StickyFaultRecord::instance().description(); !fault.empty())
      p["device_fault"] = fault + ": a sticky error, the device's context is lost until the process restarts";
    for (const auto& [key, value] : m_info.details)
      if (key == "PCI bus") p["pci_bus_id"] = value;  // what NVML finds the same GPU by
    return p;
  }

  std::vector<std::string> gemm_variants() const override { return ladder_names(); }

  Support supports(const GemmSpec& spec) const override {
    if (spec.m < 1 || spec.n < 1 || spec.k < 1) return Support::no("matrix sizes must be at least 1");
    if (spec.m > kMaxDim || spec.n > kMaxDim || spec.k > kMaxDim)
      return Support::no("each matrix dimension is limited to " + std::to_string(kMaxDim) + " here");
    const bool own = is_ladder_variant(spec.variant);
    if (!own && ladder_step_of(spec.variant) != LadderStep::cublas) {
      std::string all;
      for (const auto& v : ladder_names()) all += (all.empty() ? "" : ", ") + v;
      return Support::no("the CUDA backend has no GEMM variant '" + spec.variant + "' (it has " + all + ")");
    }
    if (own) {
      if (spec.precision != Precision::fp32)
        return Support::no("the hand-written kernels compute in FP32 only; cuBLAS runs the other precisions");
      // The slow steps are capped by estimated time, as the CPU page caps its naive loop: one run must end within
      // the cancel window, and on a small GPU the naive kernel at 8192³ would take many seconds per run.
      const double flops = 2.0 * static_cast<double>(spec.m) * static_cast<double>(spec.n) * static_cast<double>(spec.k);
      const double est = ladder_seconds_estimate(spec.variant, flops, m_info.peak_gflops_fp32);
      if (est > kMaxLadderRunSeconds)
        return Support::no("the " + spec.variant + " kernel would take about " + number_text(est, 2) +
                           " s per run at this size on this GPU (estimated from " +
                           number_text(ladder_peak_share(spec.variant) * 100, 2) +
                           " % of its FP32 peak model); runs are limited to " + number_text(kMaxLadderRunSeconds, 2) +
                           " s so Cancel stays responsive: choose a smaller size or a faster step");
      return Support::yes();
    }
    const int cc = m_ctx.cc_major * 10 + m_ctx.cc_minor;
    switch (spec.precision) {
      case Precision::fp64:
      case Precision::fp32:
      case Precision::fp16: return Support::yes();
      case Precision::tf32:
        return cc >= 80 ? Support::yes()
                        : Support::no("TF32 tensor cores need compute capability 8.0 (Ampere) or newer");
      case Precision::bf16:
        return cc >= 80 ? Support::yes()
                        : Support::no("BF16 tensor cores need compute capability 8.0 (Ampere) or newer");
      case Precision::int8:
        if (cc < 75) return Support::no("INT8 tensor cores need compute capability 7.5 or newer");
        if (spec.m % 16 || spec.n % 16 || spec.k % 16)
          return Support::no("INT8 tensor-core GEMM (cuBLASLt) needs m, n and k to be multiples of 16");
        return Support::yes();
      case Precision::fp8:
        // The hardware and the cuBLASLt actually loaded must both have FP8 (toolkit_features.hpp).
        if (const std::string why = fp8_gemm_refusal(cc, cublasLtGetVersion()); !why.empty()) return Support::no(why);
        if (spec.m % 16 || spec.n % 16 || spec.k % 16)
          return Support::no("FP8 tensor-core GEMM (cuBLASLt) needs m, n and k to be multiples of 16");
        return Support::yes();
    }
    return Support::no("unknown precision");
  }

  std::unique_ptr<TimedOp> make_gemm(const GemmSpec& spec) override {
    if (spec.m < 1 || spec.n < 1 || spec.k < 1 || spec.m > kMaxDim || spec.n > kMaxDim || spec.k > kMaxDim)
      throw std::invalid_argument("GEMM sizes must be between 1 and " + std::to_string(kMaxDim) + " (got " +
                                  std::to_string(spec.m) + "x" + std::to_string(spec.n) + "x" +
                                  std::to_string(spec.k) + ")");
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    auto op = make_gemm_op(ctx(), spec);
    // The provenance from now on names the algorithm cuBLASLt chose for this format (run_gemm copies it into the
    // result; the device check lifts it into the recording's context).
    if (const std::string note = gemm_algo_note(*op); !note.empty())
      m_prov["cublaslt_algo_" + std::string(to_string(spec.precision))] = note;
    return op;
  }

  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec& spec) override {
    if (spec.kind != "copy" && spec.kind != "triad")
      throw std::invalid_argument("bandwidth kind must be \"copy\" or \"triad\" (got \"" + spec.kind + "\")");
    return make_bandwidth_op(ctx(), spec);
  }

  Support supports(const TransferSpec& spec) const override {
    if (spec.direction == "h2d" || spec.direction == "d2h" || spec.direction == "d2d") return Support::yes();
    if (spec.direction == "p2p")
      return m_peer >= 0 ? Support::yes()
                         : Support::no("a GPU-to-GPU copy needs two GPUs, and this machine has one");
    if (spec.direction == "h2h") return Support::no("host-to-host copies are measured by the CPU backend");
    return Support::no("unknown transfer direction '" + spec.direction + "' (h2d, d2h, d2d or p2p)");
  }

  std::unique_ptr<TimedOp> make_transfer(const TransferSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    if (spec.bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
    if (spec.direction == "p2p") return make_peer_copy_op(ctx(), m_peer, spec);
    return make_transfer_op(ctx(), spec);
  }

  Support supports(const LayerChainSpec& spec) const override { return layer_chain_support(m_ctx, spec); }

  std::unique_ptr<TimedOp> make_layer_chain(const LayerChainSpec& spec) override {
    return make_layer_chain_op(ctx(), spec);
  }

  Support supports(const LaunchOverheadSpec& spec) const override {
    if (spec.kernels < 1 || spec.kernels > 1000000) return Support::no("the number of kernels must be 1 to 1,000,000");
    if (spec.elements < 1 || spec.elements > (std::size_t{1} << 28))
      return Support::no("elements per kernel must be 1 to 2^28");
    return Support::yes();
  }

  std::unique_ptr<TimedOp> make_launch_overhead(const LaunchOverheadSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    return make_launch_overhead_op(ctx(), spec);
  }

  Support supports(const PeakSpec& spec) const override { return fma_peak_support(spec); }
  std::unique_ptr<TimedOp> make_fma_peak(const PeakSpec& spec) override { return make_fma_peak_op(ctx(), spec); }
  Support supports(const OverheadSpec& spec) const override {
    if (spec.graph) return spec.elements == 0 ? graph_overhead_support()
                                              : Support::no("a CUDA graph overhead run replays empty kernels only");
    return Support::yes();
  }
  std::unique_ptr<TimedOp> make_overhead(const OverheadSpec& spec) override { return make_overhead_op(ctx(), spec); }

  std::unique_ptr<HeldMemory> hold_memory(double bytes, double safety_margin_bytes) override {
    // The same rule as the page and the CPU backend (memory_hold.hpp): decided on cudaMemGetInfo's numbers, and
    // a request that cannot fit is refused with them, never attempted.
    const MemoryInfo before = memory_info();
    const HoldDecision d = check_hold(bytes, safety_margin_bytes, before, "the GPU");
    if (!d.ok) throw std::invalid_argument(d.reason);
    return make_device_held(m_ctx.device, bytes, before);
  }

  std::unique_ptr<HeldMemory> hold_memory_past_budget(double bytes) override {
    if (!(bytes > 0) || !std::isfinite(bytes)) throw std::invalid_argument("nothing to hold: bytes must be positive");
    return make_device_held_past_budget(m_ctx.device, bytes, memory_info());
  }

  MemoryInfo memory_info() const override {
    use_device(m_ctx.device);
    std::size_t free_b = 0, total_b = 0;
    GPULAB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return {static_cast<double>(total_b), static_cast<double>(free_b)};
  }

 private:
  static constexpr long long kMaxDim = 1 << 17;

  // The shared L2 flush buffer is made on first use, so a backend that only answers device_info allocates nothing.
  DeviceCtx ctx() {
    use_device(m_ctx.device);
    std::lock_guard lock(m_mutex);
    if (!m_ctx.flush) m_ctx.flush = std::make_shared<L2Flush>(m_ctx.l2_bytes, m_ctx.sms);
    return m_ctx;
  }

  DeviceCtx m_ctx;
  DeviceInfo m_info;
  Provenance m_prov;
  std::mutex m_mutex;
  int m_peer = -1;             // the GPU that GPU-to-GPU copies go to; -1 with only one GPU
  bool m_peer_direct = false;  // peer access enabled (else the driver stages through the host)
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(int device) { return std::make_unique<CudaBackend>(device); }

}  // namespace gpulab::cuda

// The CPU backend: always present. It is the lesson's professor (one core, the naive loop) and a small stadium
// (all cores through OpenBLAS), measured for real on the machine in front of the class.
#include "cpu_internal.hpp"
#include "layer_chain.hpp"
#include "gpulab/cpu_peak_state.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpulab {
namespace {

class CpuBackend final : public Backend {
 public:
  std::string kind() const override { return "cpu"; }

  DeviceInfo device_info() const override {
    DeviceInfo d = cpu::read_device_info();
    const cpu::FmaPeak peak = cpu::measured_fma_peak();
    const cpu::PeakModel model = cpu::peak_model(d.clock_mhz, d.compute_units);
    // The measured FMA peak is what the roofline uses: it is what this (possibly virtual, possibly shared) CPU
    // actually delivers. The clock x lanes model is listed beside it for comparison.
    d.peak_gflops_fp32 = peak.gflops_fp32;
    d.peak_gflops_fp64 = peak.gflops_fp64;
    const CpuPeak summary = cpu_peak();
    d.peak_source = summary.source_fp32;
    const std::string on = " (measured: register FMA chains, " + std::to_string(peak.threads) + " threads, " + peak.isa + ")";
    auto spread = [](const std::vector<double>& v) {
      if (v.empty()) return std::string();
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      return "; best of " + std::to_string(v.size()) + " bursts, " + format_fixed(*lo, 1) + "\u2013" +
             format_fixed(*hi, 1) + " GFLOP/s";
    };
    // When the best burst was taken, and whether a later set of bursts has confirmed it (a busy start-up reads
    // every burst low: fma_peak.cpp).
    const std::string when = peak.best_taken_at.empty() ? std::string()
                             : "; best at " + peak.best_taken_at + (peak.settled ? ", confirmed by a later set"
                                                                                 : ", not yet confirmed");
    d.details.emplace_back("Peak FP32" + on, format_si(peak.gflops_fp32 * 1e9, "FLOP/s") + spread(peak.bursts_fp32) +
                                                 when +
                                                 (peak.floor_fp32 > 0 ? "; raised to " + peak.floor_source_fp32 : ""));
    d.details.emplace_back("Peak FP64" + on, format_si(peak.gflops_fp64 * 1e9, "FLOP/s") + spread(peak.bursts_fp64) +
                                                 (peak.floor_fp64 > 0 ? "; raised to " + peak.floor_source_fp64 : ""));
    d.details.emplace_back("Peak FP32 (model: " + model.formula + ")", format_si(model.gflops_fp32 * 1e9, "FLOP/s"));
    d.details.emplace_back("Peak FP64 (model: half the FP32 lanes)", format_si(model.gflops_fp64 * 1e9, "FLOP/s"));
    return d;
  }

  Provenance provenance() const override { return cpu::cpu_provenance(); }

  std::vector<std::string> gemm_variants() const override { return {"naive", "reordered", "blas"}; }

  Support supports(const GemmSpec& spec) const override {
    if (spec.variant != "naive" && spec.variant != "reordered" && spec.variant != "blas")
      return Support::no("The CPU backend has no GEMM variant \"" + spec.variant + "\" (it has naive, reordered, blas)");
    if (spec.variant == "blas" && !cpu::blas_available())
      return Support::no("This build of gpulab has no OpenBLAS, so the BLAS variant is not available");
    switch (spec.precision) {
      case Precision::fp64:
      case Precision::fp32: return Support::yes();
      case Precision::tf32:
        return Support::no("TF32 is a mode of NVIDIA tensor cores (Ampere and newer); CPUs do not have it");
      case Precision::fp16:
        return Support::no("FP16 GEMM is not available on the CPU backend: OpenBLAS has no half-precision GEMM and "
                           "these CPUs have no fast FP16 arithmetic");
      case Precision::bf16:
        return Support::no("BF16 GEMM is not available through this OpenBLAS build (its library does not export "
                           "cblas_sbgemm)");
      case Precision::int8:
        return Support::no("INT8 GEMM is not available on the CPU backend: OpenBLAS has no integer GEMM");
      case Precision::fp8:
        return Support::no("FP8 exists only on recent GPUs (NVIDIA Hopper/Ada and newer); CPUs have no FP8 arithmetic");
    }
    return Support::no("unknown precision");
  }

  std::unique_ptr<TimedOp> make_gemm(const GemmSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    return cpu::make_gemm_op(spec);
  }

  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec& spec) override { return cpu::make_bandwidth_op(spec); }

  Support supports(const TransferSpec& spec) const override {
    if (spec.direction == "h2h") return Support::yes();
    if (spec.direction == "h2d" || spec.direction == "d2h" || spec.direction == "d2d")
      return Support::no("No GPU here: there is no PCIe hop to measure");
    return Support::no("Unknown transfer direction \"" + spec.direction + "\" (h2d, d2h, d2d or h2h)");
  }

  std::unique_ptr<TimedOp> make_transfer(const TransferSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    return cpu::make_h2h_op(spec);
  }

  MemoryInfo memory_info() const override { return cpu::read_meminfo(); }

  // Decode page (gpu/cpu/layer_chain.cpp): the layer chain in FP32, and host RAM held with the same refusal rule.
  Support supports(const LayerChainSpec& spec) const override { return cpu::layer_chain_support(spec); }
  std::unique_ptr<TimedOp> make_layer_chain(const LayerChainSpec& spec) override { return cpu::make_layer_chain_op(spec); }
  std::unique_ptr<HeldMemory> hold_memory(double bytes, double margin) override { return cpu::hold_host_memory(bytes, margin); }
  // The roofs (roofs_ops.cpp): FMA chains in FP32 and FP64 (no FP16 arithmetic in the vector units measured here),
  // and a parallel region of a thread pool, empty or with an elementwise op.
  Support supports(const PeakSpec& spec) const override {
    if (spec.precision == Precision::fp32 || spec.precision == Precision::fp64) return Support::yes();
    return Support::no("the CPU's FMA peak is measured in FP32 and FP64 only");
  }
  std::unique_ptr<TimedOp> make_fma_peak(const PeakSpec& spec) override { return cpu::make_fma_peak_op(spec); }
  Support supports(const OverheadSpec& spec) const override {
    if (spec.graph) return Support::no("CUDA graphs exist only on a CUDA GPU");
    return Support::yes();
  }
  std::unique_ptr<TimedOp> make_overhead(const OverheadSpec& spec) override { return cpu::make_overhead_op(spec); }
  // Tiny tasks issued back to back to a worker thread with no wait between them (launch_rate.cpp): the CPU's
  // counterpart of kernels launched on a stream (issue 36).
  Support supports(const LaunchOverheadSpec& spec) const override {
    if (spec.kernels < 1 || spec.kernels > 1'000'000) return Support::no("the number of tasks must be 1 to 1,000,000");
    if (spec.elements > (std::size_t{1} << 20)) return Support::no("at most 1 Mi elements a task");
    return Support::yes();
  }
  std::unique_ptr<TimedOp> make_launch_overhead(const LaunchOverheadSpec& spec) override {
    return cpu::make_launch_overhead_op(spec);
  }
};

CpuPeak summarise(const cpu::FmaPeak& p) {
  const DeviceInfo d = cpu::read_device_info();
  const cpu::PeakModel model = cpu::peak_model(d.clock_mhz, d.compute_units);
  CpuPeak c;
  c.gflops_fp32 = p.gflops_fp32;
  c.gflops_fp64 = p.gflops_fp64;
  c.threads = p.threads;
  c.bursts_fp32 = p.bursts_fp32;
  c.bursts_fp64 = p.bursts_fp64;
  c.retakes = p.retakes;
  c.model_fp32 = model.gflops_fp32;
  c.model_fp64 = model.gflops_fp64;
  c.model_formula = model.formula;
  c.floor_source_fp32 = p.floor_source_fp32;
  c.floor_source_fp64 = p.floor_source_fp64;
  auto source = [&p](double floor, const std::string& what, std::size_t n) {
    if (floor > 0) return "measured: " + what + " (faster than every register-FMA burst)";
    return "measured: best of " + std::to_string(n) + " register-FMA bursts on " + std::to_string(p.threads) +
           " threads";
  };
  c.source_fp32 = source(p.floor_fp32, p.floor_source_fp32, p.bursts_fp32.size());
  c.source_fp64 = source(p.floor_fp64, p.floor_source_fp64, p.bursts_fp64.size());
  return c;
}

CpuPeakState state_of(const cpu::FmaPeak& p) {
  const CpuPeak c = summarise(p);
  CpuPeakState s;
  s.gflops_fp32 = c.gflops_fp32;
  s.gflops_fp64 = c.gflops_fp64;
  s.source_fp32 = c.source_fp32;
  s.settled = p.settled;
  s.sets = p.sets;
  s.best_taken_at = p.best_taken_at;
  return s;
}

}  // namespace

CpuPeak cpu_peak() { return summarise(cpu::measured_fma_peak()); }
CpuPeakState cpu_peak_state() { return state_of(cpu::measured_fma_peak()); }
CpuPeakState settle_cpu_peak() { return state_of(cpu::settle_fma_peak()); }

bool retake_cpu_peak_if_quiet() { return cpu::retake_fma_peak_if_quiet(); }
void raise_cpu_peak_floor(double gflops, bool fp64, const std::string& what) {
  cpu::raise_fma_peak_floor(gflops, fp64, what);
}

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace gpulab

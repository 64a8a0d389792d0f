// Backends that stand for a catalogue card (and the device check's host) while a suite's plan is built, so the
// plan estimate (plan_estimate.hpp) prices the very jobs the bench would run. Each answers what plans ask (the
// variants, what is supported, the memory) by the rule the real backend applies: the CUDA module's ladder time cap
// is its own header (cuda/peak_model.hpp); the Vulkan backend's assumed rates are copied below with where they
// live, since its code needs the Vulkan headers. Nothing here measures: every make_* refuses.
#include "gpulab/plan_estimate.hpp"

#include "cuda/peak_model.hpp"
#include "gpulab/gemm_ladder.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpulab {
namespace {

[[noreturn]] void refuse_to_run() {
  throw std::logic_error("a modelled backend plans only: it runs nothing (plan_estimate.hpp)");
}

int cc_number(const models::GpuSpec& card) {  // "9.0" -> 90; 0 for none (an AMD card)
  const std::string& cc = card.compute_capability;
  const auto dot = cc.find('.');
  if (dot == std::string::npos || dot == 0) return 0;
  try {
    return std::stoi(cc.substr(0, dot)) * 10 + std::stoi(cc.substr(dot + 1));
  } catch (const std::exception&) {
    return 0;
  }
}

// The last-level cache, which the datasheet rows do not carry; NVIDIA's whitepapers by compute capability, the
// largest part of each generation (a larger cache makes the CUDA bandwidth arrays larger: the slower estimate).
double l2_bytes_of(const models::GpuSpec& card) {
  const double mib = 1024.0 * 1024.0;
  switch (cc_number(card)) {
    case 70: return 6 * mib;
    case 75: return 6 * mib;
    case 80: return 40 * mib;
    case 86: return 6 * mib;
    case 87: return 4 * mib;
    case 89: return 96 * mib;   // AD102 full die; the RTX 4090 enables 72 MiB
    case 90: return 50 * mib;   // H100, H200
    case 100: return 126 * mib; // B200
    case 120: return 128 * mib; // GB202
    default: return 64 * mib;
  }
}

class ModelGpuBackend final : public Backend {
 public:
  ModelGpuBackend(models::GpuSpec card, ModelDevice device) : m_card(std::move(card)), m_device(device) {}

  std::string kind() const override { return m_device == ModelDevice::cuda ? "cuda" : "vulkan"; }

  DeviceInfo device_info() const override {
    DeviceInfo d;
    d.kind = kind();
    d.name = m_card.name + " (modelled from its datasheet row)";
    d.compute_units = m_card.sms;
    d.compute_capability = m_device == ModelDevice::cuda ? m_card.compute_capability : "";
    d.clock_mhz = m_card.boost_mhz;
    d.memory_total_bytes = m_card.memory_bytes();
    d.memory_free_bytes = free_bytes();
    d.peak_gflops_fp32 = m_card.fp32_tflops.value_or(0) * 1e3;
    d.peak_gflops_fp64 = m_card.fp64_tflops.value_or(0) * 1e3;
    d.peak_source = "datasheet: " + m_card.name;
    return d;
  }

  Provenance provenance() const override {
    return {{"device", m_card.name}, {"device_type", "discrete GPU"}, {"backend", kind()},
            {"l2_bytes", std::to_string(static_cast<long long>(l2_bytes_of(m_card)))},
            {"model", "datasheet row, for the plan estimate"}};
  }

  std::vector<std::string> gemm_variants() const override {
    std::vector<std::string> out;
    if (m_device == ModelDevice::cuda)
      for (LadderStep s : kCudaLadder) out.emplace_back(ladder_variant(s));
    else
      for (LadderStep s : kVulkanLadder) out.emplace_back(ladder_variant(s));
    return out;
  }

  Support supports(const GemmSpec& spec) const override {
    const auto variants = gemm_variants();
    if (std::find(variants.begin(), variants.end(), spec.variant) == variants.end())
      return Support::no("no GEMM variant '" + spec.variant + "' on " + kind());
    const double flops = 2.0 * double(spec.m) * double(spec.n) * double(spec.k);
    if (m_device == ModelDevice::vulkan) {
      if (spec.precision != Precision::fp32 && spec.precision != Precision::fp16)
        return Support::no("the Vulkan shaders compute in FP32 and FP16");
      // gpu/vulkan/device_choices.cpp: assumed_rate for a discrete GPU, and kMaxRunSeconds = 0.5.
      const auto step = ladder_step_of(spec.variant);
      const double rate = step == LadderStep::naive ? 100e9 : step == LadderStep::smem ? 300e9 : 1000e9;
      return flops / rate > 0.5 ? Support::no("over the Vulkan backend's run cap") : Support::yes();
    }
    if (ladder_step_of(spec.variant) != LadderStep::cublas) {
      if (spec.precision != Precision::fp32) return Support::no("the hand-written kernels compute in FP32 only");
      const double est = cuda::ladder_seconds_estimate(spec.variant, flops, m_card.fp32_tflops.value_or(0) * 1e3);
      return est > cuda::kMaxLadderRunSeconds ? Support::no("over the CUDA module's ladder run cap") : Support::yes();
    }
    // cuda_backend.cpp's rule by compute capability (FP8 also by the datasheet's FP8 column).
    const int cc = cc_number(m_card);
    const bool by16 = spec.m % 16 == 0 && spec.n % 16 == 0 && spec.k % 16 == 0;
    switch (spec.precision) {
      case Precision::fp64:
      case Precision::fp32:
      case Precision::fp16: return Support::yes();
      case Precision::tf32:
      case Precision::bf16: return cc >= 80 ? Support::yes() : Support::no("needs compute capability 8.0");
      case Precision::int8: return cc >= 75 && by16 ? Support::yes() : Support::no("needs 7.5 and multiples of 16");
      case Precision::fp8:
        return cc >= 89 && m_card.fp8_tflops && by16 ? Support::yes() : Support::no("no FP8 tensor cores");
    }
    return Support::no("unknown precision");
  }

  Support supports(const TransferSpec& spec) const override {
    if (spec.direction == "h2d" || spec.direction == "d2h" || spec.direction == "d2d") return Support::yes();
    return Support::no("a modelled single GPU copies h2d, d2h and d2d");
  }
  Support supports(const LayerChainSpec& spec) const override {
    if (spec.precision == Precision::fp16 || spec.precision == Precision::fp32) return Support::yes();
    return Support::no("the chain runs in FP16 or FP32");
  }
  Support supports(const LaunchOverheadSpec&) const override {
    return m_device == ModelDevice::cuda ? Support::yes() : Support::no("measured through CUDA only");
  }
  Support supports(const PeakSpec& spec) const override {
    if (spec.precision == Precision::fp32 || spec.precision == Precision::fp16) return Support::yes();
    if (spec.precision == Precision::fp64 && m_device == ModelDevice::cuda) return Support::yes();
    return Support::no("no FMA-peak kernel in this format");
  }
  Support supports(const OverheadSpec& spec) const override {
    return !spec.graph || m_device == ModelDevice::cuda ? Support::yes() : Support::no("CUDA graphs are CUDA's");
  }
  MemoryInfo memory_info() const override { return {m_card.memory_bytes(), free_bytes()}; }

  std::unique_ptr<TimedOp> make_gemm(const GemmSpec&) override { refuse_to_run(); }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec&) override { refuse_to_run(); }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec&) override { refuse_to_run(); }

 private:
  // The driver and the context keep about half a GiB on a data-centre card.
  double free_bytes() const { return std::max(0.0, m_card.memory_bytes() - 0.6e9); }

  models::GpuSpec m_card;
  ModelDevice m_device;
};

// The device check's host: the CPU jobs of the CUDA suites plan against it (its variants and its memory).
class ModelHostBackend final : public Backend {
 public:
  explicit ModelHostBackend(const HostModel& host) : m_host(host) {}
  std::string kind() const override { return "cpu"; }
  DeviceInfo device_info() const override {
    DeviceInfo d;
    d.kind = "cpu";
    d.name = "the device check's host (modelled: " + std::to_string(m_host.cores) + " cores)";
    d.compute_units = d.threads = m_host.cores;
    d.memory_total_bytes = 128e9;
    d.memory_free_bytes = 120e9;
    return d;
  }
  Provenance provenance() const override { return {{"device", device_info().name}, {"backend", "cpu"}}; }
  std::vector<std::string> gemm_variants() const override { return {"naive", "reordered", "blas"}; }
  Support supports(const GemmSpec& spec) const override {
    return spec.precision == Precision::fp32 || spec.precision == Precision::fp64
               ? Support::yes()
               : Support::no("the CPU computes in FP32 and FP64 here");
  }
  Support supports(const TransferSpec& spec) const override {
    return spec.direction == "h2h" ? Support::yes() : Support::no("the host copies host to host");
  }
  Support supports(const PeakSpec& spec) const override {
    return spec.precision == Precision::fp32 || spec.precision == Precision::fp64 ? Support::yes()
                                                                                   : Support::no("FP32 and FP64");
  }
  Support supports(const OverheadSpec& spec) const override {
    return spec.graph ? Support::no("CUDA graphs are CUDA's") : Support::yes();
  }
  MemoryInfo memory_info() const override { return {128e9, 120e9}; }
  std::unique_ptr<TimedOp> make_gemm(const GemmSpec&) override { refuse_to_run(); }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec&) override { refuse_to_run(); }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec&) override { refuse_to_run(); }

 private:
  HostModel m_host;
};

}  // namespace

std::unique_ptr<Backend> make_model_gpu_backend(const models::GpuSpec& card, ModelDevice device) {
  return std::make_unique<ModelGpuBackend>(card, device);
}

std::unique_ptr<Backend> make_model_host_backend(const HostModel& host) {
  return std::make_unique<ModelHostBackend>(host);
}

}  // namespace gpulab

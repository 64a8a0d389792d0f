// The Vulkan backend: device facts and provenance, what it supports, which op makes each measurement
// (gemm_op.cpp, bandwidth_ops.cpp, transfer_ops.cpp, layer_chain.cpp).
#include "vulkan_backend.hpp"

#include "backend_internal.hpp"
#include "device_choices.hpp"
#include "gpulab/memory_hold.hpp"
#include "heap_reading.hpp"
#include "held_memory.hpp"
#include "gpulab/harness.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gpulab::vk {
namespace {

std::string mib(double bytes) { return number_text(bytes / (1024.0 * 1024.0), 5) + " MiB"; }

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

class VulkanBackend final : public Backend {
 public:
  VulkanBackend(std::shared_ptr<Instance> instance, const DeviceFacts& facts) {
    m_ctx.device = std::make_shared<Device>(std::move(instance), facts);
    const DeviceFacts& f = facts;
    DeviceInfo& d = m_info;
    d.kind = "vulkan";
    // A CPU-type device is named for what it is everywhere the name is shown.
    d.name = f.is_cpu ? f.label() : f.name;
    d.memory_total_bytes = f.device_local_bytes;
    d.driver_version = f.driver;
    d.runtime_version = "Vulkan " + f.api_version;
    d.peak_source = "unknown: Vulkan reports neither clocks nor core counts";
    const bool fp16 = m_ctx.device->fp16_enabled();
    d.details = {
        {"device type", f.is_cpu ? "CPU (Mesa's llvmpipe/lavapipe runs Vulkan on this computer's processor: not a GPU)"
                                 : f.type},
        {"vendor", f.vendor},
        {"Vulkan API (device)", f.api_version},
        {"driver", f.driver},
        {"memory", f.shared_memory ? "shared with the CPU (the same RAM): host <-> device copies do not cross a bus"
                                   : "the card's own memory; host <-> device copies cross the bus (PCIe)"},
        {"device-local memory", mib(f.device_local_bytes)},
        {"largest shader buffer (maxStorageBufferRange)", mib(f.max_storage_buffer_range)},
        {"shared memory per workgroup", number_text(f.max_shared_bytes / 1024.0, 4) + " KiB"},
        {"invocations per workgroup", std::to_string(f.max_invocations)},
        {"subgroup size", std::to_string(f.subgroup_size)},
        {"timestamps", std::to_string(f.timestamp_valid_bits) + " valid bits, " + number_text(f.timestamp_period_ns, 4) +
                           " ns per tick"},
        {"FP16 shaders", fp16 ? "yes (shaderFloat16 + 16-bit storage)" : "no (FP32 only)"},
        {"cooperative matrix (tensor cores)", "not built: the Vulkan 1.3.239 headers lack VK_KHR_cooperative_matrix"},
        {"peak FP32", "unknown (Vulkan reports neither clocks nor core counts)"},
    {"free memory", f.memory_budget ? "read through VK_EXT_memory_budget"
                                    : "unknown (the driver does not offer VK_EXT_memory_budget)"},
    };

    Provenance& p = m_prov;
    p = base_provenance();
    p["backend"] = "vulkan";
    p["device"] = d.name;
    p["device_index"] = std::to_string(f.index);
    p["device_type"] = f.is_cpu ? "CPU (not a GPU)" : f.type;
    p["vendor"] = f.vendor;
    p["driver"] = f.driver;
    p["vulkan_api"] = f.api_version;
    p["memory_total_bytes"] = number_text(f.device_local_bytes, 15);
    p["memory"] = f.shared_memory ? "shared with the CPU" : "dedicated";
    p["memory_free_reading"] = f.memory_budget ? "VK_EXT_memory_budget (heap budget less this process's use)"
                                               : "unknown (no VK_EXT_memory_budget)";
    p["fp16"] = fp16 ? "shaderFloat16 + storageBuffer16BitAccess" : "not offered";
    p["timer"] = "Vulkan timestamp queries around the recorded work (" + number_text(f.timestamp_period_ns, 4) +
                 " ns per tick, " + std::to_string(f.timestamp_valid_bits) + " valid bits)";
    p["output_poison"] = "vkCmdFillBuffer 0xFFFFFFFF (NaN) before every run, outside the timed region";
    p["inputs"] = "uniform [-1, 1) from the seed, rounded on the host to the precision; reference from the rounded values";
    p["uploads"] = "through a host-visible staging buffer and vkCmdCopyBuffer, waited for";
    // Which memory each kind of buffer comes from (device_choices.hpp): transfers and readbacks say what they used.
    for (const auto& [key, where] : {std::pair{"memory_device", Memory::device}, std::pair{"memory_upload_staging", Memory::upload},
                                     std::pair{"memory_readback_staging", Memory::readback}}) {
      const Buffer probe(*m_ctx.device, 16, where);
      p[key] = memory_type_text(f.props, probe.memory_type());
    }
    p["layer_chain_timing"] = "timestamps around the whole chain in one submission; a chain estimated past " +
                              number_text(kMaxRunSeconds, 2) + " s is submitted in pieces (one dispatch each), each "
                              "timed on the device and the times summed, Cancel checked between them";
    p["device_extensions_enabled"] = join(m_ctx.device->enabled_extensions());
    p["queue_family"] = std::to_string(f.compute_queue_family) + " (compute" +
                        (f.timestamp_valid_bits > 0 ? ", timestamps)" : ", no timestamps)");
    p["bandwidth_arrays"] = "256 MiB per array, or the largest one shader buffer may be (maxStorageBufferRange " +
                            mib(f.max_storage_buffer_range) + "); bytes = read + written";
    p["bandwidth_min_array_bytes"] = std::to_string(bandwidth_array_floor(f));
    p["bandwidth_max_array_bytes"] = std::to_string(bandwidth_array_ceiling(f));
    p["shaders"] = "GLSL compiled by glslc -O at build time (SPIR-V embedded)";
    p["cooperative_matrix"] = "not built (Vulkan 1.3.239 headers)";
    if (const Instance& inst = m_ctx.device->instance(); inst.validation_on()) p["validation_layer"] = "on";
    for (const char* env : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "GPULAB_VULKAN_DEVICE", "GPULAB_VULKAN_ALLOW_CPU"})
      if (const char* v = std::getenv(env)) p[std::string("env_") + env] = v;
  }

  std::string kind() const override { return "vulkan"; }
  DeviceInfo device_info() const override {
    DeviceInfo d = m_info;
    d.memory_free_bytes = memory_info().free_bytes;
    return d;
  }
  Provenance provenance() const override { return m_prov; }
  std::vector<std::string> gemm_variants() const override { return ladder_names(); }
  Support supports(const GemmSpec& spec) const override {
    return gemm_support(m_ctx.facts(), m_ctx.device->fp16_enabled(), spec);
  }
  std::unique_ptr<TimedOp> make_gemm(const GemmSpec& spec) override { return make_gemm_op(m_ctx, spec); }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec& spec) override { return make_bandwidth_op(m_ctx, spec); }
  Support supports(const TransferSpec& spec) const override {
    if (spec.direction == "h2d" || spec.direction == "d2h" || spec.direction == "d2d") return Support::yes();
    if (spec.direction == "p2p") return Support::no("GPU-to-GPU copies are measured through CUDA only");
    if (spec.direction == "h2h") return Support::no("host-to-host copies are measured by the CPU backend");
    return Support::no("unknown transfer direction '" + spec.direction + "' (h2d, d2h or d2d)");
  }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    return make_transfer_op(m_ctx, spec);
  }
  Support supports(const LayerChainSpec& spec) const override {
    return layer_chain_support(m_ctx.facts(), m_ctx.device->fp16_enabled(), spec);
  }
  std::unique_ptr<TimedOp> make_layer_chain(const LayerChainSpec& spec) override {
    return make_layer_chain_op(m_ctx, spec);
  }
  // Free memory through VK_EXT_memory_budget where the driver offers it; otherwise unknown (0): a heap's size is
  // not what is free in it, so it is never passed off as such.
  MemoryInfo memory_info() const override {
    if (const auto b = m_ctx.device->memory_budget()) return {b->total_bytes, b->free_bytes};
    return {m_ctx.facts().device_local_bytes, 0};
  }
  // Kernel launches: one tiny dispatch after another is not built for Vulkan (a command buffer records them all
  // before any runs, so what CUDA's launch cost shows would need per-dispatch submits to mean the same).
  Support supports(const PeakSpec& spec) const override {
    return fma_peak_support(m_ctx.device->fp16_enabled(), spec);
  }
  std::unique_ptr<TimedOp> make_fma_peak(const PeakSpec& spec) override { return make_fma_peak_op(m_ctx, spec); }
  Support supports(const OverheadSpec& spec) const override {
    if (spec.graph) return Support::no("CUDA graphs exist only on a CUDA GPU (Vulkan's nearest, a reused command "
                                       "buffer, is not measured here)");
    return Support::yes();
  }
  std::unique_ptr<TimedOp> make_overhead(const OverheadSpec& spec) override { return make_overhead_op(m_ctx, spec); }
  // Many dispatches back to back (issue 36): recorded into one command buffer, submitted once and waited for once,
  // as a CUDA stream's launches go without a wait between them (launch_rate_op.cpp).
  Support supports(const LaunchOverheadSpec& spec) const override {
    if (spec.kernels < 1 || spec.kernels > 100'000) return Support::no("the number of dispatches must be 1 to 100,000");
    return Support::yes();
  }
  std::unique_ptr<TimedOp> make_launch_overhead(const LaunchOverheadSpec& spec) override {
    return make_launch_overhead_op(m_ctx, spec);
  }
  // The memory page's hold: device memory in steps, read back from its heap's budget after each (or, without
  // VK_EXT_memory_budget, the heap's size less what is held). The same refusal rule as CUDA (memory_hold.hpp).
  MemoryInfo hold_reading() const override {
    const HeapReading r = heap_reading(read_heaps_now(m_ctx.facts().handle, m_ctx.facts().memory_budget),
                                       m_ledger->bytes.load(), hold_heap(m_ctx.facts().props));
    return {r.total_bytes, r.free_bytes};
  }
  std::string hold_reading_source() const override {
    return heap_reading_source(m_ctx.facts().memory_budget, m_ctx.facts().props);
  }
  std::unique_ptr<HeldMemory> hold_memory(double bytes, double safety_margin_bytes) override {
    const MemoryInfo before = hold_reading();
    const HoldDecision d = check_hold(bytes, safety_margin_bytes, before,
                                      m_ctx.facts().shared_memory ? "the device (this computer's RAM)" : "the GPU");
    if (!d.ok) throw std::invalid_argument(d.reason);
    return make_held_memory(m_ctx, m_ledger, bytes, before, [this] { return hold_reading(); });
  }
  // Asked for on purpose (the page's "until the device says no"): tried without the check; the driver's
  // VK_ERROR_OUT_OF_DEVICE_MEMORY becomes DeviceOutOfMemory with the step's chunks freed.
  std::unique_ptr<HeldMemory> hold_memory_past_budget(double bytes) override {
    return make_held_memory(m_ctx, m_ledger, bytes, hold_reading(), [this] { return hold_reading(); });
  }

 private:
  Ctx m_ctx;
  std::shared_ptr<HoldLedger> m_ledger = std::make_shared<HoldLedger>();
  DeviceInfo m_info;
  Provenance m_prov;
};

}  // namespace

std::string explain_instance_failure(const std::string& what, VkResult r) {
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    return "Vulkan: no driver found (the Vulkan loader is installed but no driver for this computer's GPU; on "
           "Debian/Ubuntu install mesa-vulkan-drivers, or the GPU maker's driver)";
  if (r == VK_ERROR_LAYER_NOT_PRESENT) return "Vulkan: the validation layer is not installed (vulkan-validationlayers)";
  return "Vulkan: could not start: " + what;
}

Created list_only(const BackendOptions& options) {
  Created out;
  try {
    out.instance = std::make_shared<Instance>(InstanceOptions{options.validation});
    out.devices = list_devices(*out.instance);
    if (out.devices.empty()) out.reason = "Vulkan: no driver found (the driver sees no device)";
  } catch (const VkError& e) {
    out.reason = explain_instance_failure(e.what(), e.result());
  } catch (const std::exception& e) {
    out.reason = std::string("Vulkan: could not start: ") + e.what();
  }
  return out;
}

Created create_backend(const BackendOptions& options) {
  Created out = list_only(options);
  if (!out.instance || out.devices.empty()) return out;
  std::string why;
  const int index = choose_device(out.devices, options.device, options.allow_cpu, why);
  if (index < 0) {
    out.reason = why;
    return out;
  }
  try {
    out.backend = std::make_unique<VulkanBackend>(out.instance, out.devices[static_cast<std::size_t>(index)]);
  } catch (const std::exception& e) {
    out.reason = "Vulkan: " + out.devices[static_cast<std::size_t>(index)].label() + " could not be opened: " + e.what();
  }
  return out;
}

}  // namespace gpulab::vk

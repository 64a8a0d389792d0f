#pragma once
// Pieces the Vulkan backend's files share. Module-internal. One job per file:
//   vk_check.*         GPULAB_VK_CHECK: every call checked, errors name the call and the VkResult
//   vk_raii.hpp        move-only owners of every Vulkan object
//   vk_instance.*      instance, device list and facts, validation messenger, which device to use
//   vk_device.*        logical device, buffers, compute programs, the timed command stream
//   spirv.*            the shaders (gpu/vulkan/shaders, compiled by glslc at build time)
//   vulkan_backend.cpp the Backend: device facts, provenance, what is supported, which op makes what
//   gemm_op.cpp        the GEMM ladder (FP32, FP16 where offered)
//   bandwidth_ops.cpp  copy and triad shaders, vkCmdCopyBuffer
//   transfer_ops.cpp   host <-> device through a staging buffer
//   layer_chain.cpp    the decode page's chain of GEMMs (weights and dispatches laid out by chain_layout.*)
//   device_properties.* the device's properties, read once: the seam the choices below are tested through
//   device_choices.*   queue family, extensions, memory types, time estimates: pure functions of the properties
#include "gpulab/backend.hpp"
#include "vk_device.hpp"

#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace gpulab::vk {

// The embedded SPIR-V of a shader by its build name ("gemm_01_naive_fp32", "copy", ...); throws for an unknown one.
std::span<const std::uint32_t> spirv(const std::string& name);

inline std::string number_text(double v, int precision = 4) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

// What every op holds: the device (shared, so an op may outlive the backend object that made it).
struct Ctx {
  std::shared_ptr<Device> device;
  const DeviceFacts& facts() const { return device->facts(); }
};

// Copies through a host-visible staging buffer (the only way into device-local memory on a discrete card; on an
// integrated GPU the same path is kept so both are measured alike), waited for.
void upload(Ctx& ctx, Stream& stream, const Buffer& dst, const void* src, std::size_t bytes, std::size_t dst_offset = 0);
void download(Ctx& ctx, Stream& stream, const Buffer& src, void* dst, std::size_t bytes, std::size_t src_offset = 0);
// Fills with 0xFF bytes: NaN in FP32 and FP16, so a cell a shader forgot to write cannot pass a check.
void poison(VkCommandBuffer cb, const Buffer& b);

// Refuses, with the numbers, a buffer larger than one storage-buffer binding or one allocation may be.
void require_buffer_fits(const DeviceFacts& f, double bytes, const std::string& what);

// The ops.
const std::vector<std::string>& ladder_names();
Support gemm_support(const DeviceFacts& f, bool fp16_enabled, const GemmSpec& spec);
std::unique_ptr<TimedOp> make_gemm_op(Ctx ctx, const GemmSpec& spec);
std::unique_ptr<TimedOp> make_bandwidth_op(Ctx ctx, const BandwidthSpec& spec);
// The smallest array the bandwidth shaders stream (smaller requests are raised to it): 256 MiB, or one binding's limit.
std::size_t bandwidth_array_floor(const DeviceFacts& f);
// The largest (larger requests are cut to it): one binding's or one allocation's limit.
std::size_t bandwidth_array_ceiling(const DeviceFacts& f);
std::unique_ptr<TimedOp> make_transfer_op(Ctx ctx, const TransferSpec& spec);
Support layer_chain_support(const DeviceFacts& f, bool fp16_enabled, const LayerChainSpec& spec);
std::unique_ptr<TimedOp> make_layer_chain_op(Ctx ctx, const LayerChainSpec& spec);
// roofs_ops.cpp: the FMA peak and the overhead floor (empty dispatch, or the triad over a few elements).
Support fma_peak_support(bool fp16_enabled, const PeakSpec& spec);
std::unique_ptr<TimedOp> make_fma_peak_op(Ctx ctx, const PeakSpec& spec);
std::unique_ptr<TimedOp> make_overhead_op(Ctx ctx, const OverheadSpec& spec);
// launch_rate_op.cpp: many empty dispatches in one command buffer, one submit and one wait (the issue rate).
std::unique_ptr<TimedOp> make_launch_overhead_op(Ctx ctx, const LaunchOverheadSpec& spec);

// How one GEMM run is dispatched: bands of rows [row0, row0 + rows), whole tiles each, each estimated well under
// the cancel window (gemm_op.cpp). Throws std::invalid_argument for an unknown variant.
struct RowBand {
  long long row0 = 0, rows = 0;
};
std::vector<RowBand> gemm_row_bands(const DeviceProperties& p, const std::string& variant, long long m, long long n,
                                    long long k);

// The GEMM shaders' push constants (shaders/gemm_common.glsl).
struct GemmShape {
  std::uint32_t m, n, k, lda, ldb, ldc, a_off, b_off, c_off;
};

}  // namespace gpulab::vk

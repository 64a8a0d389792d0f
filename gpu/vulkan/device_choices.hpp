#pragma once
// What the backend chooses for a device, as pure functions of its properties (device_properties.hpp): the queue
// family, the extensions to enable, the memory type of each kind of buffer, and how long work is expected to take
// (so runs fit the cancel window and one dispatch stays far from a driver's GPU timeout). Tested against real
// devices' property sets (tests/vulkan/test_vulkan_device_choices.cpp).
#include "device_properties.hpp"

#include <string>
#include <vector>

namespace gpulab::vk {

// A compute-capable family whose queues write timestamps (timestampValidBits > 0) when there is one, else the first
// compute-capable family; -1 when none can compute.
int choose_compute_queue_family(const DeviceProperties& p);

// Device extensions to enable: VK_EXT_memory_budget (so its free-memory reading is valid use) and, on a
// portability driver such as MoltenVK, VK_KHR_portability_subset, which the spec requires whenever it is listed.
std::vector<std::string> device_extensions_to_enable(const DeviceProperties& p);

// Where a buffer's memory comes from. upload: host-visible, coherent, preferably not cached (write-combined memory
// is fast for the CPU to write and for the device to read) and in the host's own heap on a discrete card, so a copy
// crosses the bus. readback: host-visible, coherent and HOST_CACHED where a type offers it: reading write-combined
// (uncached) memory back on the CPU is many times slower, and would be timed as if it were the bus. device:
// DEVICE_LOCAL, else any type the buffer allows; on an integrated GPU (one memory) a type on the largest heap first,
// so a small device-local carve-out does not bound the work.
enum class MemoryUse { device, upload, readback };
// The memory type to allocate from, among those in `type_bits` (vkGetBufferMemoryRequirements); -1 when none fits.
int choose_memory_type(const DeviceProperties& p, std::uint32_t type_bits, MemoryUse use);
// "type 10: HOST_VISIBLE | HOST_COHERENT | HOST_CACHED, heap 1 (host memory, 23.48 GiB)".
std::string memory_type_text(const DeviceProperties& p, int type);

// Work sizing by time. The rates are floors for the device's class (CPU-type device, integrated GPU, other GPU),
// below what each shader reached on such devices, so an estimate errs long; nothing is ever timed with them.
enum class ShaderKind { gemm_naive, gemm_smem, gemm_blocktile, gemm_vectorized, chain_stream };
struct AssumedRate {
  double flops_per_s = 0;
  double bytes_per_s = 0;
};
AssumedRate assumed_rate(const DeviceProperties& p, ShaderKind kind);
double estimated_seconds(const DeviceProperties& p, ShaderKind kind, double flops, double bytes);
// One submission, waited for, is kept under this estimate, so Cancel answers within its window: a GEMM run longer
// than this is refused; a decode chain longer than this is submitted in pieces with a cancel check between them.
inline constexpr double kMaxRunSeconds = 0.5;
// A decode chain estimated past this per step is refused: its samples would take minutes (lavapipe and a 7B layer).
inline constexpr double kMaxChainRunSeconds = 10.0;
// Work is split so that one dispatch is estimated at no more than this: well under the cancel window and far under
// the GPU timeouts of desktop drivers (2 s on Windows).
inline constexpr double kMaxDispatchSeconds = 0.1;

// How many equal parts (each a whole number of `granule` rows or columns out of `extent`) make each part's estimate
// at most kMaxDispatchSeconds when the whole is estimated at `seconds`. At least 1; at most extent / granule parts.
long long dispatch_parts(double seconds, long long extent, long long granule);

}  // namespace gpulab::vk

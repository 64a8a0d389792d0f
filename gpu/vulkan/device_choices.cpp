// The backend's choices as pure functions of a device's properties (device_choices.hpp).
#include "device_choices.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpulab::vk {

int choose_compute_queue_family(const DeviceProperties& p) {
  int first_compute = -1;
  for (std::size_t i = 0; i < p.queue_families.size(); ++i) {
    const QueueFamilyInfo& q = p.queue_families[i];
    if (!(q.flags & VK_QUEUE_COMPUTE_BIT) || q.count == 0) continue;
    // Every measurement is timed with timestamp queries: a family without them could time nothing.
    if (q.timestamp_valid_bits > 0) return static_cast<int>(i);
    if (first_compute < 0) first_compute = static_cast<int>(i);
  }
  return first_compute;
}

std::vector<std::string> device_extensions_to_enable(const DeviceProperties& p) {
  std::vector<std::string> out;
  for (const char* name : {VK_EXT_MEMORY_BUDGET_EXTENSION_NAME, "VK_KHR_portability_subset"})
    if (p.has_extension(name)) out.emplace_back(name);
  return out;
}

int choose_memory_type(const DeviceProperties& p, std::uint32_t type_bits, MemoryUse use) {
  // Types that need a feature the backend never enables (AMD's device-coherent memory) or that are not ordinary
  // memory (protected, lazily allocated) are never chosen.
  constexpr VkMemoryPropertyFlags kNever = VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT |
                                           VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD |
                                           VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD;
  // On an integrated GPU (or a CPU) every heap is the same DRAM, and a driver may report only a carve-out as
  // device-local (512 MB on many AMD APUs under AMD's own drivers): the first device-local type would run three
  // 256 MiB bandwidth arrays out of memory that the large heap holds. There the device's work goes on the largest
  // heap, device-local or not; a discrete card's device-local heap is its own fast memory, whatever its size.
  const bool one_memory = p.is_integrated() || p.is_cpu();
  double largest_heap = 0;
  for (const MemoryHeapInfo& h : p.heaps) largest_heap = std::max(largest_heap, h.size_bytes);
  int best = -1, best_score = -1;
  for (std::size_t i = 0; i < p.memory_types.size() && i < 32; ++i) {
    if (!(type_bits & (1u << i))) continue;
    const VkMemoryPropertyFlags f = p.memory_types[i].flags;
    if (f & kNever) continue;
    int score = 0;
    if (use == MemoryUse::device) {
      score = (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) ? 2 : 0;  // any type will do when none is device-local
      const std::uint32_t heap = p.memory_types[i].heap;
      if (one_memory && heap < p.heaps.size() && p.heaps[heap].size_bytes >= largest_heap) score += 4;
      if (!(f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT)) score += 1;  // the GPU's reads need not snoop the CPU's caches
    } else {
      constexpr VkMemoryPropertyFlags kMapped = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      if ((f & kMapped) != kMapped) continue;
      const bool cached = f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      // Host memory first: on a discrete card a device-local, host-visible type (resizable BAR) would turn a
      // host <-> device copy into a copy inside the card. On an integrated GPU every type is device-local: no change.
      if (!(f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) score += 4;
      if (use == MemoryUse::readback && cached) score += 2;
      if (use == MemoryUse::upload && !cached) score += 1;
    }
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

std::string memory_type_text(const DeviceProperties& p, int type) {
  if (type < 0 || type >= static_cast<int>(p.memory_types.size())) return "no memory type";
  const MemoryTypeInfo& t = p.memory_types[static_cast<std::size_t>(type)];
  std::string flags;
  const std::pair<VkMemoryPropertyFlags, const char*> names[] = {
      {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "DEVICE_LOCAL"},   {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "HOST_VISIBLE"},
      {VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "HOST_COHERENT"}, {VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "HOST_CACHED"}};
  for (const auto& [bit, name] : names)
    if (t.flags & bit) flags += (flags.empty() ? "" : " | ") + std::string(name);
  if (flags.empty()) flags = "no flags";
  std::string heap = "heap " + std::to_string(t.heap);
  if (t.heap < p.heaps.size()) {
    char size[32];
    std::snprintf(size, sizeof size, "%.2f GiB", p.heaps[t.heap].size_bytes / (1024.0 * 1024 * 1024));
    heap += (p.heaps[t.heap].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? " (device-local, " : " (host memory, ";
    heap += std::string(size) + ")";
  }
  return "type " + std::to_string(type) + ": " + flags + ", " + heap;
}

AssumedRate assumed_rate(const DeviceProperties& p, ShaderKind kind) {
  // Floors, FLOP/s and bytes/s. CPU-type (lavapipe): the GEMM steps ran at 0.2-1.5 GFLOP/s on this project's 2-core
  // CI machine while busy; the chain's streaming shader at 0.05-0.2 GFLOP/s and 0.03-0.07 GB/s with the machine
  // loaded six times over, a few times that when quiet. GPUs: well below what these shaders reach on an entry-level
  // part of the class (an integrated GPU's ~0.4 TFLOP/s peak and ~40 GB/s; a discrete card's TFLOP/s and ~200 GB/s).
  struct Row {
    double naive, smem, blocktile, stream_flops, stream_bytes;
  };
  const Row cpu{0.55e9, 0.55e9, 0.55e9, 0.1e9, 0.1e9};
  const Row integrated{10e9, 30e9, 100e9, 20e9, 15e9};
  const Row discrete{100e9, 300e9, 1000e9, 200e9, 150e9};
  const Row& r = p.is_cpu() ? cpu : p.is_integrated() ? integrated : discrete;
  switch (kind) {
    case ShaderKind::gemm_naive: return {r.naive, 0};
    case ShaderKind::gemm_smem: return {r.smem, 0};
    case ShaderKind::gemm_blocktile:
    case ShaderKind::gemm_vectorized: return {r.blocktile, 0};
    case ShaderKind::chain_stream: return {r.stream_flops, r.stream_bytes};
  }
  return {r.naive, 0};
}

double estimated_seconds(const DeviceProperties& p, ShaderKind kind, double flops, double bytes) {
  const AssumedRate r = assumed_rate(p, kind);
  double s = r.flops_per_s > 0 ? flops / r.flops_per_s : 0;
  if (r.bytes_per_s > 0) s = std::max(s, bytes / r.bytes_per_s);
  return s;
}

long long dispatch_parts(double seconds, long long extent, long long granule) {
  const long long most = std::max(1LL, (extent + granule - 1) / std::max(1LL, granule));
  const double wanted = std::ceil(seconds / kMaxDispatchSeconds);
  if (!(wanted > 1)) return 1;
  return std::min(most, static_cast<long long>(std::min(wanted, 1e12)));
}

}  // namespace gpulab::vk

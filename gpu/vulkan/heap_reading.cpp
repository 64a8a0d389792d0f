// The heap reading a Vulkan hold shows (heap_reading.hpp).
#include "heap_reading.hpp"

#include "device_choices.hpp"

#include <algorithm>

namespace gpulab::vk {

int hold_heap(const DeviceProperties& p) {
  const int type = choose_memory_type(p, ~0u, MemoryUse::device);
  if (type < 0 || static_cast<std::size_t>(type) >= p.memory_types.size()) return -1;
  const std::uint32_t heap = p.memory_types[static_cast<std::size_t>(type)].heap;
  return heap < p.heaps.size() ? static_cast<int>(heap) : -1;
}

HeapReading heap_reading(const std::vector<MemoryHeapInfo>& heaps, double held_here, int heap) {
  HeapReading r;
  bool any = false, all_budget = true;
  double budget_free = 0;
  const bool one_heap = heap >= 0 && static_cast<std::size_t>(heap) < heaps.size();
  for (std::size_t i = 0; i < heaps.size(); ++i) {
    const MemoryHeapInfo& h = heaps[i];
    if (one_heap ? i != static_cast<std::size_t>(heap) : !(h.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
    any = true;
    r.total_bytes += h.size_bytes;
    if (h.budget_bytes < 0) all_budget = false;
    else budget_free += std::max(0.0, h.budget_bytes - h.usage_bytes);
  }
  r.from_budget = any && all_budget;
  r.free_bytes = r.from_budget ? budget_free : std::max(0.0, r.total_bytes - std::max(0.0, held_here));
  return r;
}

std::vector<MemoryHeapInfo> read_heaps_now(VkPhysicalDevice device, bool has_budget) {
  VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
  VkPhysicalDeviceMemoryProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
  if (has_budget) props.pNext = &budget;  // valid only where the extension is listed
  vkGetPhysicalDeviceMemoryProperties2(device, &props);  // returns nothing: no VkResult to check
  std::vector<MemoryHeapInfo> heaps;
  for (std::uint32_t h = 0; h < props.memoryProperties.memoryHeapCount; ++h) {
    MemoryHeapInfo info;
    info.size_bytes = static_cast<double>(props.memoryProperties.memoryHeaps[h].size);
    info.flags = props.memoryProperties.memoryHeaps[h].flags;
    if (has_budget) {
      info.budget_bytes = static_cast<double>(budget.heapBudget[h]);
      info.usage_bytes = static_cast<double>(budget.heapUsage[h]);
    }
    heaps.push_back(info);
  }
  return heaps;
}

std::string heap_reading_source(bool from_budget, const DeviceProperties& p) {
  const int heap = hold_heap(p);
  std::string which = "the device-local heaps";
  if (heap >= 0) {
    const bool device_local = p.heaps[static_cast<std::size_t>(heap)].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
    which = "heap " + std::to_string(heap) + (device_local ? " (device-local)" : " (shared with the host)") +
            ", the one the held memory comes from";
  }
  return from_budget ? "VK_EXT_memory_budget: " + which + ": budget less usage, read after each step"
                     : "no VK_EXT_memory_budget: " + which + ": size less what gpulab holds (other programs' use of "
                       "the heap is not seen)";
}

}  // namespace gpulab::vk

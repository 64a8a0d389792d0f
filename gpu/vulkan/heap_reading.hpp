#pragma once
// What the memory page's hold reads on a Vulkan device after each step: the size of the heap its memory comes from
// and what is still free in it. With VK_EXT_memory_budget that is the driver's budget less its usage (other programs'
// allocations included); without it, only the heap's size less what this process holds is known, and the reading
// says so. The pure part is a function of the heaps alone, so it is tested on real devices' property sets.
#include "device_properties.hpp"

#include <string>
#include <vector>

namespace gpulab::vk {

struct HeapReading {
  double total_bytes = 0;  // the device-local heaps' sizes
  double free_bytes = 0;   // budget − usage (from_budget), else size − held_here
  bool from_budget = false;
};

// The heap the hold's device buffers come from: the heap of the type choose_memory_type() gives device use. On a
// discrete card that is its VRAM heap (not a 256 MiB resizable-BAR window, also device-local); on an APU whose
// driver calls only a 512 MiB carve-out device-local, the large shared heap the work really goes on. -1: none.
int hold_heap(const DeviceProperties& p);
// The reading of that heap alone (`heap` < 0 or out of range: every device-local heap, summed). from_budget when
// the heaps read report a budget (one without would make the sum half guessed); `held_here` is what this process
// holds through the hold (used without a budget).
HeapReading heap_reading(const std::vector<MemoryHeapInfo>& heaps, double held_here, int heap);
// The heaps as the driver reports them now (budget and usage re-read where VK_EXT_memory_budget is offered).
std::vector<MemoryHeapInfo> read_heaps_now(VkPhysicalDevice device, bool has_budget);
// In words, for the results' provenance.
std::string heap_reading_source(bool from_budget, const DeviceProperties& p);

}  // namespace gpulab::vk

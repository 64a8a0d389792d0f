#pragma once
// The seam between the Vulkan driver and the backend's choices: everything the backend decides from (memory types
// and heaps with their budget, limits, queue families, extensions, device type) read once into a plain struct.
// read_device_properties() is the only code that asks the driver; device_choices.hpp and chain_layout.hpp decide
// from the struct alone, so tests feed them property sets copied from real devices' vulkaninfo reports
// (tests/vulkan/real_device_properties.hpp) as well as the device here.
#include "vk_check.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::vk {

struct MemoryTypeInfo {
  VkMemoryPropertyFlags flags = 0;
  std::uint32_t heap = 0;
};

struct MemoryHeapInfo {
  double size_bytes = 0;
  VkMemoryHeapFlags flags = 0;
  double budget_bytes = -1;  // VK_EXT_memory_budget's heapBudget; -1 when the driver does not report it
  double usage_bytes = 0;    // heapUsage: what this process already holds
};

struct QueueFamilyInfo {
  VkQueueFlags flags = 0;
  std::uint32_t count = 0;
  std::uint32_t timestamp_valid_bits = 0;
};

struct DeviceProperties {
  std::string name;
  std::uint32_t vendor_id = 0;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::uint32_t api_version = 0;
  std::vector<MemoryTypeInfo> memory_types;
  std::vector<MemoryHeapInfo> heaps;
  std::vector<QueueFamilyInfo> queue_families;
  std::vector<std::string> extensions;  // device extensions the driver lists
  // Limits.
  double max_storage_buffer_range = 0;     // bytes one storage-buffer binding may cover
  double max_memory_allocation_size = 0;   // bytes one vkAllocateMemory may ask for (maintenance3)
  std::uint32_t max_compute_shared_bytes = 0, max_compute_invocations = 0, subgroup_size = 0;
  std::uint32_t max_workgroup_count[3] = {0, 0, 0};
  double timestamp_period_ns = 0;
  bool fp16 = false;  // shaderFloat16 and storageBuffer16BitAccess both offered

  bool has_extension(const std::string& name) const;
  bool is_cpu() const { return type == VK_PHYSICAL_DEVICE_TYPE_CPU; }
  bool is_integrated() const { return type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU; }
  double device_local_bytes() const;  // the sizes of the device-local heaps
};

// Reads the struct from the driver (Vulkan 1.1 entry points; 1.2 structures only where the device is 1.2+).
DeviceProperties read_device_properties(VkPhysicalDevice device);

}  // namespace gpulab::vk

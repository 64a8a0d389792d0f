// Reads a physical device's properties into the plain struct the backend decides from (device_properties.hpp).
#include "device_properties.hpp"

#include <algorithm>

namespace gpulab::vk {

bool DeviceProperties::has_extension(const std::string& name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

double DeviceProperties::device_local_bytes() const {
  double total = 0;
  for (const auto& h : heaps)
    if (h.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) total += h.size_bytes;
  return total;
}

DeviceProperties read_device_properties(VkPhysicalDevice pd) {
  DeviceProperties p;
  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(pd, &base);
  p.name = base.deviceName;
  p.vendor_id = base.vendorID;
  p.type = base.deviceType;
  p.api_version = base.apiVersion;
  p.max_storage_buffer_range = base.limits.maxStorageBufferRange;
  p.max_compute_shared_bytes = base.limits.maxComputeSharedMemorySize;
  p.max_compute_invocations = base.limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) p.max_workgroup_count[i] = base.limits.maxComputeWorkGroupCount[i];
  p.timestamp_period_ns = base.limits.timestampPeriod;

  std::uint32_t n = 0;
  GPULAB_VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr));
  std::vector<VkExtensionProperties> exts(n);
  if (n) GPULAB_VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data()));
  for (std::uint32_t i = 0; i < n; ++i) p.extensions.emplace_back(exts[i].extensionName);

  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maint3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  subgroup.pNext = &maint3;
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(pd, &props2);
  p.subgroup_size = subgroup.subgroupSize;
  p.max_memory_allocation_size = static_cast<double>(maint3.maxMemoryAllocationSize);

  if (base.apiVersion >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceShaderFloat16Int8Features f16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
    VkPhysicalDevice16BitStorageFeatures s16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    f16.pNext = &s16;
    VkPhysicalDeviceFeatures2 feats{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    feats.pNext = &f16;
    vkGetPhysicalDeviceFeatures2(pd, &feats);
    p.fp16 = f16.shaderFloat16 && s16.storageBuffer16BitAccess;
  }

  std::uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, nullptr);
  std::vector<VkQueueFamilyProperties> q(families);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, q.data());
  for (const auto& f : q) p.queue_families.push_back({f.queueFlags, f.queueCount, f.timestampValidBits});

  // The budget is physical-device-level functionality of VK_EXT_memory_budget: valid to query where it is listed.
  VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
  VkPhysicalDeviceMemoryProperties2 mem2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
  const bool has_budget = p.has_extension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  if (has_budget) mem2.pNext = &budget;
  vkGetPhysicalDeviceMemoryProperties2(pd, &mem2);
  const VkPhysicalDeviceMemoryProperties& mem = mem2.memoryProperties;
  for (std::uint32_t t = 0; t < mem.memoryTypeCount; ++t)
    p.memory_types.push_back({mem.memoryTypes[t].propertyFlags, mem.memoryTypes[t].heapIndex});
  for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h) {
    MemoryHeapInfo heap;
    heap.size_bytes = static_cast<double>(mem.memoryHeaps[h].size);
    heap.flags = mem.memoryHeaps[h].flags;
    if (has_budget) {
      heap.budget_bytes = static_cast<double>(budget.heapBudget[h]);
      heap.usage_bytes = static_cast<double>(budget.heapUsage[h]);
    }
    p.heaps.push_back(heap);
  }
  return p;
}

}  // namespace gpulab::vk

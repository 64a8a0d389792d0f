#pragma once
// Move-only owners for every Vulkan object the backend makes. One template covers the objects a VkDevice
// destroys (buffers, memory, pipelines, pools, fences, query pools); the instance and the device have their own.
#include "vk_check.hpp"

#include <utility>

namespace gpulab::vk {

template <typename Handle, void (*Destroy)(VkDevice, Handle, const VkAllocationCallbacks*)>
class DeviceObject {
 public:
  DeviceObject() = default;
  DeviceObject(VkDevice device, Handle handle) : m_device(device), m_handle(handle) {}
  DeviceObject(DeviceObject&& o) noexcept
      : m_device(std::exchange(o.m_device, VK_NULL_HANDLE)), m_handle(std::exchange(o.m_handle, VK_NULL_HANDLE)) {}
  DeviceObject& operator=(DeviceObject&& o) noexcept {
    if (this != &o) {
      reset();
      m_device = std::exchange(o.m_device, VK_NULL_HANDLE);
      m_handle = std::exchange(o.m_handle, VK_NULL_HANDLE);
    }
    return *this;
  }
  DeviceObject(const DeviceObject&) = delete;
  DeviceObject& operator=(const DeviceObject&) = delete;
  ~DeviceObject() { reset(); }

  Handle get() const { return m_handle; }
  explicit operator bool() const { return m_handle != VK_NULL_HANDLE; }
  void reset() {
    if (m_handle != VK_NULL_HANDLE) Destroy(m_device, m_handle, nullptr);
    m_handle = VK_NULL_HANDLE;
  }

 private:
  VkDevice m_device = VK_NULL_HANDLE;
  Handle m_handle = VK_NULL_HANDLE;
};

// vkFreeMemory has the destroy shape too.
using BufferHandle = DeviceObject<VkBuffer, vkDestroyBuffer>;
using MemoryHandle = DeviceObject<VkDeviceMemory, vkFreeMemory>;
using ShaderModule = DeviceObject<VkShaderModule, vkDestroyShaderModule>;
using DescriptorSetLayout = DeviceObject<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using PipelineLayout = DeviceObject<VkPipelineLayout, vkDestroyPipelineLayout>;
using Pipeline = DeviceObject<VkPipeline, vkDestroyPipeline>;
using DescriptorPool = DeviceObject<VkDescriptorPool, vkDestroyDescriptorPool>;  // frees its sets with it
using CommandPool = DeviceObject<VkCommandPool, vkDestroyCommandPool>;          // frees its buffers with it
using Fence = DeviceObject<VkFence, vkDestroyFence>;
using QueryPool = DeviceObject<VkQueryPool, vkDestroyQueryPool>;

}  // namespace gpulab::vk

#pragma once
// Every Vulkan call goes through GPULAB_VK_CHECK: a failure throws gpulab::vk::VkError naming the call, the
// VkResult and where it happened. Destructors use the non-throwing variant (vkDestroy* return nothing, so only the
// rare vkDeviceWaitIdle needs it). No exit() in library code: the backend turns errors into reasons.
#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

namespace gpulab::vk {

// The VkResult's name as the specification spells it ("VK_ERROR_OUT_OF_DEVICE_MEMORY").
const char* result_name(VkResult r);

class VkError : public std::runtime_error {
 public:
  VkError(VkResult result, const std::string& what) : std::runtime_error(what), m_result(result) {}
  VkResult result() const { return m_result; }

 private:
  VkResult m_result;
};

[[noreturn]] void throw_vk_error(VkResult r, const char* call, const char* file, int line);

}  // namespace gpulab::vk

#define GPULAB_VK_CHECK(call)                                                          \
  do {                                                                                 \
    const VkResult gpulab_vk_result_ = (call);                                         \
    if (gpulab_vk_result_ != VK_SUCCESS)                                               \
      ::gpulab::vk::throw_vk_error(gpulab_vk_result_, #call, __FILE__, __LINE__);      \
  } while (0)

// For destructors: never throws; a failure there has nowhere to go but is not silently different from success.
#define GPULAB_VK_CHECK_NOTHROW(call) static_cast<void>(call)

#pragma once
// The Vulkan instance, the list of devices it sees (with the facts a student and the provenance need), and the
// validation layer's error count when tests ask for the layer.
#include "device_properties.hpp"
#include "vk_check.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpulab::vk {

struct InstanceOptions {
  bool validation = false;  // enable VK_LAYER_KHRONOS_validation + a debug messenger that counts its errors
};

class Instance {
 public:
  explicit Instance(const InstanceOptions& options = {});
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance get() const { return m_instance; }
  bool validation_on() const { return m_messenger != VK_NULL_HANDLE; }
  // Errors reported by the validation layer so far (loader and performance messages are not counted).
  long validation_errors() const { return m_counts->errors.load(); }
  std::string last_validation_error() const;

  struct Counts {
    std::atomic<long> errors{0};
    std::atomic<long> warnings{0};
    std::string last;  // written under the layer's callback; read only for messages
  };

 private:
  VkInstance m_instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
  std::unique_ptr<Counts> m_counts = std::make_unique<Counts>();
};

// What a physical device is, in the words the app shows.
struct DeviceFacts {
  int index = 0;
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  std::string name;
  std::string vendor;          // "Intel", "AMD", "NVIDIA", "Apple", "Mesa" (for llvmpipe), or the PCI id
  std::string type;            // "integrated GPU", "discrete GPU", "virtual GPU", "CPU", "other"
  bool is_cpu = false;         // VK_PHYSICAL_DEVICE_TYPE_CPU: llvmpipe/lavapipe, SwiftShader
  std::string api_version;     // "1.3.230"
  std::string driver;          // driver name and info ("llvmpipe: Mesa 22.3.6 (LLVM 15.0.6)")
  std::uint32_t api_raw = 0;
  int compute_queue_family = -1;
  std::uint32_t timestamp_valid_bits = 0;
  double timestamp_period_ns = 0;
  bool fp16 = false;           // shaderFloat16 and storageBuffer16BitAccess both offered
  bool shared_memory = false;  // integrated/CPU: the "device" memory is the computer's own RAM
  double device_local_bytes = 0;
  std::uint32_t max_shared_bytes = 0, max_invocations = 0, subgroup_size = 0;
  std::uint32_t max_storage_buffer_range = 0;
  double max_allocation_bytes = 0;
  bool memory_budget = false;  // VK_EXT_memory_budget offered: free memory can be read (Device::memory_budget)
  DeviceProperties props;      // everything the backend's choices are made from (device_choices.hpp)
  // The line a list shows: "Intel(R) UHD Graphics 620 — integrated GPU" or
  // "Vulkan on the CPU (llvmpipe) — not a GPU".
  std::string label() const;
};

std::vector<DeviceFacts> list_devices(const Instance& instance);
// The facts as the app shows them, from the properties alone (no driver call: tests use real devices' sets). The
// compute queue family is choose_compute_queue_family's; the driver's name is left empty.
DeviceFacts facts_from_properties(const DeviceProperties& p);

// Which device to use: `requested` >= 0 picks that index (a CPU-type one only with allow_cpu); otherwise the first
// discrete GPU, then integrated, then any other GPU, and a CPU-type device only when allow_cpu. Returns -1 and a
// reason when nothing fits.
int choose_device(const std::vector<DeviceFacts>& devices, int requested, bool allow_cpu, std::string& why);

}  // namespace gpulab::vk

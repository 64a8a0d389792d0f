#pragma once
// Makes the Vulkan backend: opens an instance, lists the devices, chooses one (a CPU-type device only when allowed)
// and wraps it as a gpulab::Backend. Used by the module's entry point and, directly, by the tests.
#include "gpulab/backend.hpp"
#include "vk_instance.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gpulab::vk {

struct BackendOptions {
  int device = -1;          // -1: the first GPU (discrete, then integrated)
  bool allow_cpu = false;   // allow a CPU-type device (lavapipe): tests and recordings made without a GPU
  bool validation = false;  // the validation layer on, its errors counted (tests)
};

struct Created {
  std::unique_ptr<Backend> backend;  // null when unavailable
  std::string reason;                // why, starting "Vulkan: "
  std::vector<DeviceFacts> devices;  // every device the driver(s) showed
  std::shared_ptr<Instance> instance;
};

Created create_backend(const BackendOptions& options);
// Lists the devices without choosing one; `reason` is set when there is no instance (no driver).
Created list_only(const BackendOptions& options);

// Why vkCreateInstance failed, in plain words.
std::string explain_instance_failure(const std::string& what, VkResult r);

}  // namespace gpulab::vk

#include "models/device_label.h"

namespace device_label {

Kind kindOf(const gpulab::DeviceInfo& info) {
  if (info.kind == "cuda") return Kind::cudaGpu;
  if (info.kind != "vulkan") return Kind::cpu;
  // The Vulkan backend's details say "CPU (…: not a GPU)" for a CPU-type device (vulkan_backend.cpp).
  for (const auto& [key, value] : info.details)
    if (key == "device type" && value.rfind("CPU", 0) == 0) return Kind::vulkanCpu;
  return Kind::vulkanGpu;
}

}  // namespace device_label

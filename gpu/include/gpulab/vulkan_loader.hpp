#pragma once
// Loads the Vulkan backend module (libgpulab_vulkan.so) at run time with dlopen, like the CUDA module
// (cuda_loader.hpp). The module links libvulkan.so.1; the programs that load it do not, so a machine without the
// Vulkan loader or without a driver runs everything else and shows why Vulkan is missing.
#include "gpulab/backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gpulab {

struct VulkanOptions {
  int device = -1;         // -1: the first GPU (discrete, then integrated); GPULAB_VULKAN_DEVICE=N
  bool allow_cpu = false;  // use a CPU-type device (lavapipe) when there is no GPU; GPULAB_VULKAN_ALLOW_CPU=1
  static VulkanOptions from_env();
};

// One device the Vulkan drivers show, chosen or not.
struct VulkanDeviceEntry {
  int index = 0;
  std::string label;  // "Intel(R) UHD Graphics 620 — integrated GPU", "Vulkan on the CPU (llvmpipe) — not a GPU"
  std::string name, vendor, type, api_version, driver;
  bool is_cpu = false;
};

struct VulkanLoadResult {
  std::unique_ptr<Backend> backend;     // null when unavailable
  std::string reason;                   // why unavailable, starting "Vulkan: "; empty when loaded
  std::string module_path;              // the file tried (or loaded)
  std::vector<std::string> searched;    // every path considered
  std::vector<VulkanDeviceEntry> devices;  // every device seen (empty without a driver)
};

// Search order: $GPULAB_VULKAN_MODULE; then the places the CUDA module is looked for.
VulkanLoadResult load_vulkan_backend(const VulkanOptions& options = VulkanOptions::from_env());
VulkanLoadResult load_vulkan_backend_from(const std::string& path, const VulkanOptions& options);

}  // namespace gpulab

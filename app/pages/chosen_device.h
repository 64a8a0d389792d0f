#pragma once
// How a page names the device in the GPU slot (CUDA or Vulkan): through device_words (gpulab/device_words.hpp),
// so a CPU-type Vulkan device is "Vulkan on the CPU (llvmpipe) — not a GPU" and never "the GPU".
#include "app_context.h"
#include "models/device_words.h"

#include <QString>

namespace chosen_device {

// The class of the chosen GPU slot's device; DeviceClass::cpu when the slot is empty.
inline gpulab::DeviceClass kind(AppContext& ctx) {
  return ctx.gpuInfo() ? gpulab::device_words(*ctx.gpuInfo()).device_class : gpulab::DeviceClass::cpu;
}
// "GPU (NVIDIA H200)", "Vulkan GPU (Intel Iris Xe)", "Vulkan on the CPU (llvmpipe) — not a GPU".
inline QString name(AppContext& ctx) {
  return ctx.gpuInfo() ? QString::fromStdString(gpulab::device_words(*ctx.gpuInfo()).label) : QString();
}
inline bool isVulkan(AppContext& ctx) {
  const gpulab::DeviceClass k = kind(ctx);
  return k == gpulab::DeviceClass::vulkan_gpu || k == gpulab::DeviceClass::vulkan_on_cpu ||
         k == gpulab::DeviceClass::vulkan_unknown;
}

}  // namespace chosen_device

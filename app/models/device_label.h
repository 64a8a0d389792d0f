#pragma once
// What kind of device a backend is, for the words a page uses about it: a Vulkan device of CPU type (Mesa's
// llvmpipe/lavapipe) runs on this computer's processor and is never called a GPU.
#include "gpulab/backend.hpp"

namespace device_label {

enum class Kind { cpu, cudaGpu, vulkanGpu, vulkanCpu };
Kind kindOf(const gpulab::DeviceInfo& info);
inline bool isGpu(Kind k) { return k == Kind::cudaGpu || k == Kind::vulkanGpu; }

}  // namespace device_label

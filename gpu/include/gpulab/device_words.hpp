#pragma once
// What ran, in the app's words: the one function every page, the status bar, the device panel and the CLI use to
// name a device, so a CPU-type Vulkan device (Mesa's llvmpipe/lavapipe) or the CUDA emulator is never called a GPU
// anywhere. Read from the backend kind and the device type a result's provenance carries (or a live DeviceInfo).
// In the core so `gpulab bench`/`gpulab devices` say the same words; the pages include models/device_words.h.
// Unit-tested in tests/models/test_device_words.cpp.
#include "gpulab/backend.hpp"
#include "gpulab/results.hpp"

#include <string>

namespace gpulab {

enum class DeviceClass {
  cpu,            // the CPU backend (BLAS, OpenMP)
  cuda_gpu,       // an NVIDIA GPU through the CUDA module
  vulkan_gpu,     // a Vulkan device that is a GPU (integrated, discrete, virtual)
  vulkan_on_cpu,  // a CPU-type Vulkan device: lavapipe/llvmpipe, SwiftShader — not a GPU
  emulator,       // the CUDA emulator (runs kernels on the CPU) — not a GPU
  vulkan_unknown, // a Vulkan result that does not say which device (never called a GPU without knowing)
};

struct DeviceWords {
  DeviceClass device_class = DeviceClass::cpu;
  // Short, for legends and series names: "GPU", "Vulkan GPU", "Vulkan on the CPU", "CPU", "CPU emulator", and
  // "Vulkan" for a Vulkan result that names no device.
  std::string noun;
  // With the device: "GPU (NVIDIA H200)", "Vulkan GPU (Intel Iris Xe)", "Vulkan on the CPU (llvmpipe) — not a GPU",
  // "CPU (AMD EPYC 7R13)", "CPU emulator — not a GPU". Every not-a-GPU label says so.
  std::string label;
  bool is_gpu = false;  // true only when a real GPU did the work
};

// backend: "cpu" | "cuda" | "vulkan" (Result::backend, DeviceInfo::kind); device_type: provenance "device_type"
// ("integrated GPU", "discrete GPU", "CPU (not a GPU)", … — empty when the backend does not write one);
// device_name: provenance "device" / DeviceInfo::name (may be empty).
DeviceWords device_words(const std::string& backend, const std::string& device_type, const std::string& device_name);
// From what a result says about itself: its backend and its provenance (device, device_type).
DeviceWords device_words(const Result& r);
// From a live backend's description (DeviceInfo::details holds the Vulkan device type).
DeviceWords device_words(const DeviceInfo& d);

// A device's model name cut for a legend or a table column, the one rule every page uses: "(R)" and "(TM)" dropped,
// a parenthesised tail dropped ("llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe"), then the first three words
// ("AMD EPYC 7B13 64-Core Processor" -> "AMD EPYC 7B13"). Empty when the name is.
std::string short_device_name(const std::string& name);

}  // namespace gpulab

// The one wording for a device: a CPU-type Vulkan device or the CUDA emulator is never called a GPU, a real GPU is
// named with its backend, and the words come from what a result or a live backend says about itself.
#include "models/device_words.h"

#include <gtest/gtest.h>

using namespace gpulab::models;

namespace {
bool saysGpuWithoutNot(const std::string& s) {
  // "GPU" may appear only inside "not a GPU" for a device that is not one.
  std::string rest = s;
  for (auto at = rest.find("not a GPU"); at != std::string::npos; at = rest.find("not a GPU")) rest.erase(at, 9);
  return rest.find("GPU") != std::string::npos;
}
}  // namespace

TEST(DeviceWords, CudaIsAGpu) {
  const DeviceWords w = device_words("cuda", "", "NVIDIA H200");
  EXPECT_EQ(w.device_class, DeviceClass::cuda_gpu);
  EXPECT_EQ(w.noun, "GPU");
  EXPECT_EQ(w.label, "GPU (NVIDIA H200)");
  EXPECT_TRUE(w.is_gpu);
}

TEST(DeviceWords, VulkanGpuNamesItsDevice) {
  const DeviceWords w = device_words("vulkan", "integrated GPU", "Intel Iris Xe");
  EXPECT_EQ(w.device_class, DeviceClass::vulkan_gpu);
  EXPECT_EQ(w.noun, "Vulkan GPU");
  EXPECT_EQ(w.label, "Vulkan GPU (Intel Iris Xe)");
  EXPECT_TRUE(w.is_gpu);
}

TEST(DeviceWords, LavapipeIsNeverAGpu) {
  // As the module writes it today: label as the device, "CPU (not a GPU)" as the type.
  const DeviceWords w = device_words("vulkan", "CPU (not a GPU)", "Vulkan on the CPU (llvmpipe) — not a GPU");
  EXPECT_EQ(w.device_class, DeviceClass::vulkan_on_cpu);
  EXPECT_EQ(w.noun, "Vulkan on the CPU");
  EXPECT_EQ(w.label, "Vulkan on the CPU (llvmpipe) — not a GPU");
  EXPECT_FALSE(w.is_gpu);
  EXPECT_FALSE(saysGpuWithoutNot(w.noun));
}

TEST(DeviceWords, EitherHalfOfTheProvenanceIsEnoughToSayNotAGpu) {
  // Only the type (a device name without the label), only the raw llvmpipe name, only the label.
  for (const auto& [type, name] : std::vector<std::pair<std::string, std::string>>{
           {"CPU", "SwiftShader Device (Subzero)"},
           {"", "llvmpipe (LLVM 15.0.6, 256 bits)"},
           {"", "Vulkan on the CPU (llvmpipe) — not a GPU"}}) {
    const DeviceWords w = device_words("vulkan", type, name);
    EXPECT_EQ(w.device_class, DeviceClass::vulkan_on_cpu) << type << " / " << name;
    EXPECT_FALSE(w.is_gpu);
    EXPECT_FALSE(saysGpuWithoutNot(w.noun)) << w.noun;
    EXPECT_NE(w.label.find("not a GPU"), std::string::npos) << w.label;
  }
  EXPECT_EQ(device_words("vulkan", "", "llvmpipe (LLVM 15.0.6, 256 bits)").label,
            "Vulkan on the CPU (llvmpipe) — not a GPU");
  EXPECT_EQ(device_words("vulkan", "CPU", "SwiftShader Device (Subzero)").label,
            "Vulkan on the CPU (SwiftShader Device (Subzero)) — not a GPU");
}

TEST(DeviceWords, EmulatorAndCpu) {
  const DeviceWords e = device_words("cuda", "", "CPU emulator (not a GPU)");
  EXPECT_EQ(e.device_class, DeviceClass::emulator);
  EXPECT_FALSE(e.is_gpu);
  EXPECT_NE(e.label.find("not a GPU"), std::string::npos);
  const DeviceWords c = device_words("cpu", "", "AMD EPYC 7R13");
  EXPECT_EQ(c.noun, "CPU");
  EXPECT_EQ(c.label, "CPU (AMD EPYC 7R13)");
  EXPECT_FALSE(c.is_gpu);
  EXPECT_EQ(device_words("cpu", "", "").label, "CPU");
}

TEST(DeviceWords, ReadFromAResultsProvenance) {
  gpulab::Result r;
  r.backend = "vulkan";
  r.provenance["device"] = "Vulkan on the CPU (llvmpipe) — not a GPU";
  r.provenance["device_type"] = "CPU (not a GPU)";
  EXPECT_EQ(device_words(r).device_class, DeviceClass::vulkan_on_cpu);
  r.provenance["device"] = "AMD Radeon 780M";
  r.provenance["device_type"] = "integrated GPU";
  EXPECT_EQ(device_words(r).label, "Vulkan GPU (AMD Radeon 780M)");
}

TEST(DeviceWords, ReadFromALiveBackendsDescription) {
  gpulab::DeviceInfo d;
  d.kind = "vulkan";
  d.name = "Vulkan on the CPU (llvmpipe) — not a GPU";
  d.details = {{"device type", "CPU (Mesa's llvmpipe/lavapipe runs Vulkan on this computer's processor: not a GPU)"}};
  EXPECT_FALSE(device_words(d).is_gpu);
  d.name = "Intel(R) Iris(R) Xe Graphics";
  d.details = {{"device type", "integrated GPU"}};
  EXPECT_EQ(device_words(d).label, "Vulkan GPU (Intel(R) Iris(R) Xe Graphics)");
  EXPECT_TRUE(device_words(d).is_gpu);
}

TEST(DeviceWords, AVulkanResultThatNamesNoDeviceIsNotCalledAGpu) {
  // A note written before any device opened (or by an older gpulab) has no device in its provenance.
  const DeviceWords w = device_words("vulkan", "", "");
  EXPECT_EQ(w.device_class, DeviceClass::vulkan_unknown);
  EXPECT_FALSE(w.is_gpu);
  EXPECT_FALSE(saysGpuWithoutNot(w.noun));
  EXPECT_FALSE(saysGpuWithoutNot(w.label));
}

// One rule for a device's short name on every legend (the batch page and the roofline cut names differently before):
// the model number stays, marketing marks and a driver's parenthesised details go.
TEST(DeviceWords, AShortNameKeepsTheModelNumber) {
  EXPECT_EQ(gpulab::short_device_name("AMD EPYC 7R13 64-Core Processor"), "AMD EPYC 7R13");
  EXPECT_EQ(gpulab::short_device_name("Intel(R) Core(TM) i7-1165G7 @ 2.80GHz"), "Intel Core i7-1165G7");
  EXPECT_EQ(gpulab::short_device_name("NVIDIA GeForce RTX 4090 Laptop GPU"), "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(gpulab::short_device_name("NVIDIA GeForce RTX 4070 Ti SUPER"), "NVIDIA GeForce RTX 4070 Ti");
  EXPECT_EQ(gpulab::short_device_name("AMD Radeon RX 7900 XTX"), "AMD Radeon RX 7900 XTX");
  EXPECT_EQ(gpulab::short_device_name("NVIDIA H200"), "NVIDIA H200");
  EXPECT_EQ(gpulab::short_device_name("llvmpipe (LLVM 15.0.6, 256 bits)"), "llvmpipe");
  EXPECT_EQ(gpulab::short_device_name("Intel(R) Iris(R) Xe Graphics"), "Intel Iris Xe");
  EXPECT_EQ(gpulab::short_device_name(""), "");
}

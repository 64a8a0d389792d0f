// The module through the loader the app and the CLI use: the device list, the CPU-type device refused unless
// allowed (and then named for what it is), a missing module named with the places looked in.
#include "vulkan_test_support.hpp"

#include "gpulab/vulkan_loader.hpp"

#include <cstdlib>
#include <string>

namespace {

const std::string kModule = GPULAB_BIN_DIR "/libgpulab_vulkan.so";

TEST(VulkanLoader, ListsDevicesAndHonoursAllowCpu) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
  gpulab::VulkanOptions strict;
  const gpulab::VulkanLoadResult r = gpulab::load_vulkan_backend_from(kModule, strict);
  if (r.devices.empty()) GTEST_SKIP() << "no Vulkan driver here: " << r.reason;
  bool any_gpu = false;
  for (const auto& d : r.devices) {
    EXPECT_FALSE(d.label.empty());
    EXPECT_FALSE(d.driver.empty());
    EXPECT_FALSE(d.api_version.empty());
    if (d.is_cpu) {
      EXPECT_EQ(d.type, "CPU");
      EXPECT_NE(d.label.find("Vulkan on the CPU"), std::string::npos) << d.label;
      EXPECT_NE(d.label.find("not a GPU"), std::string::npos) << d.label;
    } else {
      any_gpu = true;
      EXPECT_EQ(d.label.find("not a GPU"), std::string::npos) << d.label;
    }
  }
  if (any_gpu) {
    ASSERT_TRUE(r.backend) << r.reason;  // a GPU is chosen by default
    EXPECT_EQ(r.backend->device_info().name.find("not a GPU"), std::string::npos);
  } else {
    // Only CPU-type devices: not used unless asked, and the reason says how to ask.
    EXPECT_FALSE(r.backend);
    EXPECT_NE(r.reason.find("not a GPU"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("GPULAB_VULKAN_ALLOW_CPU"), std::string::npos) << r.reason;
    gpulab::VulkanOptions allow;
    allow.allow_cpu = true;
    const gpulab::VulkanLoadResult a = gpulab::load_vulkan_backend_from(kModule, allow);
    ASSERT_TRUE(a.backend) << a.reason;
    EXPECT_EQ(a.backend->kind(), "vulkan");
    EXPECT_NE(a.backend->device_info().name.find("not a GPU"), std::string::npos) << a.backend->device_info().name;
  }
}

TEST(VulkanLoader, AMissingModuleIsAReason) {
  ::setenv("GPULAB_VULKAN_MODULE", "/nonexistent/libgpulab_vulkan.so", 1);
  const gpulab::VulkanLoadResult r = gpulab::load_vulkan_backend();
  ::unsetenv("GPULAB_VULKAN_MODULE");
  EXPECT_FALSE(r.backend);
  EXPECT_EQ(r.reason, "Vulkan: the module was not found at /nonexistent/libgpulab_vulkan.so");
}

TEST(VulkanLoader, AnOutOfRangeDeviceIsRefused) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
  gpulab::VulkanOptions o;
  o.device = 99;
  o.allow_cpu = true;
  const gpulab::VulkanLoadResult r = gpulab::load_vulkan_backend_from(kModule, o);
  if (r.devices.empty()) GTEST_SKIP() << r.reason;
  EXPECT_FALSE(r.backend);
  EXPECT_NE(r.reason.find("no device 99"), std::string::npos) << r.reason;
}

}  // namespace

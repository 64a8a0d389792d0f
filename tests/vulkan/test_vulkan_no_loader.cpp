// No Vulkan loader (libvulkan.so.1 not installed): the module is not opened, the reason says what to install, and
// the CPU backend carries on. The real libvulkan.so.1 cannot be hidden from the dynamic linker on a machine that
// has it, so GPULAB_VULKAN_LOADER_LIB names a file that does not exist in its place (vulkan_loader.cpp).
#include "vulkan_test_support.hpp"

#include "gpulab/backend.hpp"
#include "gpulab/vulkan_loader.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

TEST(VulkanNoLoader, TheReasonNamesTheMissingLoaderAndTheCpuCarriesOn) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
  ::setenv("GPULAB_VULKAN_MODULE", GPULAB_BIN_DIR "/libgpulab_vulkan.so", 1);
  ::setenv("GPULAB_VULKAN_LOADER_LIB", "libvulkan-gpulab-test-missing.so.1", 1);
  gpulab::VulkanOptions options;
  options.allow_cpu = true;
  const gpulab::VulkanLoadResult r = gpulab::load_vulkan_backend(options);
  ::unsetenv("GPULAB_VULKAN_LOADER_LIB");
  EXPECT_FALSE(r.backend);
  EXPECT_TRUE(r.devices.empty());
  EXPECT_EQ(r.reason.rfind("Vulkan: the Vulkan loader (libvulkan-gpulab-test-missing.so.1) is not installed", 0), 0u)
      << r.reason;
  EXPECT_NE(r.reason.find("libvulkan1"), std::string::npos) << r.reason;  // what to install
  auto cpu = gpulab::make_cpu_backend();
  gpulab::GemmSpec spec;
  spec.m = spec.n = spec.k = 32;
  spec.variant = "naive";
  EXPECT_TRUE(cpu->make_gemm(spec)->verify().passed);
}

TEST(VulkanNoLoader, GpulabDevicesSaysSoAndSucceeds) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
  if (::access(GPULAB_BIN_DIR "/gpulab", X_OK) != 0) GTEST_SKIP() << "no gpulab binary in this build (GPULAB_APP off)";
  const std::string cmd = "GPULAB_VULKAN_LOADER_LIB=libvulkan-gpulab-test-missing.so.1 " GPULAB_BIN_DIR
                          "/gpulab devices 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = ::pclose(p);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("the Vulkan loader (libvulkan-gpulab-test-missing.so.1) is not installed"), std::string::npos)
      << out;
}

TEST(VulkanNoLoader, WithoutTheOverrideTheRealLoaderIsUsed) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
  ::unsetenv("GPULAB_VULKAN_LOADER_LIB");
  ::setenv("GPULAB_VULKAN_MODULE", GPULAB_BIN_DIR "/libgpulab_vulkan.so", 1);
  gpulab::VulkanOptions options;
  options.allow_cpu = true;
  const gpulab::VulkanLoadResult r = gpulab::load_vulkan_backend(options);
  EXPECT_EQ(r.reason.find("is not installed"), std::string::npos) << r.reason;
}

}  // namespace

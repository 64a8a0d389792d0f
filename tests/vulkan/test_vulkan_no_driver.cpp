// No Vulkan driver: VK_DRIVER_FILES points at a file that does not exist, so the loader finds no driver. The backend
// must say so in plain words, through the module and the loader the app uses, and the CPU backend carries on.
#include "vulkan_test_support.hpp"

#include "gpulab/backend.hpp"
#include "gpulab/vulkan_loader.hpp"

#include <cstdlib>
#include <string>

#if GPULAB_TEST_HAVE_VULKAN
#include "vulkan_backend.hpp"
#endif

namespace {

// Before any Vulkan call in this process: the loader reads the variables when an instance is created.
void hide_every_driver() {
  ::setenv("VK_DRIVER_FILES", "/nonexistent/gpulab-no-driver.json", 1);
  ::setenv("VK_ICD_FILENAMES", "/nonexistent/gpulab-no-driver.json", 1);  // the older name, for older loaders
}

TEST(VulkanNoDriver, TheBackendSaysNoDriverFound) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
#if GPULAB_TEST_HAVE_VULKAN
  hide_every_driver();
  gpulab::vk::BackendOptions options;
  options.allow_cpu = true;
  const gpulab::vk::Created c = gpulab::vk::create_backend(options);
  EXPECT_FALSE(c.backend);
  EXPECT_TRUE(c.devices.empty());
  EXPECT_EQ(c.reason.rfind("Vulkan: no driver found", 0), 0u) << c.reason;
#endif
}

TEST(VulkanNoDriver, TheLoaderGivesTheReasonAndTheCpuCarriesOn) {
  GPULAB_SKIP_WITHOUT_VULKAN_BUILD();
  hide_every_driver();
  ::setenv("GPULAB_VULKAN_MODULE", GPULAB_BIN_DIR "/libgpulab_vulkan.so", 1);
  gpulab::VulkanOptions options;
  options.allow_cpu = true;
  const gpulab::VulkanLoadResult r = gpulab::load_vulkan_backend(options);
  EXPECT_FALSE(r.backend);
  EXPECT_TRUE(r.devices.empty());
  EXPECT_EQ(r.reason.rfind("Vulkan: no driver found", 0), 0u) << r.reason;
  auto cpu = gpulab::make_cpu_backend();
  gpulab::GemmSpec spec;
  spec.m = spec.n = spec.k = 32;
  spec.variant = "naive";
  EXPECT_TRUE(cpu->make_gemm(spec)->verify().passed);
}

}  // namespace

#pragma once
// The Vulkan tests use the backend's code directly (gpu/vulkan, linked in) so they can switch the validation layer on
// and count its errors. Built without Vulkan, every test skips with the reason.
#include <gtest/gtest.h>

#define GPULAB_SKIP_WITHOUT_VULKAN_BUILD()                                                                    \
  do {                                                                                                        \
    if (!GPULAB_TEST_HAVE_VULKAN)                                                                             \
      GTEST_SKIP() << "this build has no Vulkan module (libvulkan-dev and glslc were not found at configure " \
                      "time; tools/install-deps installs them)";                                            \
  } while (0)

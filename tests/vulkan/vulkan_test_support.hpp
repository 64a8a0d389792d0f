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

#if GPULAB_TEST_HAVE_VULKAN
#include "vulkan_backend.hpp"

// One Vulkan backend per test program (lavapipe allowed on purpose, validation layer on), made once for the suite;
// each test skips when there is no device and must add no validation error (loader messages are not counted: see
// vk_instance.cpp). A suite derives from it and adds its own helpers.
class VulkanBackendTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    gpulab::vk::BackendOptions options;
    options.allow_cpu = true;
    options.validation = true;
    s_created = new gpulab::vk::Created(gpulab::vk::create_backend(options));
  }
  static void TearDownTestSuite() {
    delete s_created;
    s_created = nullptr;
  }
  void SetUp() override {
    if (!s_created->backend) GTEST_SKIP() << "no Vulkan device here: " << s_created->reason;
    m_errors_before = s_created->instance->validation_errors();
  }
  void TearDown() override {
    if (!s_created->backend) return;
    EXPECT_EQ(s_created->instance->validation_errors(), m_errors_before)
        << "the validation layer reported errors; the last: " << s_created->instance->last_validation_error();
  }
  gpulab::Backend& backend() { return *s_created->backend; }

  inline static gpulab::vk::Created* s_created = nullptr;
  long m_errors_before = 0;
};
#endif

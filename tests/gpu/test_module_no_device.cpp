// The factory contract on any machine: with no driver it returns null and says so; with a device it returns a
// working backend. Exactly one of the two must hold, so the test cannot pass by doing nothing.
#include "gpu/load_module.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

TEST(CudaModule, FactoryReturnsBackendOrReason) {
  if (!gpulab_test::module_built()) GTEST_SKIP() << "the CUDA module was not built (no nvcc): " << gpulab_test::module_path();
  gpulab_test::Module mod;
  ASSERT_TRUE(mod.factory) << mod.error;

  std::string why;
  auto backend = mod.create(why);
  if (backend) {
    EXPECT_TRUE(why.empty()) << why;
    EXPECT_EQ(backend->kind(), "cuda");
    const auto info = backend->device_info();
    EXPECT_FALSE(info.name.empty());
    EXPECT_GT(info.compute_units, 0);
  } else {
    ASSERT_FALSE(why.empty()) << "null backend without a reason";
    const std::string w = lower(why);
    if (!gpulab_test::libcuda_loadable()) {
      // No libcuda.so.1 at all: the reason must name the driver (cudaGetDeviceCount returned 35).
      EXPECT_NE(w.find("driver not found"), std::string::npos) << why;
    } else {
      // A stub or a driver without a GPU: the reason names one or the other.
      EXPECT_TRUE(w.find("driver") != std::string::npos || w.find("gpu") != std::string::npos ||
                  w.find("device") != std::string::npos)
          << why;
    }
  }
}

TEST(CudaModule, RefusesAnotherApiVersion) {
  if (!gpulab_test::module_built()) GTEST_SKIP() << "the CUDA module was not built (no nvcc)";
  gpulab_test::Module mod;
  ASSERT_TRUE(mod.factory) << mod.error;
  std::string why;
  auto backend = mod.create(why, GPULAB_MODULE_API_VERSION + 100);
  EXPECT_EQ(backend, nullptr);
  EXPECT_NE(lower(why).find("version"), std::string::npos) << why;
}

TEST(CudaModule, SurvivesTinyReasonBuffer) {
  if (!gpulab_test::module_built()) GTEST_SKIP() << "the CUDA module was not built (no nvcc)";
  gpulab_test::Module mod;
  ASSERT_TRUE(mod.factory) << mod.error;
  char buf[4] = {'x', 'x', 'x', 'x'};
  gpulab::Backend* b = mod.factory(GPULAB_MODULE_API_VERSION + 100, buf, sizeof buf);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(buf[3], '\0');  // truncated, still terminated
  EXPECT_EQ(mod.factory(GPULAB_MODULE_API_VERSION + 100, nullptr, 0), nullptr);  // no buffer at all: no crash
}

}  // namespace

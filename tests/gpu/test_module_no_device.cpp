// The factory contract on any machine: with no driver it returns null and says so; with a device it returns a
// working backend. Exactly one of the two must hold, so the test cannot pass by doing nothing.
#include "gpu/load_module.hpp"
#include "gpulab/cuda_loader.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>

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

// The exact reasons the device panel shows ("GPU: not available / reason: ..."), `gpulab devices` prints and the
// badges shorten to "CUDA driver not found": what module_entry.cpp writes for cudaGetDeviceCount's 35 and 34,
// passed through the loader unchanged.
constexpr const char* kNoDriverReason = "CUDA driver not found (no NVIDIA driver is installed on this machine)";
constexpr const char* kStubReason =
    "CUDA driver not found (only the toolkit's stub libcuda.so is present, no real NVIDIA driver)";

// Without any libcuda.so.1 cudaGetDeviceCount returns cudaErrorInsufficientDriver (35) with driver version 0.
TEST(CudaLoader, ReasonWithoutDriverIsExact) {
  if (!gpulab_test::module_built()) GTEST_SKIP() << "the CUDA module was not built (no nvcc)";
  if (std::getenv("GPULAB_TEST_STUB_CHILD")) GTEST_SKIP() << "the stub child checks the stub case only";
  if (gpulab_test::libcuda_loadable()) GTEST_SKIP() << "a libcuda.so.1 is loadable here (driver or stub)";
  const gpulab::CudaLoadResult r = gpulab::load_cuda_backend_from(gpulab_test::module_path());
  EXPECT_EQ(r.backend, nullptr);
  EXPECT_EQ(r.reason, kNoDriverReason);
}

// Only the toolkit's stub libcuda: cudaErrorStubLibrary (34). Staged by running this test again in a child process
// whose library path holds the stub as libcuda.so.1 (the path is read once, at process start).
TEST(CudaLoader, ReasonWithOnlyTheStubIsExact) {
  if (!gpulab_test::module_built()) GTEST_SKIP() << "the CUDA module was not built (no nvcc)";
  if (std::getenv("GPULAB_TEST_STUB_CHILD")) {
    const gpulab::CudaLoadResult r = gpulab::load_cuda_backend_from(gpulab_test::module_path());
    EXPECT_EQ(r.backend, nullptr);
    EXPECT_EQ(r.reason, kStubReason);
    return;
  }
  if (gpulab_test::libcuda_loadable()) GTEST_SKIP() << "a libcuda.so.1 is loadable here: the stub case cannot be staged";
  namespace fs = std::filesystem;
  fs::path stub;
  const char* roots[] = {std::getenv("CUDA_PATH"), std::getenv("CUDA_HOME"), "/usr/local/cuda"};
  for (const char* root : roots) {
    if (!root || !*root) continue;
    for (const char* sub : {"lib64/stubs/libcuda.so", "targets/x86_64-linux/lib/stubs/libcuda.so",
                            "targets/sbsa-linux/lib/stubs/libcuda.so"})
      if (fs::exists(fs::path(root) / sub)) {
        stub = fs::path(root) / sub;
        break;
      }
    if (!stub.empty()) break;
  }
  if (stub.empty()) GTEST_SKIP() << "no CUDA toolkit stub libcuda.so found to stage the case";
  char tmpl[] = "/tmp/gpulab-stub-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const fs::path dir = tmpl;
  fs::create_symlink(stub, dir / "libcuda.so.1");
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("LD_LIBRARY_PATH", dir.c_str(), 1);
    ::setenv("GPULAB_TEST_STUB_CHILD", "1", 1);
    ::execl("/proc/self/exe", "test_module_no_device", "--gtest_filter=CudaLoader.ReasonWithOnlyTheStubIsExact",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  fs::remove_all(dir);
  ASSERT_TRUE(WIFEXITED(status)) << "the stub child crashed";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the stub child's reason differed (its output is above)";
}

}  // namespace

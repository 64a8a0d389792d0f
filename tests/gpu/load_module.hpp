#pragma once
// The GPU tests open the CUDA module themselves with dlopen (not through gpu/loader), so they test exactly the
// file the build produced and the factory contract the loader relies on.
#include "gpulab/module_api.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace gpulab_test {

// GPULAB_TEST_CUDA_MODULE names another module file: tests/CMakeLists.txt runs test_cuda_module a second time with
// it pointing at the emulated build of the whole module (libgpulab_cuda_emulated.so, label emu).
inline std::string module_path() {
  if (const char* p = std::getenv("GPULAB_TEST_CUDA_MODULE"); p && *p) return p;
  return std::string(GPULAB_BIN_DIR) + "/libgpulab_cuda.so";
}
inline bool module_built() {
  struct stat st {};
  return ::stat(module_path().c_str(), &st) == 0;
}

struct Module {
  void* handle = nullptr;
  gpulab_factory_fn factory = nullptr;
  std::string error;  // dlopen/dlsym failure

  Module() {
    handle = ::dlopen(module_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = ::dlerror();
      error = e ? e : "dlopen failed";
      return;
    }
    factory = reinterpret_cast<gpulab_factory_fn>(::dlsym(handle, GPULAB_MODULE_FACTORY));
    if (!factory) error = "the module does not export " GPULAB_MODULE_FACTORY;
  }
  // The module stays loaded for the process: a backend or an exception object may still point into it.
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Returns the backend, or null with `why` set.
  std::unique_ptr<gpulab::Backend> create(std::string& why, int version = GPULAB_MODULE_API_VERSION) const {
    char buf[1024] = "(factory wrote no reason)";
    gpulab::Backend* b = factory(version, buf, sizeof buf);
    why = buf;
    return std::unique_ptr<gpulab::Backend>(b);
  }
};

// True when some libcuda.so.1 (a driver, or a stub someone put on the library path) can be loaded. Only the test
// looks: the module itself never touches the driver API.
inline bool libcuda_loadable() {
  void* h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h) ::dlclose(h);
  return h != nullptr;
}

// A test suite over the module's backend, created once for the suite (loading the module and creating a context is
// slow on a GPU). Tests skip with the reason when the module was not built or the backend cannot be created.
class ModuleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_mod = new Module();
    if (s_mod->factory) s_backend = s_mod->create(s_why).release();
    else s_why = s_mod->error;
  }
  static void TearDownTestSuite() {
    delete s_backend;
    s_backend = nullptr;
    // s_mod is leaked on purpose: the module stays loaded until the process ends.
  }
  void SetUp() override {
    if (!module_built()) GTEST_SKIP() << "the CUDA module was not built (no nvcc)";
    if (!s_backend) GTEST_SKIP() << "no CUDA backend: " << s_why;
  }
  gpulab::Backend& backend() { return *s_backend; }
  // The emulated module names its device so (gpu/cuda_emu/runtime_abi): never a GPU.
  bool emulated() const { return s_backend->device_info().name.find("emulator") != std::string::npos; }

  static inline Module* s_mod = nullptr;
  static inline gpulab::Backend* s_backend = nullptr;
  static inline std::string s_why;
};

}  // namespace gpulab_test

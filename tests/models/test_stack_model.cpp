// The software stack's model: the layers a result went through, CUDA's and Vulkan's paths, and its description.
#include "pages/stack/model/stack_model.h"

#include <gtest/gtest.h>

using namespace stack_model;

namespace {
gpulab::Result result(const char* backend, const char* variant, const char* experiment = "gemm") {
  gpulab::Result r;
  r.experiment = experiment;
  r.backend = backend;
  r.variant = variant;
  r.params = {{"m", 256}, {"n", 128}, {"k", 64}};
  r.check.passed = true;
  return r;
}
}  // namespace

TEST(StackModel, VulkanGoesThroughShadersAndTheDriverWithNoLibrary) {
  const unsigned v = layersFor(result("vulkan", "vectorized"));
  EXPECT_EQ(v, bit(Framework) | bit(Kernels) | bit(Runtime) | bit(Hardware));
  EXPECT_EQ(apiOf(result("vulkan", "naive")), Api::vulkan);
  // The decode chain on Vulkan is own shaders at any batch (no cuBLAS there).
  auto chain = result("vulkan", "gemm_chain", "layer_chain");
  chain.params = {{"batch", 64}};
  EXPECT_FALSE(layersFor(chain) & bit(Library));
}

TEST(StackModel, ACpuTypeVulkanDeviceEndsOnTheCpuCoresNotTheGpu) {
  auto lava = result("vulkan", "vectorized");
  lava.provenance["device_type"] = "CPU (not a GPU)";
  EXPECT_EQ(apiOf(lava), Api::vulkanCpu);
  const unsigned m = layersFor(lava);
  EXPECT_TRUE(m & bit(Kernels));
  EXPECT_TRUE(m & bit(CpuCores));
  EXPECT_FALSE(m & bit(Hardware));
  auto copy = result("vulkan", "h2d", "transfer");
  copy.provenance["device_type"] = "CPU (not a GPU)";
  EXPECT_FALSE(layersFor(copy) & bit(Hardware));
  EXPECT_FALSE(layersFor(copy) & bit(Kernels));
}

TEST(StackModel, CudaLibraryOwnKernelsCopiesAndTheCpu) {
  EXPECT_TRUE(layersFor(result("cuda", "cublaslt")) & bit(Library));
  EXPECT_FALSE(layersFor(result("cuda", "warptile")) & bit(Library));
  EXPECT_FALSE(layersFor(result("cuda", "d2h", "transfer")) & bit(Kernels));
  EXPECT_TRUE(layersFor(result("cuda", "d2d", "transfer")) & bit(Kernels));
  EXPECT_TRUE(layersFor(result("cpu", "blas-direct")) & bit(CpuLibrary));
  EXPECT_TRUE(layersFor(result("cpu", "reordered")) & bit(CpuCode));
  EXPECT_FALSE(layersFor(result("cpu", "h2h", "transfer")) & bit(Runtime));
}

TEST(StackModel, DescriptionNamesTheShapeOrTheExperiment) {
  const Description g = describe(result("cuda", "cublas"));
  EXPECT_TRUE(g.gemm);
  EXPECT_EQ(g.m, 256);
  EXPECT_EQ(g.n, 128);
  EXPECT_EQ(g.k, 64);
  EXPECT_EQ(g.api, Api::cuda);
  const Description h = describe(result("cpu", "held", "hold_memory"));
  EXPECT_FALSE(h.gemm);
  EXPECT_EQ(h.what, "hold memory");
  EXPECT_EQ(h.api, Api::cpu);
}

TEST(StackModel, ExamplesAreTypedAndTakeTheChosenDevicesPath) {
  using gpulab::BackendKind;
  using gpulab::LadderStep;
  const auto cuda = examplesFor(gpulab::DeviceClass::cuda_gpu);
  ASSERT_EQ(cuda.size(), 3u);
  EXPECT_EQ(cuda[0], (Example{BackendKind::cuda, LadderStep::cublas}));
  EXPECT_EQ(cuda[1], (Example{BackendKind::cuda, LadderStep::warptile}));
  EXPECT_EQ(cuda[2], (Example{BackendKind::cpu, std::nullopt}));
  EXPECT_TRUE(layersFor(exampleResult(cuda[0])) & bit(Library));    // cuBLAS: the library layer
  EXPECT_FALSE(layersFor(exampleResult(cuda[1])) & bit(Library));   // gpulab's own kernel skips it
  EXPECT_TRUE(layersFor(exampleResult(cuda[2])) & bit(CpuLibrary));  // the CPU's BLAS
  EXPECT_EQ(describe(exampleResult(cuda[1])).m, 1024);

  const auto lavapipe = examplesFor(gpulab::DeviceClass::vulkan_on_cpu);
  ASSERT_EQ(lavapipe.size(), 3u);
  EXPECT_EQ(lavapipe[0], (Example{BackendKind::vulkan, LadderStep::vectorized, true}));
  EXPECT_EQ(apiOf(exampleResult(lavapipe[0])), Api::vulkanCpu);
  EXPECT_EQ(apiOf(exampleResult(examplesFor(gpulab::DeviceClass::vulkan_gpu)[1])), Api::vulkan);
}

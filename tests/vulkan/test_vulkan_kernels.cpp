// Every Vulkan shader checked against the CPU reference on whatever Vulkan device is here — Mesa's lavapipe on CI,
// a CPU-type device the tests allow on purpose — with the validation layer on and its errors counted: zero allowed.
// Sizes are small: lavapipe runs the shaders on the CPU (about 2 GFLOP/s for the naive step).
#include "vulkan_test_support.hpp"

#if GPULAB_TEST_HAVE_VULKAN
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"
#include "vulkan_backend.hpp"

#include <memory>
#include <stdexcept>
#include <string>

namespace {

using namespace gpulab;

class VulkanKernels : public VulkanBackendTest {};

TEST_F(VulkanKernels, ValidationLayerIsOn) {
  EXPECT_TRUE(s_created->instance->validation_on());
  EXPECT_EQ(backend().provenance().at("validation_layer"), "on");
}

TEST_F(VulkanKernels, DeviceIsDescribedHonestly) {
  const DeviceInfo d = backend().device_info();
  EXPECT_EQ(d.kind, "vulkan");
  EXPECT_EQ(backend().kind(), "vulkan");
  EXPECT_FALSE(d.driver_version.empty());
  EXPECT_EQ(d.runtime_version.rfind("Vulkan 1.", 0), 0u) << d.runtime_version;
  const Provenance p = backend().provenance();
  for (const char* key : {"device", "device_type", "vendor", "driver", "vulkan_api", "timer"})
    EXPECT_FALSE(p.count(key) == 0 || p.at(key).empty()) << key;
  bool is_cpu = false;
  for (const auto& f : s_created->devices)
    if (f.name == d.name || f.label() == d.name) is_cpu = f.is_cpu;
  if (is_cpu) {
    // A CPU-type device is never called a GPU: its name is the label that says so.
    EXPECT_NE(d.name.find("not a GPU"), std::string::npos) << d.name;
    EXPECT_EQ(p.at("device_type"), "CPU (not a GPU)");
  }
}

struct Shape {
  long long m, n, k;
};

void expect_gemm_ok(Backend& b, const std::string& variant, Precision p, Shape s) {
  GemmSpec spec;
  spec.m = s.m;
  spec.n = s.n;
  spec.k = s.k;
  spec.variant = variant;
  spec.precision = p;
  const Support ok = b.supports(spec);
  if (!ok.ok) {
    // FP16 is optional; FP32 must run everywhere.
    ASSERT_EQ(p, Precision::fp16) << variant << ": " << ok.reason;
    return;
  }
  auto op = b.make_gemm(spec);
  const Check c = op->verify();
  EXPECT_TRUE(c.passed) << variant << " " << display_name(p) << " " << s.m << "x" << s.n << "x" << s.k << ": "
                        << c.message;
  EXPECT_EQ(c.checked, s.m * s.n);
  const double t = op->run_once();
  EXPECT_GT(t, 0.0) << "timestamp queries gave no time";
  EXPECT_LT(t, 10.0);
}

TEST_F(VulkanKernels, EveryLadderStepMatchesTheReferenceInFp32AndFp16) {
  ASSERT_EQ(backend().gemm_variants(), (std::vector<std::string>{"naive", "smem", "blocktile2d", "vectorized"}));
  for (const auto& v : backend().gemm_variants())
    for (Precision p : {Precision::fp32, Precision::fp16}) {
      // Sizes that are not multiples of any tile (16, 64), plus one that is, so edges and interiors are both used.
      const bool vec = v == "vectorized";
      for (Shape s : {Shape{vec ? 68 : 67, vec ? 44 : 45, vec ? 36 : 33}, Shape{128, 64, 96}, Shape{1, vec ? 4 : 1, vec ? 4 : 1}})
        expect_gemm_ok(backend(), v, p, s);
    }
}

TEST_F(VulkanKernels, Fp16IsReportedAsTheDeviceOffersIt) {
  GemmSpec spec;
  spec.precision = Precision::fp16;
  spec.variant = "smem";
  spec.m = spec.n = spec.k = 32;
  const auto& d = backend().device_info().details;
  std::string fp16;
  for (const auto& [k, v] : d)
    if (k == "FP16 shaders") fp16 = v;
  EXPECT_EQ(backend().supports(spec).ok, fp16.rfind("yes", 0) == 0) << fp16;
}

TEST_F(VulkanKernels, OtherPrecisionsAndVariantsAreRefusedWithAReason) {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 64;
  spec.variant = "smem";
  spec.precision = Precision::bf16;
  const Support bf = backend().supports(spec);
  EXPECT_FALSE(bf.ok);
  EXPECT_NE(bf.reason.find("cooperative"), std::string::npos) << bf.reason;
  spec.precision = Precision::fp32;
  spec.variant = "cublas";
  EXPECT_FALSE(backend().supports(spec).ok);
  EXPECT_THROW(backend().make_gemm(spec), std::invalid_argument);
  spec.variant = "vectorized";
  spec.n = 30;  // not a multiple of 4
  EXPECT_FALSE(backend().supports(spec).ok);
}

TEST_F(VulkanKernels, CopyAndTriadAreExactAndCountReadPlusWrite) {
  for (const char* kind : {"copy", "triad"}) {
    BandwidthSpec spec;
    spec.kind = kind;
    spec.bytes_per_array = 1 << 20;  // raised to the op's floor (larger than caches, within one binding)
    auto op = backend().make_bandwidth(spec);
    const Check c = op->verify();
    EXPECT_TRUE(c.passed) << kind << ": " << c.message;
    EXPECT_GE(op->bytes(), 2.0 * (64 << 20)) << kind << ": arrays must be larger than caches";
    EXPECT_GT(op->run_once(), 0.0);
    const double per_array = static_cast<double>(c.checked) * 4;
    EXPECT_DOUBLE_EQ(op->bytes(), per_array * (std::string(kind) == "triad" ? 3 : 2));
  }
}

TEST_F(VulkanKernels, TransfersThroughTheStagingBufferArriveIntact) {
  for (const char* dir : {"h2d", "d2h", "d2d"})
    for (bool pinned : {true, false}) {
      TransferSpec spec;
      spec.direction = dir;
      spec.pinned = pinned;
      spec.bytes = (1 << 20) + 3;  // not a whole number of words
      ASSERT_TRUE(backend().supports(spec).ok);
      auto op = backend().make_transfer(spec);
      const Check c = op->verify();
      EXPECT_TRUE(c.passed) << dir << (pinned ? " pinned: " : " pageable: ") << c.message;
      EXPECT_GT(op->run_once(), 0.0);
    }
  TransferSpec p2p;
  p2p.direction = "p2p";
  EXPECT_FALSE(backend().supports(p2p).ok);
}

TEST_F(VulkanKernels, LayerChainMatchesTheReference) {
  for (Precision p : {Precision::fp32, Precision::fp16}) {
    LayerChainSpec spec;
    spec.matrices = {{96, 96}, {96, 160}, {160, 96}};
    spec.layers = 2;
    spec.batch = 5;
    spec.precision = p;
    const Support ok = backend().supports(spec);
    if (!ok.ok) {
      ASSERT_EQ(p, Precision::fp16) << ok.reason;
      continue;
    }
    auto op = backend().make_layer_chain(spec);
    ASSERT_TRUE(op);
    const Check c = op->verify();
    EXPECT_TRUE(c.passed) << display_name(p) << ": " << c.message;
    EXPECT_GT(c.checked, 0);
    EXPECT_GT(op->run_once(), 0.0);
    EXPECT_DOUBLE_EQ(op->flops(), 2.0 * 5 * 2 * (96 * 96 + 96 * 160 + 160 * 96));
  }
}

TEST_F(VulkanKernels, MeasureRunsThroughTheHarness) {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 128;
  spec.variant = "blocktile2d";
  auto op = backend().make_gemm(spec);
  MeasurePolicy policy;
  policy.time_budget_s = 0.5;
  policy.max_samples = 5;
  const Measurement m = measure(*op, policy);
  EXPECT_TRUE(m.check.passed) << m.check.message;
  EXPECT_GT(m.stats.median_s, 0.0);
}

// The counter is real: an invalid call (a zero-sized buffer) is reported by the layer and counted. Its own instance,
// so the errors do not count against the other tests.
TEST(VulkanValidation, TheMessengerCountsAnInvalidCall) {
  vk::BackendOptions options;
  options.allow_cpu = true;
  options.validation = true;
  vk::Created c = vk::list_only(options);
  if (!c.instance || c.devices.empty()) GTEST_SKIP() << c.reason;
  std::string why;
  const int index = vk::choose_device(c.devices, -1, true, why);
  ASSERT_GE(index, 0) << why;
  vk::Device device(c.instance, c.devices[static_cast<std::size_t>(index)]);
  ASSERT_EQ(c.instance->validation_errors(), 0);
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;  // VUID-VkBufferCreateInfo-size-00912
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  const VkResult r = vkCreateBuffer(device.get(), &info, nullptr, &buffer);
  if (r == VK_SUCCESS && buffer != VK_NULL_HANDLE) vkDestroyBuffer(device.get(), buffer, nullptr);
  EXPECT_GE(c.instance->validation_errors(), 1);
  EXPECT_NE(c.instance->last_validation_error().find("size"), std::string::npos) << c.instance->last_validation_error();
}

TEST_F(VulkanKernels, FreeMemoryIsReadOrSaidUnknownNeverTheHeapSize) {
  const MemoryInfo m = backend().memory_info();
  const DeviceInfo d = backend().device_info();
  EXPECT_GT(m.total_bytes, 0);
  std::string reading;
  for (const auto& [k, v] : d.details)
    if (k == "free memory") reading = v;
  if (s_created->backend && reading.rfind("read through VK_EXT_memory_budget", 0) == 0) {
    // A budget reading: something, and less than the heap once this process holds buffers of its own.
    EXPECT_GT(m.free_bytes, 0);
    EXPECT_LE(m.free_bytes, m.total_bytes);
  } else {
    EXPECT_EQ(reading, "unknown (the driver does not offer VK_EXT_memory_budget)");
    EXPECT_EQ(m.free_bytes, 0) << "the heap size is not what is free";
  }
}

// Issue 36: the launch-overhead run is the issue rate on Vulkan too: the dispatches recorded into one command buffer
// (a barrier between each), submitted and waited for once — what a CUDA stream's launches are without a wait.
TEST_F(VulkanKernels, LaunchOverheadIsManyDispatchesInOneCommandBuffer) {
  const LaunchOverheadSpec spec{200, 1};
  ASSERT_TRUE(backend().supports(spec).ok) << backend().supports(spec).reason;
  auto op = backend().make_launch_overhead(spec);
  ASSERT_NE(op, nullptr);
  const Check c = op->verify();
  EXPECT_TRUE(c.passed) << c.message;
  EXPECT_EQ(c.checked, 200);
  EXPECT_GT(op->run_once(), 0);
  EXPECT_FALSE(backend().supports(LaunchOverheadSpec{200'000, 1}).ok);
}

}  // namespace

#else
TEST(VulkanKernels, Skipped) { GPULAB_SKIP_WITHOUT_VULKAN_BUILD(); }
#endif

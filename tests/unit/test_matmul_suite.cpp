// `bench --suite matmul` (matmul_suite.hpp): on a GPU it runs the ladder and the library at real sizes (≥ 4096³,
// the naive steps smaller by their guessed time), while a CPU-only run, and a CPU-type Vulkan device in the GPU
// slot, keep exactly the page's 60³ plan.
#include "gpulab/backend.hpp"
#include "gpulab/matmul_suite.hpp"
#include "gpulab/page_plans.hpp"
#include "gpulab/plan.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace gpulab;

namespace {

// A GPU that plans can be built against: it lists the CUDA module's ladder and accepts every size up to
// `max_n` (nothing is run here, so it makes no ops).
class PlannedGpu final : public Backend {
 public:
  PlannedGpu(std::string kind, std::string device_type, long long max_n)
      : m_kind(std::move(kind)), m_type(std::move(device_type)), m_max_n(max_n) {}
  std::string kind() const override { return m_kind; }
  DeviceInfo device_info() const override {
    DeviceInfo d;
    d.kind = m_kind;
    d.name = "planned GPU";
    return d;
  }
  Provenance provenance() const override { return {{"device", "planned GPU"}, {"device_type", m_type}}; }
  std::vector<std::string> gemm_variants() const override {
    return {"naive", "coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized", "warptile", "cublas"};
  }
  Support supports(const GemmSpec& s) const override {
    return std::max({s.m, s.n, s.k}) <= m_max_n ? Support::yes() : Support::no("too big for this device");
  }
  std::unique_ptr<TimedOp> make_gemm(const GemmSpec&) override { return nullptr; }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec&) override { return nullptr; }
  Support supports(const TransferSpec&) const override { return Support::yes(); }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec&) override { return nullptr; }
  MemoryInfo memory_info() const override { return {141e9, 140e9}; }

 private:
  std::string m_kind, m_type;
  long long m_max_n;
};

// variant -> the square sizes the plan runs it at on the GPU
std::map<std::string, std::set<long long>> gpu_sizes(const Plan& plan, const Backend& gpu) {
  std::map<std::string, std::set<long long>> out;
  for (const auto& j : plan.jobs)
    if (j.backend == &gpu && j.experiment == "gemm") out[j.variant].insert(static_cast<long long>(j.params.at("n")));
  return out;
}

}  // namespace

TEST(MatmulSuite, OnAGpuEveryStepRunsAtRealSizesAndTheNaiveStepsAreCappedByTime) {
  std::unique_ptr<Backend> cpu = make_cpu_backend();
  PlannedGpu gpu("cuda", "", 1 << 15);
  const Backends b{cpu.get(), &gpu, ""};
  const Plan plan = suite_plan("matmul", b);
  const auto sizes = gpu_sizes(plan, gpu);
  for (const std::string& v : gpu.gemm_variants()) {
    ASSERT_TRUE(sizes.count(v)) << v;
    EXPECT_TRUE(sizes.at(v).count(60)) << v << ": the page's default stays in the suite";
    const long long top = *sizes.at(v).rbegin();
    if (v == "naive" || v == "coalesced") {
      // Guessed at a few hundred GFLOP/s: 4096³ would take about half a second a run, so a smaller size.
      EXPECT_GE(top, kMatmulGpuMinN) << v;
      EXPECT_LT(top, kMatmulGpuN) << v;
    } else {
      EXPECT_GE(top, kMatmulGpuN) << v;
    }
  }
  EXPECT_TRUE(sizes.at("cublas").count(kMatmulGpuLibraryN)) << "cuBLAS also at 8192³";
  // Every GPU job's guessed run stays under the cap.
  for (const MatmulGpuJob& j : matmul_gpu_suite_jobs(b))
    if (j.n < kMatmulGpuLibraryN) EXPECT_LE(j.guessed_run_s, kMatmulGpuMaxRunS) << j.way.variant << " " << j.n;
}

TEST(MatmulSuite, ADeviceThatRefusesTheSizeGetsTheLargestItAccepts) {
  std::unique_ptr<Backend> cpu = make_cpu_backend();
  PlannedGpu gpu("vulkan", "discrete GPU", 2048);
  const Backends b{cpu.get(), &gpu, ""};
  const auto sizes = gpu_sizes(suite_plan("matmul", b), gpu);
  EXPECT_EQ(*sizes.at("smem").rbegin(), 2048);
  EXPECT_EQ(sizes.at("cublas").count(kMatmulGpuLibraryN), 0u);
}

TEST(MatmulSuite, TheCpuPathAndLavapipeKeepThePagesPlan) {
  std::unique_ptr<Backend> cpu = make_cpu_backend();
  const Backends cpu_only{cpu.get(), nullptr, "no GPU in this test"};
  auto keys = [](const Plan& p) {
    std::multiset<std::string> out;
    for (const auto& j : p.jobs) out.insert(job_key(j));
    return out;
  };
  EXPECT_EQ(keys(suite_plan("matmul", cpu_only)), keys(matmul_plan(cpu_only)));
  PlannedGpu lavapipe("vulkan", "CPU (not a GPU)", 512);
  const Backends with_lavapipe{cpu.get(), &lavapipe, ""};
  EXPECT_EQ(keys(suite_plan("matmul", with_lavapipe)), keys(matmul_plan(with_lavapipe)));
  EXPECT_TRUE(matmul_gpu_suite_jobs(with_lavapipe).empty());
}

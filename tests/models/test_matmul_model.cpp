// The matrix-multiply page's model: rows from the plan builder's ways (a GPU slot's rows named by who ran them),
// bars from typed GEMM results of the matmul page's plans only, the shares and the lesson's n = 60 ratio.
#include "pages/matmul/model/matmul_model.h"

#include "gpulab/backend.hpp"
#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

#include <memory>

using namespace matmul_model;

namespace {

gpulab::Result gemm(std::string backend, std::string variant, double gflops, std::string plan = gpulab::plan_name::matmul,
                    long long n = 60, int threads = 0) {
  gpulab::Result r;
  r.experiment = "gemm";
  r.plan = std::move(plan);
  r.backend = std::move(backend);
  r.variant = std::move(variant);
  r.params = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"threads", double(threads)}};
  r.check.passed = true;
  r.check.checked = 10;
  r.flops = 2.0 * n * n * n;
  r.stats.median_s = r.flops / (gflops * 1e9);
  r.stats.min_s = r.stats.median_s * 0.9;
  r.stats.n = 5;
  r.gflops = gflops;
  return r;
}

struct Cpu {
  std::unique_ptr<gpulab::Backend> cpu = gpulab::make_cpu_backend();
  gpulab::Backends backends() { return {cpu.get(), nullptr, "no GPU in this test"}; }
};

std::vector<Row> cpuRows(const std::vector<Input>& results = {}) {
  Cpu c;
  return buildRows(c.backends(), {}, results);
}

const Row& row(const std::vector<Row>& rows, const std::string& key) {
  const int i = rowIndex(rows, key);
  EXPECT_GE(i, 0) << key;
  return rows[std::size_t(std::max(0, i))];
}

}  // namespace

TEST(MatmulModel, TheCpuRowsAreThePlanBuildersFourWays) {
  const auto rows = cpuRows();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].key, "cpu/naive/-1");
  EXPECT_EQ(rows[0].way.kind, gpulab::MatmulWayKind::cpu_naive);
  EXPECT_EQ(rows[2].key, "cpu/blas/1");
  EXPECT_EQ(rows[3].key, "cpu/blas/0");
  for (const Row& r : rows) EXPECT_FALSE(r.gpu_side) << r.key;
}

TEST(MatmulModel, AnotherPlansResultIsNotDrawn) {
  const auto rows = cpuRows();
  // The batch page's BLAS at 60³ would be faster; the matmul plan's is the bar.
  const gpulab::Result mine = gemm("cpu", "blas", 10);
  const gpulab::Result batch = gemm("cpu", "blas", 99, gpulab::plan_name::batch);
  const gpulab::Result stadium = gemm("cpu", "blas", 77, gpulab::plan_name::stadium);
  const std::vector<Input> results{{&mine, -1}, {&batch, -1}, {&stadium, 0}};
  const Row& all = row(rows, "cpu/blas/0");
  ASSERT_EQ(measuredFor(results, all, Shape{}), &mine);
  EXPECT_EQ(recordedFor(results, all, Shape{}, 0), nullptr);  // the recorded one is the stadium's
  EXPECT_TRUE(recordedBars(results, all, Shape{}).empty());
  EXPECT_EQ(counts(results, rows, Shape{}).measuredBars, 1);
  EXPECT_EQ(counts(results, rows, Shape{}).recordedBars, 0);
  EXPECT_DOUBLE_EQ(refs(results, rows, Shape{}).blasAll, 10);
  EXPECT_TRUE(recordedSizes(results).empty());
  // The sizes suite and a recording from before plans are the page's own.
  const gpulab::Result sizes = gemm("cpu", "blas", 12, gpulab::plan_name::matmul_sizes);
  const gpulab::Result legacy = gemm("cpu", "blas", 13, "");
  EXPECT_EQ(recordedFor({{&sizes, 0}, {&legacy, 1}}, all, Shape{}, 0), &sizes);
  EXPECT_EQ(recordedFor({{&sizes, 0}, {&legacy, 1}}, all, Shape{}, 1), &legacy);
}

TEST(MatmulModel, BarsMatchTheSizeAndTheNewestMeasuredWins) {
  const auto rows = cpuRows();
  const gpulab::Result old = gemm("cpu", "naive", 1.0);
  const gpulab::Result newer = gemm("cpu", "naive", 1.2);
  const gpulab::Result big = gemm("cpu", "naive", 0.5, gpulab::plan_name::matmul, 512);
  gpulab::Result wrong = gemm("cpu", "reordered", 8);
  wrong.check.passed = false;
  const std::vector<Input> results{{&old, -1}, {&newer, -1}, {&big, -1}, {&wrong, -1}};
  EXPECT_EQ(measuredFor(results, row(rows, "cpu/naive/-1"), Shape{}), &newer);
  EXPECT_EQ(measuredFor(results, row(rows, "cpu/naive/-1"), Shape{512, 512, 512}), &big);
  const Counts c = counts(results, rows, Shape{});
  EXPECT_EQ(c.measuredBars, 1);  // a wrong answer is never a bar
  EXPECT_EQ(c.passed, 1);
  EXPECT_EQ(c.wrong, 1);
  // The naive rate for an estimate comes from this k×n only.
  EXPECT_EQ(naiveMeasuredAt(results, 512, 512), &big);
  EXPECT_EQ(naiveMeasuredAt(results, 1024, 1024), nullptr);
}

TEST(MatmulModel, SharesAgainstTheFasterBlasAndThePeak) {
  const auto rows = cpuRows();
  const gpulab::Result naive = gemm("cpu", "naive", 1);
  const gpulab::Result one = gemm("cpu", "blas", 40, gpulab::plan_name::matmul, 60, 1);
  const gpulab::Result all = gemm("cpu", "blas", 30);  // all threads lost to one: a busy machine
  const gpulab::Result reordered = gemm("cpu", "reordered", 8);
  const std::vector<Input> results{{&naive, -1}, {&one, -1}, {&all, -1}, {&reordered, -1}};
  const Refs r = refs(results, rows, Shape{});
  EXPECT_DOUBLE_EQ(r.naive, 1);
  EXPECT_DOUBLE_EQ(r.blasAll, 30);
  EXPECT_DOUBLE_EQ(r.blasBest, 40);
  const Shares s = shares(row(rows, "cpu/reordered/-1"), 8, r, 100, 0);
  EXPECT_DOUBLE_EQ(s.ofLibrary, 0.2);
  EXPECT_FALSE(s.libraryIsGpu);
  EXPECT_DOUBLE_EQ(s.ofPeak, 0.08);
  EXPECT_DOUBLE_EQ(shares(row(rows, "cpu/blas/0"), 30, r, 100, 0).ofLibrary, 0);  // BLAS is the library
  EXPECT_TRUE(shares(row(rows, "cpu/blas/1"), 140, r, 100, 0).abovePeak);
  EXPECT_FALSE(shares(row(rows, "cpu/blas/1"), 101, r, 100, 0).abovePeak);  // within 2 %
}

TEST(MatmulModel, ARecordingBringsItsGpuLadderNamedByItsDevice) {
  gpulab::Result cuda = gemm("cuda", "warptile", 40000, gpulab::plan_name::matmul, 4096);
  cuda.provenance["device"] = "NVIDIA H200";
  gpulab::Result cublas = gemm("cuda", "cublas", 50000, gpulab::plan_name::matmul, 4096);
  cublas.provenance["device"] = "NVIDIA H200";
  gpulab::Result lavapipe = gemm("vulkan", "smem", 2, gpulab::plan_name::matmul, 512);
  lavapipe.provenance["device"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
  lavapipe.provenance["device_type"] = "CPU (not a GPU)";
  const std::vector<Input> results{{&cuda, 0}, {&cublas, 0}, {&lavapipe, 1}};
  const auto rows = cpuRows(results);
  ASSERT_EQ(rows.size(), 7u);
  const Row& warp = row(rows, "cuda/warptile/-1");
  EXPECT_FALSE(warp.live);
  EXPECT_TRUE(warp.device.is_gpu);
  EXPECT_EQ(warp.step, gpulab::LadderStep::warptile);
  EXPECT_EQ(warp.number, 7);  // the CUDA ladder's numbering
  EXPECT_EQ(row(rows, "cuda/cublas/-1").way.kind, gpulab::MatmulWayKind::gpu_library);
  EXPECT_EQ(row(rows, "cuda/cublas/-1").number, 0);
  const Row& vk = row(rows, "vulkan/smem/-1");
  EXPECT_FALSE(vk.device.is_gpu);  // lavapipe is never a GPU
  EXPECT_EQ(vk.device.device_class, gpulab::DeviceClass::vulkan_on_cpu);
  EXPECT_EQ(vk.device.label, "Vulkan on the CPU (llvmpipe) — not a GPU");
  // The recorded ladder's share of the same recording's cuBLAS.
  EXPECT_DOUBLE_EQ(recordedLibraryShare(results, rows, warp, Shape{4096, 4096, 4096}, 0, 40000), 0.8);
  EXPECT_DOUBLE_EQ(recordedLibraryShare(results, rows, warp, Shape{4096, 4096, 4096}, 1, 40000), 0);
  // The size with the most recorded bars.
  EXPECT_EQ(busiestRecordedSize(results), (Shape{4096, 4096, 4096}));
  ASSERT_EQ(recordedSizes(results).size(), 2u);
  EXPECT_EQ(recordedSizes(results).front(), (Shape{512, 512, 512}));  // smallest first
}

TEST(MatmulModel, TwoRecordingsAreTwoSourcesEachWithItsOwnBar) {
  const auto rows = cpuRows();
  const Row& all = row(rows, "cpu/blas/0");
  const Row& naive = row(rows, "cpu/naive/-1");
  // The first recording's machine is twice as fast; the second's slower bar is still its own.
  const gpulab::Result fast = gemm("cpu", "blas", 40);
  const gpulab::Result fastOlder = gemm("cpu", "blas", 30);  // the same recording's slower run is not a bar
  const gpulab::Result slow = gemm("cpu", "blas", 20);
  const gpulab::Result slowLib = gemm("cpu", "blas", 25, gpulab::plan_name::matmul, 60, 1);
  const gpulab::Result slowNaive = gemm("cpu", "naive", 0.5);  // only the second recording ran the professor
  const gpulab::Result here = gemm("cpu", "blas", 35);
  const std::vector<Input> results{{&fast, 0}, {&fastOlder, 0}, {&here, -1}, {&slow, 1}, {&slowLib, 1}, {&slowNaive, 1}};
  EXPECT_EQ(recordedFor(results, all, Shape{}, 0), &fast);
  EXPECT_EQ(recordedFor(results, all, Shape{}, 1), &slow);
  EXPECT_EQ(recordedFor(results, all, Shape{}, -1), nullptr);  // measured here is never a recording's bar
  const auto bars = recordedBars(results, all, Shape{});
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].result, &fast);
  EXPECT_EQ(bars[0].source, 0);
  EXPECT_EQ(bars[1].result, &slow);
  EXPECT_EQ(bars[1].source, 1);
  const auto naiveBars = recordedBars(results, naive, Shape{});
  ASSERT_EQ(naiveBars.size(), 1u);
  EXPECT_EQ(naiveBars[0].source, 1);
  EXPECT_EQ(recordedSources(results, rows, Shape{}), (std::vector<int>{0, 1}));
  EXPECT_TRUE(recordedSources(results, rows, Shape{512, 512, 512}).empty());
  // Every recording's bars count: 2 (BLAS all) + 1 (BLAS one) + 1 (naive).
  EXPECT_EQ(counts(results, rows, Shape{}).recordedBars, 4);
  EXPECT_EQ(measuredFor(results, all, Shape{}), &here);
  // A recorded share is of its own recording's library: the second's naive against its BLAS (the faster, 25),
  // never against the first's faster one.
  EXPECT_DOUBLE_EQ(recordedLibraryShare(results, rows, naive, Shape{}, 1, 0.5), 0.02);
  EXPECT_DOUBLE_EQ(recordedLibraryShare(results, rows, naive, Shape{}, 0, 0.5), 0.5 / 40);
}

TEST(MatmulModel, ThePracticeRatioComesFromTheFastestRunsAt60) {
  gpulab::Result naive = gemm("cpu", "naive", 2);
  gpulab::Result blas = gemm("cpu", "blas", 30);
  EXPECT_DOUBLE_EQ(practiceRatio({{&naive, -1}}), 0);  // BLAS not measured yet
  naive.stats.min_s = 100e-6;
  blas.stats.min_s = 5e-6;
  EXPECT_DOUBLE_EQ(practiceRatio({{&naive, -1}, {&blas, -1}}), 20);
  // A recording's 60³ is not this machine's ratio; nor is one thread's BLAS.
  EXPECT_DOUBLE_EQ(practiceRatio({{&naive, -1}, {&blas, 0}}), 0);
  const gpulab::Result one = gemm("cpu", "blas", 30, gpulab::plan_name::matmul, 60, 1);
  EXPECT_DOUBLE_EQ(practiceRatio({{&naive, -1}, {&one, -1}}), 0);
}

TEST(MatmulModel, ThePracticePlanTimesTheNaiveLoopAndBlasOnAllCoresAt60) {
  Cpu c;
  const gpulab::Plan p = gpulab::matmul_practice_plan(c.backends());
  ASSERT_EQ(p.jobs.size(), 2u);
  for (const auto& j : p.jobs) {
    EXPECT_EQ(j.plan, gpulab::plan_name::matmul);
    EXPECT_EQ(j.params.at("m"), 60);
    EXPECT_EQ(j.params.at("threads"), 0);
  }
  EXPECT_EQ(p.jobs[0].variant, "naive");
  EXPECT_EQ(p.jobs[1].variant, "blas");
}

TEST(MatmulModel, TheDefaultPlanIsEveryWayAt60AndLeavesOutWhatIsUnticked) {
  Cpu c;
  const gpulab::Plan p = gpulab::matmul_plan(c.backends());
  ASSERT_EQ(p.jobs.size(), 4u);
  gpulab::MatmulControls some;
  some.m = 32;
  some.k = some.n = 4096;
  some.left_out = {"cpu/naive/-1", "cpu/blas/1"};
  const gpulab::Plan q = gpulab::matmul_plan(c.backends(), some);
  ASSERT_EQ(q.jobs.size(), 2u);
  EXPECT_EQ(q.jobs[0].variant, "reordered");
  EXPECT_EQ(q.jobs[0].params.at("m"), 32);
  EXPECT_EQ(q.jobs[0].params.at("k"), 4096);
}

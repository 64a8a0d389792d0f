// The CPU's measured roofs (issue 27): the FMA peak as a checked, timed result, the overhead floor (an empty
// parallel region of a thread pool) and the elementwise sweep, their typed views, and the plan of the roofs suite.
// No timing thresholds beyond sanity (a shared 2-core machine): what is asserted is the counting, the checks and
// the plan's contents.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/roofs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

using namespace gpulab;

namespace {
RunContext quick_ctx() {
  RunContext ctx;
  ctx.policy.min_samples = 2;
  ctx.policy.max_samples = 3;
  ctx.policy.time_budget_s = 0.05;
  return ctx;
}
}  // namespace

TEST(CpuRoofs, Fp32PeakIsCheckedAndCountsEveryChain) {
  auto cpu = make_cpu_backend();
  const Result r = run_peak(*cpu, PeakSpec{Precision::fp32, 0.005}, quick_ctx());
  ASSERT_TRUE(r.ok()) << r.error << " " << r.check.message;
  const auto p = as_peak(r);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->chains, 12);
  EXPECT_EQ(p->lanes, 8);
  EXPECT_EQ(p->threads, cpu->device_info().compute_units);
  // FLOPs = threads × chains × lanes × 2 (an FMA) × iterations: the count the rate divides by.
  EXPECT_DOUBLE_EQ(r.flops, double(p->threads) * 12 * 8 * 2 * p->iterations);
  EXPECT_GT(r.check.checked, 0);
  EXPECT_LT(r.check.max_rel_err, 2e-3);
  // The peak is the fastest run; never slower than the median.
  EXPECT_GE(r.gflops, r.param("gflops_median"));
  EXPECT_NE(r.provenance.at("timer").find("CPU time"), std::string::npos);
  // Sanity against the app's own start-up bursts of the same kernel: the same order of magnitude.
  const CpuPeak startup = cpu_peak();
  EXPECT_GT(r.gflops, startup.gflops_fp32 / 5);
  EXPECT_LT(r.gflops, startup.gflops_fp32 * 5);
}

TEST(CpuRoofs, Fp64PeakAndNoFp16) {
  auto cpu = make_cpu_backend();
  const Result r = run_peak(*cpu, PeakSpec{Precision::fp64, 0.005}, quick_ctx());
  ASSERT_TRUE(r.ok()) << r.error << " " << r.check.message;
  EXPECT_EQ(as_peak(r)->lanes, 4);
  const Result h = run_peak(*cpu, PeakSpec{Precision::fp16, 0.005}, quick_ctx());
  EXPECT_FALSE(h.ok());
  EXPECT_NE(h.error.find("FP32 and FP64"), std::string::npos) << h.error;
  EXPECT_THROW(run_peak(*cpu, PeakSpec{Precision::fp32, 0.5}, quick_ctx()), std::invalid_argument);
}

TEST(CpuRoofs, EmptyRegionIsTheFloorAndTheSweepIsChecked) {
  auto cpu = make_cpu_backend();
  const Result empty = run_overhead(*cpu, OverheadSpec{0, false}, quick_ctx());
  ASSERT_TRUE(empty.ok()) << empty.error;
  const auto e = as_overhead(empty);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->elements, 0);
  EXPECT_EQ(empty.variant, "empty");
  EXPECT_GT(e->per_op_s, 0);
  EXPECT_LT(e->per_op_s, 0.05);  // a thread pool's barrier pair, even on a busy machine
  EXPECT_EQ(empty.bytes, 0);

  const Result op = run_overhead(*cpu, OverheadSpec{1 << 16, false}, quick_ctx());
  ASSERT_TRUE(op.ok()) << op.error << " " << op.check.message;
  EXPECT_EQ(op.variant, "elementwise");
  EXPECT_EQ(op.check.checked, 1 << 16);  // every element compared
  EXPECT_DOUBLE_EQ(op.bytes, 12.0 * (1 << 16));
  EXPECT_DOUBLE_EQ(op.flops, 2.0 * (1 << 16));

  const Result graph = run_overhead(*cpu, OverheadSpec{0, true}, quick_ctx());
  EXPECT_FALSE(graph.ok());
  EXPECT_NE(graph.error.find("CUDA"), std::string::npos);
}

TEST(CpuRoofs, SweepRunsFromOneElementPastTheLastLevelCache) {
  const auto sizes = overhead_sweep_elements();
  ASSERT_GE(sizes.size(), 5u);
  EXPECT_EQ(sizes.front(), 1u);
  EXPECT_GE(sizes.back() * 12, std::size_t{96} << 20);  // three arrays past a 32 MiB L3, a 50 MB L2
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
}

TEST(CpuRoofs, PlanHasEveryRoofOfTheCpu) {
  auto cpu = make_cpu_backend();
  Backends b;
  b.cpu = cpu.get();
  const Plan plan = roofs_plan(b);
  EXPECT_EQ(plan.name, "roofs");
  int peaks = 0, empties = 0, sweep = 0, triads = 0;
  for (const PlanJob& j : plan.jobs) {
    EXPECT_EQ(j.backend, cpu.get());
    if (j.experiment == "peak") {
      ++peaks;
      EXPECT_NE(j.precision, Precision::fp16);
    }
    if (j.experiment == "overhead") (j.variant == "empty" ? empties : sweep) += 1;
    if (j.experiment == "bandwidth") ++triads;
    EXPECT_NE(j.variant, "graph");  // no CUDA graph on a CPU
  }
  EXPECT_EQ(peaks, 2);  // FP32 and FP64
  EXPECT_EQ(empties, 1);
  EXPECT_EQ(sweep, static_cast<int>(overhead_sweep_elements().size()));
  EXPECT_EQ(triads, 1);
  const Plan lean = roofs_plan(b, RoofsControls{false, false});
  EXPECT_EQ(lean.jobs.size(), 4u);  // two peaks, the empty region, and the back-to-back issue rate (issue 36)
}

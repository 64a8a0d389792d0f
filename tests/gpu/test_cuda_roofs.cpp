// The CUDA module's roofs (issue 27): the FMA-peak kernels (kernels/roofs.cu, roofs_fp16.cu) checked thread by
// thread against the closed form in FP32, FP64 and (on a GPU) FP16 half2, no BF16/TF32 peak on the SMs (the
// tensor-core roofs are cuBLAS's), the empty kernel's launch + sync, the same through a CUDA graph (on a GPU), and
// the elementwise op. Runs on a GPU, and (label emu) on the emulated module in every build, where FP16 arithmetic
// and graphs are refused as not available on the emulator.
#include "gpu/load_module.hpp"
#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/roofs.hpp"

#include <cstdio>

namespace {
using namespace gpulab;

class CudaRoofs : public gpulab_test::ModuleTest {
 protected:
  static RunContext quick() {
    RunContext ctx;
    ctx.policy.min_samples = 2;
    ctx.policy.max_samples = 2;
    ctx.policy.time_budget_s = 0.05;
    return ctx;
  }
};

TEST_F(CudaRoofs, Fp32AndFp64PeaksAreCheckedEveryThread) {
  for (Precision p : {Precision::fp32, Precision::fp64}) {
    const Result r = run_peak(backend(), PeakSpec{p, 0.005}, quick());
    ASSERT_TRUE(r.ok()) << r.error << " " << r.check.message;
    const auto pk = as_peak(r);
    ASSERT_TRUE(pk);
    EXPECT_EQ(pk->chains, 8);
    EXPECT_EQ(r.check.checked, static_cast<long long>(pk->invocations));
    EXPECT_DOUBLE_EQ(r.flops, pk->invocations * 8 * 2 * pk->iterations);
    EXPECT_LT(r.check.max_rel_err, 2e-3);
    EXPECT_NE(r.provenance.at("kernel").find("not tensor cores"), std::string::npos);
  }
  const Result b = run_peak(backend(), PeakSpec{Precision::bf16, 0.005}, quick());
  EXPECT_FALSE(b.ok());
  EXPECT_NE(b.error.find("cuBLAS"), std::string::npos) << b.error;
}

TEST_F(CudaRoofs, Fp16PeakIsHalf2OnAGpuAndRefusedOnTheEmulator) {
  const Result h = run_peak(backend(), PeakSpec{Precision::fp16, 0.005}, quick());
  if (emulated()) {
    EXPECT_FALSE(h.ok());
    EXPECT_NE(h.error.find("not available on the CPU emulator"), std::string::npos) << h.error;
    EXPECT_EQ(h.gflops, 0);
    return;
  }
  ASSERT_TRUE(h.ok()) << h.error << " " << h.check.message;
  const auto pk = as_peak(h);
  ASSERT_TRUE(pk);
  EXPECT_EQ(pk->lanes, 2);
  EXPECT_EQ(h.check.checked, static_cast<long long>(pk->invocations));
  EXPECT_DOUBLE_EQ(h.flops, pk->invocations * 8 * 2 * 2 * pk->iterations);
  EXPECT_LT(h.check.max_rel_err, 1e-2);
  EXPECT_NE(h.provenance.at("kernel").find("half2"), std::string::npos);
}

TEST_F(CudaRoofs, EmptyKernelAndElementwiseOp) {
  const Result empty = run_overhead(backend(), OverheadSpec{0, false}, quick());
  ASSERT_TRUE(empty.ok()) << empty.error;
  EXPECT_GT(as_overhead(empty)->per_op_s, 0);
  const Result op = run_overhead(backend(), OverheadSpec{4096 + 3, false}, quick());
  ASSERT_TRUE(op.ok()) << op.error << " " << op.check.message;
  EXPECT_EQ(op.check.checked, 4096 + 3);  // the scalar tail too
}

TEST_F(CudaRoofs, GraphLaunchOnAGpuAndRefusedOnTheEmulator) {
  const Result g = run_overhead(backend(), OverheadSpec{0, true}, quick());
  const auto o = as_overhead(g);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->graph);
  if (emulated()) {
    EXPECT_FALSE(g.ok());
    EXPECT_NE(g.error.find("not available on the CPU emulator"), std::string::npos) << g.error;
    EXPECT_EQ(o->per_op_s, 0);
    return;
  }
  ASSERT_TRUE(g.ok()) << g.error << " " << g.check.message;
  EXPECT_EQ(g.check.checked, 64);  // every captured launch is a node
  EXPECT_EQ(g.params.at("kernels_per_graph"), 64);
  EXPECT_GT(o->per_op_s, 0);
}

TEST_F(CudaRoofs, RoofsPlanNamesTheGraphRunOrWhyNot) {
  const auto cpu = make_cpu_backend();
  int graphs = 0;
  const Plan plan = roofs_plan(Backends{cpu.get(), &backend(), {}}, RoofsControls{false, false});
  for (const PlanJob& job : plan.jobs)
    if (job.experiment == experiment_name::overhead && job.variant == "graph") {
      EXPECT_EQ(job.backend, &backend());  // the CPU has no graphs and says nothing about them
      ++graphs;
    }
  EXPECT_EQ(graphs, 1);  // a run on a GPU, a note saying why not on the emulator: never silently absent
}

}  // namespace

// Issue 36: the issue rate, launches back to back on one stream timed from the first to the last (the
// launch_overhead run the roofs suite now makes on every device), beside the launch + wait. Every launch adds 1, so a
// lost or doubled launch fails the check. Both figures are printed.
TEST_F(CudaRoofs, IssueRateBesideTheLaunchAndWait) {
  const Result pace = run_launch_overhead(backend(), LaunchOverheadSpec{200, 1}, quick());
  ASSERT_TRUE(pace.ok()) << pace.error << " " << pace.check.message;
  const auto q = as_launch_overhead(pace);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->kernels, 200);
  EXPECT_GT(q->per_launch_s, 0);
  EXPECT_NEAR(q->per_launch_s, pace.stats.median_s / 200, 1e-15);
  const Result wait = run_overhead(backend(), OverheadSpec{0, false}, quick());
  ASSERT_TRUE(wait.ok()) << wait.error;
  std::printf("%s: launch + wait %.2f us, back to back %.2f us a launch\n", emulated() ? "emulated module" : "GPU",
              as_overhead(wait)->per_op_s * 1e6, q->per_launch_s * 1e6);
}

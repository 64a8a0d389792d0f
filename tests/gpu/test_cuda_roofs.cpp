// The CUDA module's roofs (issue 27): the FMA-peak kernel (kernels/roofs.cu) checked thread by thread against the
// closed form in FP32 and FP64, no FP16 peak on the SMs (the tensor-core roofs are cuBLAS's), the empty kernel's
// launch + sync and the elementwise op. Runs on a GPU, and (label emu) on the emulated module in every build.
#include "gpu/load_module.hpp"
#include "gpulab/roofs.hpp"

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
  const Result h = run_peak(backend(), PeakSpec{Precision::fp16, 0.005}, quick());
  EXPECT_FALSE(h.ok());
  EXPECT_NE(h.error.find("cuBLAS"), std::string::npos) << h.error;
}

TEST_F(CudaRoofs, EmptyKernelAndElementwiseOp) {
  const Result empty = run_overhead(backend(), OverheadSpec{0, false}, quick());
  ASSERT_TRUE(empty.ok()) << empty.error;
  EXPECT_GT(as_overhead(empty)->per_op_s, 0);
  const Result op = run_overhead(backend(), OverheadSpec{4096 + 3, false}, quick());
  ASSERT_TRUE(op.ok()) << op.error << " " << op.check.message;
  EXPECT_EQ(op.check.checked, 4096 + 3);  // the scalar tail too
  EXPECT_FALSE(run_overhead(backend(), OverheadSpec{0, true}, quick()).ok());  // graphs: not yet
}

}  // namespace

// A GEMM result names the library algorithm its backend chose while making the op (the CUDA module's cuBLASLt
// choice for INT8 and FP8: another cuBLAS may pick another kernel for the same call, so a reader comparing two
// recordings needs it). run_gemm reads the backend's provenance again after the op is made.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"

#include <gtest/gtest.h>

using namespace gpulab;

namespace {

class InstantOp final : public TimedOp {
 public:
  Check verify() override {
    Check c;
    c.passed = true;
    c.checked = 1;
    return c;
  }
  double run_once() override { return 1e-3; }
  double flops() const override { return 2e6; }
  double bytes() const override { return 1e4; }
};

// Like the CUDA backend: its provenance learns the algorithm only when an INT8 op is made.
class ChoosingBackend final : public Backend {
 public:
  std::string kind() const override { return "cuda"; }
  DeviceInfo device_info() const override { return {}; }
  Provenance provenance() const override { return m_prov; }
  std::vector<std::string> gemm_variants() const override { return {"cublas"}; }
  Support supports(const GemmSpec&) const override { return Support::yes(); }
  std::unique_ptr<TimedOp> make_gemm(const GemmSpec& s) override {
    if (s.precision == Precision::int8) m_prov["cublaslt_algo_int8"] = "heuristic algo #1, reduction none";
    return std::make_unique<InstantOp>();
  }
  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec&) override { return nullptr; }
  Support supports(const TransferSpec&) const override { return Support::yes(); }
  std::unique_ptr<TimedOp> make_transfer(const TransferSpec&) override { return nullptr; }
  MemoryInfo memory_info() const override { return {}; }

 private:
  Provenance m_prov{{"device", "a GPU that chooses"}};
};

}  // namespace

TEST(GemmAlgoProvenance, TheResultNamesTheAlgorithmChosenForItsFormatOnly) {
  ChoosingBackend gpu;
  RunContext ctx;
  ctx.policy.min_samples = 1;
  ctx.policy.max_samples = 1;
  ctx.policy.warmup_runs = 0;
  GemmSpec int8;
  int8.m = int8.n = int8.k = 64;
  int8.precision = Precision::int8;
  int8.variant = "cublaslt";
  const Result r = run_gemm(gpu, int8, ctx);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_TRUE(r.provenance.count("cublaslt_algo_int8"));
  EXPECT_EQ(r.provenance.at("cublaslt_algo_int8"), "heuristic algo #1, reduction none");
  GemmSpec fp16 = int8;
  fp16.precision = Precision::fp16;
  fp16.variant = "cublas";
  const Result h = run_gemm(gpu, fp16, ctx);
  EXPECT_EQ(h.provenance.count("cublaslt_algo_fp16"), 0u);
}

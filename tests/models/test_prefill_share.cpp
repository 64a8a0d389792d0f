// The share of the dense FP16 peak a real GEMM reaches, for the decode page's time to first token: measured on the
// chosen card when a result has one, else published for that card, else the H100 SXM's published share, said so.
// Figures: H100 SXM dense FP16 989.4 TFLOP/s (data/gpu-specs.csv); published best-shape BF16 on an H100 SXM
// 794.5 of 989 TFLOP/s = 80.33 %, on an A100 SXM 271.2 of 312 = 86.92 % (stas00/ml-engineering,
// data/reference-results.md).
#include "pages/decode/model/prefill_share.h"

#include "gpulab/models/catalogue.hpp"

#include <gtest/gtest.h>

using namespace decode_page_model;
using gpulab::models::find_gpu;

namespace {
gpulab::Result gemm(const std::string& device, double gflops, gpulab::Precision p = gpulab::Precision::bf16,
                    const std::string& variant = "cublas") {
  gpulab::Result r;
  r.experiment = "gemm";
  r.backend = "cuda";
  r.variant = variant;
  r.precision = p;
  r.params = {{"m", 8192}, {"n", 8192}, {"k", 8192}};
  r.provenance["device"] = device;
  r.check.passed = true;
  r.gflops = gflops;
  r.stats.median_s = 1e-3;
  return r;
}
}  // namespace

TEST(PrefillShare, PublishedForTheCardElseTheH100sSaidSo) {
  const GemmShare h100 = prefillGemmShare({}, *find_gpu("H100 SXM"));
  EXPECT_EQ(h100.kind, GemmShare::Kind::published);
  EXPECT_NEAR(h100.share, 794.5 / 989.0, 1e-12);
  EXPECT_NE(h100.label.find("stas00/ml-engineering"), std::string::npos);
  const GemmShare a100 = prefillGemmShare({}, *find_gpu("A100 80GB SXM4"));
  EXPECT_EQ(a100.kind, GemmShare::Kind::published);
  EXPECT_NEAR(a100.share, 271.2 / 312.0, 1e-12);
  // No published GEMM for an RTX 4090: the H100's share stands in, and says whose it is.
  const GemmShare other = prefillGemmShare({}, *find_gpu("RTX 4090"));
  EXPECT_EQ(other.kind, GemmShare::Kind::assumed);
  EXPECT_NEAR(other.share, 794.5 / 989.0, 1e-12);
  EXPECT_EQ(other.device, "H100 SXM");
}

TEST(PrefillShare, MeasuredOnTheSameCardWins) {
  // A recording's cuBLAS BF16 at 780 TFLOP/s on an H100 SXM: 780 / 989.4 = 78.83 %; the best of two counts.
  const auto slow = gemm("NVIDIA H100 80GB HBM3 SXM", 500e3), fast = gemm("NVIDIA H100 80GB HBM3 SXM", 780e3);
  const GemmShare s = prefillGemmShare({{&slow, 0}, {&fast, 0}}, *find_gpu("H100 SXM"));
  EXPECT_EQ(s.kind, GemmShare::Kind::measured);
  EXPECT_NEAR(s.share, 780e12 / 989.4e12, 1e-12);
  EXPECT_EQ(s.source, 0);
  // Not this card's, not a library GEMM, or FP32: not this card's share.
  const auto otherCard = gemm("NVIDIA A100-SXM4-80GB", 280e3), ownKernel = gemm("NVIDIA H100 80GB HBM3 SXM", 900e3,
                                                                              gpulab::Precision::bf16, "naive");
  const auto fp32 = gemm("NVIDIA H100 80GB HBM3 SXM", 50e3, gpulab::Precision::fp32);
  const GemmShare none = prefillGemmShare({{&otherCard, 0}, {&ownKernel, 0}, {&fp32, 0}}, *find_gpu("H100 SXM"));
  EXPECT_EQ(none.kind, GemmShare::Kind::published);
}

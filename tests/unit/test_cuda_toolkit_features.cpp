// What the CUDA module refuses by the cuBLAS version it runs with (gpu/cuda/toolkit_features.hpp), without CUDA: FP8
// on a T4 (no FP8 hardware), on an L4 with CUDA 12.0 (cuBLASLt 12.0 has no Ada FP8 kernels), and where it runs.
#include "../../gpu/cuda/toolkit_features.hpp"

#include <gtest/gtest.h>

namespace {

using gpulab::cuda::cublaslt_version_text;
using gpulab::cuda::fp8_gemm_refusal;

constexpr std::size_t kCuda12_0 = 120008;  // cuBLAS 12.0.x as cublasLtGetVersion() reports it
constexpr std::size_t kCuda12_1 = 120103;
constexpr std::size_t kCuda13_0 = 130100;

TEST(CudaToolkitFeatures, VersionTextReadsCublasLtNumbers) {
  EXPECT_EQ(cublaslt_version_text(120103), "12.1.3");
  EXPECT_EQ(cublaslt_version_text(130100), "13.1.0");
}

TEST(CudaToolkitFeatures, Fp8RefusedOnTuringAndAmpereWhateverTheToolkit) {
  for (int cc : {75, 80, 86})
    for (std::size_t v : {kCuda12_0, kCuda13_0})
      EXPECT_EQ(fp8_gemm_refusal(cc, v), "FP8 needs compute capability 8.9 or newer") << cc << " " << v;
}

TEST(CudaToolkitFeatures, Fp8OnAdaNeedsCublas12_1) {
  const std::string why = fp8_gemm_refusal(89, kCuda12_0);
  EXPECT_NE(why.find("needs cuBLAS 12.1 or newer"), std::string::npos) << why;
  EXPECT_NE(why.find("cuBLASLt 12.0.8"), std::string::npos) << why;
  EXPECT_EQ(fp8_gemm_refusal(89, kCuda12_1), "");
  EXPECT_EQ(fp8_gemm_refusal(89, kCuda13_0), "");
}

TEST(CudaToolkitFeatures, Fp8OnHopperRunsFromCuda12_0) {
  EXPECT_EQ(fp8_gemm_refusal(90, kCuda12_0), "");
  EXPECT_EQ(fp8_gemm_refusal(90, kCuda13_0), "");
  EXPECT_NE(fp8_gemm_refusal(90, 110800).find("needs cuBLAS 12.0 or newer"), std::string::npos);
}

}  // namespace

// The CUDA backend's peak model (gpu/cuda/peak_model.hpp) against NVIDIA's datasheets: the FP64 peak DGEMM is judged
// against includes the FP64 tensor cores where cuBLAS uses them (A100, H100, H200), so DGEMM can no longer show
// more than 100 % of peak; and the time cap on the slow ladder kernels. Runs without CUDA.
#include "../../gpu/cuda/peak_model.hpp"

#include <gtest/gtest.h>

namespace {

using gpulab::cuda::fp64_peak;

// Datasheet TFLOP/s (dense): FP64 (lanes) and FP64 Tensor Core. SMs and boost clocks as in data/gpu-specs.csv.
struct Card {
  const char* name;
  int major, minor, sms;
  double boost_mhz, fp64_tflops, fp64_tc_tflops;
};
constexpr Card kCards[] = {
    {"A100 SXM4", 8, 0, 108, 1410, 9.7, 19.5},
    {"H100 SXM", 9, 0, 132, 1980, 34, 67},
    {"H200 SXM", 9, 0, 132, 1980, 34, 67},  // compute identical to H100 SXM
    {"H100 PCIe", 9, 0, 114, 1755, 26, 51},
};

TEST(CudaPeakModel, Fp64PeakIncludesTensorCoresWhereTheyExist) {
  for (const Card& c : kCards) {
    const auto p = fp64_peak(c.major, c.minor, c.sms, c.boost_mhz);
    EXPECT_EQ(p.tensor_factor, 2) << c.name;
    EXPECT_NEAR(p.gflops / 1000, c.fp64_tc_tflops, 0.02 * c.fp64_tc_tflops) << c.name;
    EXPECT_NEAR(p.fma_gflops / 1000, c.fp64_tflops, 0.02 * c.fp64_tflops) << c.name;
    EXPECT_NE(p.source.find("tensor cores"), std::string::npos) << p.source;
    EXPECT_NE(p.source.find(std::to_string(c.sms) + " SMs"), std::string::npos) << p.source;
  }
}

TEST(CudaPeakModel, NoFp64TensorCoresNoFactor) {
  // RTX 4090 (8.9, 128 SMs, 2520 MHz): FP64 is 1/64 of FP32, 1.29 TFLOP/s on the datasheet.
  const auto ada = fp64_peak(8, 9, 128, 2520);
  EXPECT_EQ(ada.tensor_factor, 1);
  EXPECT_NEAR(ada.gflops / 1000, 1.29, 0.03);
  EXPECT_EQ(ada.gflops, ada.fma_gflops);
  // V100 (7.0): FP64 lanes, no FP64 tensor cores; Turing (7.5); B200 (10.0): FP64 tensor cores no faster.
  for (auto [major, minor] : {std::pair{7, 0}, std::pair{7, 5}, std::pair{8, 6}, std::pair{10, 0}, std::pair{12, 0}})
    EXPECT_EQ(fp64_peak(major, minor, 80, 1500).tensor_factor, 1) << major << "." << minor;
  EXPECT_NE(fp64_peak(8, 6, 80, 1500).source.find("no FP64 tensor cores"), std::string::npos);
}

TEST(CudaPeakModel, Fp32LanesMatchTheCatalogue) {
  // FP32 peaks in data/gpu-specs.csv: H100/H200 SXM 66.9, A100 19.5 TFLOP/s.
  EXPECT_NEAR(gpulab::cuda::fp32_lanes_per_sm(9, 0) * 2.0 * 132 * 1.980 / 1000, 66.9, 0.1);
  EXPECT_NEAR(gpulab::cuda::fp32_lanes_per_sm(8, 0) * 2.0 * 108 * 1.410 / 1000, 19.5, 0.1);
}

TEST(CudaPeakModel, SlowLadderStepsAreCappedByEstimatedTime) {
  using gpulab::cuda::kMaxLadderRunSeconds;
  using gpulab::cuda::ladder_seconds_estimate;
  auto cube = [](double n) { return 2.0 * n * n * n; };
  const double h200 = 66.9e3, laptop = 20 * 128 * 2 * 1.5;  // GFLOP/s: H200 SXM; a 20-SM laptop part at 1.5 GHz
  // The matmul suite's naive 4096³ still runs on an H200; 8192³ (seconds per run) does not.
  EXPECT_LT(ladder_seconds_estimate("naive", cube(4096), h200), kMaxLadderRunSeconds);
  EXPECT_GT(ladder_seconds_estimate("naive", cube(8192), h200), kMaxLadderRunSeconds);
  // A small GPU stops earlier: naive 4096³ ~2 s per run there.
  EXPECT_GT(ladder_seconds_estimate("naive", cube(4096), laptop), kMaxLadderRunSeconds);
  EXPECT_LT(ladder_seconds_estimate("naive", cube(2048), laptop), kMaxLadderRunSeconds);
  // Faster steps get a higher limit; the tiled steps and cuBLAS are not capped; an unknown peak caps nothing.
  EXPECT_LT(ladder_seconds_estimate("coalesced", cube(4096), laptop), ladder_seconds_estimate("naive", cube(4096), laptop));
  EXPECT_LT(ladder_seconds_estimate("smem", cube(4096), laptop), ladder_seconds_estimate("coalesced", cube(4096), laptop));
  EXPECT_EQ(ladder_seconds_estimate("blocktile2d", cube(16384), laptop), 0);
  EXPECT_EQ(ladder_seconds_estimate("cublas", cube(16384), laptop), 0);
  EXPECT_EQ(ladder_seconds_estimate("naive", cube(16384), 0), 0);
}

}  // namespace

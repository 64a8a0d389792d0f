// The kernel ladder's one table (gpulab/gemm_ladder.hpp): every step's spelling parses back to it, the kernel files
// exist under the names the emulator traces, and each backend's list of steps is what that backend offers.
#include "gpulab/gemm_ladder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

using gpulab::LadderStep;

TEST(GemmLadder, EverySpellingParsesBackToItsStep) {
  std::set<std::string_view> spellings;
  for (const gpulab::LadderStepInfo& s : gpulab::kLadderSteps) {
    EXPECT_EQ(gpulab::ladder_step_of(s.variant), s.id) << s.variant;
    EXPECT_EQ(&gpulab::ladder_step_info(s.id), &s);
    EXPECT_TRUE(spellings.insert(s.variant).second) << "spelled twice: " << s.variant;
    EXPECT_NE(std::string(s.title), "");
    EXPECT_NE(std::string(s.change), "");
  }
  // Recordings written before the table keep opening as the same steps.
  EXPECT_EQ(gpulab::ladder_step_of("smem"), LadderStep::smem);
  EXPECT_EQ(gpulab::ladder_step_of("cublas"), LadderStep::cublas);
  EXPECT_FALSE(gpulab::ladder_step_of("blas").has_value());
  EXPECT_FALSE(gpulab::ladder_step_of("").has_value());
}

TEST(GemmLadder, KernelFilesAreTheOnesInTheTreeInOrder) {
  int number = 0;
  for (const gpulab::LadderStepInfo& s : gpulab::kLadderSteps) {
    if (s.kernel.empty()) {
      EXPECT_EQ(s.number, 0) << s.variant;
      continue;
    }
    EXPECT_EQ(s.number, ++number) << s.variant;  // the CUDA ladder's numbering follows the table's order
    EXPECT_EQ(gpulab::ladder_step_of_kernel(s.kernel), s.id);
    const std::filesystem::path file =
        std::filesystem::path(GPULAB_TEST_DATA_DIR) / "../../gpu/cuda/kernels" / (std::string(s.kernel) + ".cu");
    EXPECT_TRUE(std::filesystem::exists(file)) << file;
  }
  EXPECT_EQ(number, 7);
  EXPECT_FALSE(gpulab::ladder_step_of_kernel("").has_value());
}

TEST(GemmLadder, BackendListsAreTheirSteps) {
  EXPECT_EQ(gpulab::kCudaLadder.front(), LadderStep::naive);
  EXPECT_EQ(gpulab::kCudaLadder.back(), LadderStep::cublas);
  for (LadderStep s : gpulab::kVulkanLadder) EXPECT_FALSE(gpulab::ladder_kernel(s).empty());
  EXPECT_EQ(std::string(gpulab::ladder_step_info(LadderStep::smem).title), "3 smem tiles");
}

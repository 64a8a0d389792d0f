// The lab's GPU timing for real: a known-good kernel file (tests/lab/kernels/right_tiled_16.cu) compiled by the
// toolkit's nvcc together with the harness gpulab ships, and the executable run. Without a CUDA device (CI, this
// project's build machines) it must say so cleanly: exit code 3 and the JSON reason, which proves the harness and
// the student's file compile and link with cuBLAS. With a device it must be checked and timed beside cuBLAS.
// One nvcc build (20-40 s on two cores) and one front-end error (a few seconds). Skips when nvcc is not installed.
#include <gpulab_lab/gpu_timing.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

using gpulab::lab::GpuStatus;
using gpulab::lab::GpuTimingReport;

std::string kernel_path(const std::string& name) { return std::string(GPULAB_LAB_KERNELS_DIR) + "/" + name; }

GpuTimingReport time_file(const std::string& name, int size) {
  std::ifstream in(kernel_path(name));
  std::ostringstream text;
  text << in.rdbuf();
  gpulab::lab::GpuTimingRequest request;
  request.source = text.str();
  request.display_path = name;
  request.size = size;
  request.time_limit_seconds = 120;
  return gpulab::lab::time_on_gpu(request);
}

class GpuBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpulab::lab::find_nvcc().empty()) GTEST_SKIP() << gpulab::lab::nvcc_install_hint();
  }
};

TEST_F(GpuBuild, AKnownGoodKernelBuildsWithTheHarnessAndRuns) {
  const GpuTimingReport r = time_file("right_tiled_16.cu", 1024);
  std::printf("nvcc %s, %s, arch %s%s: compiled in %.1f s, ran in %.2f s; %s: %s\n", r.nvcc_version.c_str(),
              r.nvcc_flags.c_str(), r.arch.c_str(), r.arch_note.empty() ? "" : (" (" + r.arch_note + ")").c_str(),
              r.compile_seconds, r.run_seconds, gpulab::lab::gpu_status_name(r.status), r.reason.c_str());
  ASSERT_TRUE(r.status == GpuStatus::timed || r.status == GpuStatus::no_device)
      << gpulab::lab::gpu_status_name(r.status) << ": " << r.reason << "\n" << r.compiler_output << r.stderr_text;
  EXPECT_FALSE(r.nvcc_version.empty());
  EXPECT_NE(r.nvcc_flags.find("-O3 -arch="), std::string::npos) << r.nvcc_flags;
  EXPECT_GT(r.compile_seconds, 0);
  if (r.status == GpuStatus::no_device) {
    EXPECT_EQ(r.exit_code, gpulab::lab::kTimingExitNoDevice);
    EXPECT_NE(r.reason.find("no CUDA device"), std::string::npos) << r.reason;
    EXPECT_FALSE(r.timed());
    EXPECT_FALSE(r.arch_note.empty()) << "no GPU, yet nvcc's -arch=native was taken: " << r.arch;
    return;
  }
  // A GPU: checked against cuBLAS and timed beside it.
  EXPECT_EQ(r.exit_code, gpulab::lab::kTimingExitTimed);
  ASSERT_TRUE(r.timed());
  ASSERT_TRUE(r.device);
  EXPECT_FALSE(r.device->name.empty());
  EXPECT_TRUE(r.check.passed);
  EXPECT_GT(r.student->gflops, 0);
  EXPECT_GT(r.cublas->gflops, 0);
  EXPECT_GE(r.student->samples, 3);
}

TEST_F(GpuBuild, ACompileErrorIsAtItsLine) {
  const GpuTimingReport r = time_file("compile_error.cu", 256);
  ASSERT_EQ(r.status, GpuStatus::compile_error) << r.reason << "\n" << r.compiler_output;
  EXPECT_EQ(r.line, 8) << r.reason;
  EXPECT_NE(r.reason.find("compile_error.cu:8:"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("colum"), std::string::npos) << r.reason;
}

}  // namespace

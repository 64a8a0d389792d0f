// The lab on kernels written for these tests (tests/lab/kernels/, none a copy of a ladder file): a right kernel
// passes and traces like the step it resembles; each kind of wrong kernel is reported with its reason and line,
// in a child process, and this process carries on.
#include <gpulab_lab/lab.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

using gpulab::lab::LabReport;
using gpulab::lab::Outcome;

std::string kernel_path(const std::string& name) { return std::string(GPULAB_LAB_KERNELS_DIR) + "/" + name; }

LabReport run(const std::string& name, bool trace = false, double time_limit = 20) {
  std::ifstream in(kernel_path(name));
  std::ostringstream text;
  text << in.rdbuf();
  gpulab::lab::LabRequest request;
  request.source = text.str();
  request.display_path = kernel_path(name);
  request.trace = trace;
  request.trace_shape = {64, 64, 64};
  request.time_limit_seconds = time_limit;
  return gpulab::lab::run_lab(request);
}

class Lab : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpulab::lab::find_clang().empty()) GTEST_SKIP() << gpulab::lab::compiler_install_hint();
  }
};

TEST_F(Lab, TiledKernelPassesAndTracesLikeSharedTiles) {
  const LabReport r = run("right_tiled_16.cu", true);
  ASSERT_EQ(r.outcome, Outcome::passed) << r.reason;
  EXPECT_EQ(r.shapes.size(), gpulab::lab::check_shapes().size());
  ASSERT_TRUE(r.trace);
  EXPECT_TRUE(r.trace->check_passed);
  EXPECT_EQ(r.trace->kernel, "tiled16");
  EXPECT_DOUBLE_EQ(r.trace->shared_reuse(), 16.0);  // each staged element read by the 16 threads of a tile row
  ASSERT_TRUE(r.closest);
  EXPECT_EQ(r.closest->step, "03_shared_tiles");
  EXPECT_NE(r.closest->next_change.find("step 4"), std::string::npos);
}

TEST_F(Lab, GridStrideKernelPassesAndTracesLikeCoalesced) {
  const LabReport r = run("right_grid_stride.cu", true);
  ASSERT_EQ(r.outcome, Outcome::passed) << r.reason;
  ASSERT_TRUE(r.closest);
  EXPECT_EQ(r.closest->step, "02_coalesced");
}

TEST_F(Lab, OffByOneEdgeShowsTheCellNobodyWrote) {
  const LabReport r = run("off_by_one_edge.cu");
  ASSERT_EQ(r.outcome, Outcome::wrong) << r.reason;
  ASSERT_FALSE(r.wrong_cells.empty());
  ASSERT_FALSE(r.shapes.empty());
  const gpulab::lab::ShapeCheck& failed = r.shapes.back();
  EXPECT_EQ(r.wrong_cells.front().col, failed.n - 1);  // the last column
  EXPECT_FALSE(r.wrong_cells.front().written);
  EXPECT_NE(r.reason.find("no thread wrote it"), std::string::npos) << r.reason;
}

TEST_F(Lab, MissingBarrierIsARaceAtItsLine) {
  const LabReport r = run("race_no_barrier.cu");
  ASSERT_EQ(r.outcome, Outcome::fault) << r.reason;
  EXPECT_EQ(r.line, 13) << r.reason;  // the read of the tiles
  EXPECT_NE(r.reason.find("__syncthreads"), std::string::npos) << r.reason;
}

TEST_F(Lab, WritePastTheEndIsCaughtAtTheStore) {
  const LabReport r = run("write_past_end.cu");
  ASSERT_EQ(r.outcome, Outcome::fault) << r.reason;
  EXPECT_EQ(r.line, 10) << r.reason;
  EXPECT_NE(r.reason.find("past its end"), std::string::npos) << r.reason;
}

TEST_F(Lab, NullDereferenceIsNamed) {
  const LabReport r = run("null_dereference.cu");
  ASSERT_EQ(r.outcome, Outcome::fault) << r.reason;
  EXPECT_EQ(r.line, 9) << r.reason;
  EXPECT_NE(r.reason.find("null pointer"), std::string::npos) << r.reason;
}

TEST_F(Lab, WildWriteCrashesTheChildNotThisProcess) {
  const LabReport r = run("wild_write.cu");
  ASSERT_EQ(r.outcome, Outcome::crashed) << r.reason;
  EXPECT_NE(r.reason.find("SIGSEGV"), std::string::npos) << r.reason;
  EXPECT_EQ(r.line, 9) << r.reason;
  // This process is still here, and the lab still works.
  EXPECT_EQ(run("right_grid_stride.cu").outcome, Outcome::passed);
}

TEST_F(Lab, EndlessLoopRunsOutOfTimeAtItsLine) {
  const LabReport r = run("endless_loop.cu", false, 2);
  ASSERT_EQ(r.outcome, Outcome::timed_out) << r.reason;
  EXPECT_EQ(r.line, 8) << r.reason;
  EXPECT_NE(r.reason.find("endless loop"), std::string::npos) << r.reason;
}

TEST_F(Lab, CompileErrorIsAtItsLine) {
  const LabReport r = run("compile_error.cu");
  ASSERT_EQ(r.outcome, Outcome::compile_error) << r.reason;
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.front().line, 8);
  EXPECT_NE(r.diagnostics.front().message.find("colum"), std::string::npos);
  EXPECT_EQ(r.line, 8);
}

TEST_F(Lab, MissingLauncherSaysWhatToDefine) {
  const LabReport r = run("no_launcher.cu");
  ASSERT_EQ(r.outcome, Outcome::compile_error) << r.reason;
  EXPECT_NE(r.reason.find("must define void sgemm_student"), std::string::npos) << r.reason;
}

TEST_F(Lab, EachRunHasAFreshSeedUnlessOneIsGiven) {
  gpulab::lab::LabRequest request;
  std::ifstream in(kernel_path("right_grid_stride.cu"));
  std::ostringstream text;
  text << in.rdbuf();
  request.source = text.str();
  request.display_path = "grid_stride.cu";
  request.trace = false;
  request.seed = 42;
  EXPECT_EQ(gpulab::lab::run_lab(request).seed, 42u);
  request.seed.reset();
  const LabReport a = gpulab::lab::run_lab(request);
  const LabReport b = gpulab::lab::run_lab(request);
  EXPECT_EQ(a.outcome, Outcome::passed) << a.reason;
  EXPECT_NE(a.seed, b.seed);
}

}  // namespace

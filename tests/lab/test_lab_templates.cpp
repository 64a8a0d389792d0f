// Each ladder step's own file, made into a lab file (templates.hpp), compiles for the lab, passes its checks and is
// found most like itself: the rewrite keeps the kernel as the ladder has it, and the closest-step measure tells
// the seven steps apart from their traces alone.
#include <gpulab_lab/lab.hpp>
#include <gpulab_lab/templates.hpp>

#include <gtest/gtest.h>

namespace {

class LabTemplate : public ::testing::TestWithParam<const char*> {};

TEST_P(LabTemplate, PassesAndIsMostLikeItsOwnStep) {
  if (gpulab::lab::find_clang().empty()) GTEST_SKIP() << gpulab::lab::compiler_install_hint();
  const std::string step = GetParam();
  gpulab::lab::LabRequest request;
  request.source = gpulab::lab::ladder_template(step);
  ASSERT_FALSE(request.source.empty());
  EXPECT_EQ(request.source.find("GPULAB_"), std::string::npos) << "the template still uses the module's macros";
  EXPECT_NE(request.source.find("<<<"), std::string::npos);
  request.display_path = step + ".cu";
  request.trace_shape = {64, 64, 64};
  const gpulab::lab::LabReport r = gpulab::lab::run_lab(request);
  ASSERT_EQ(r.outcome, gpulab::lab::Outcome::passed) << r.reason << "\n" << r.compiler_output;
  ASSERT_TRUE(r.closest);
  EXPECT_EQ(r.closest->step, step);
  EXPECT_EQ(r.closest->distance, 0.0) << "traced differently from the ladder's own build";
}

INSTANTIATE_TEST_SUITE_P(Ladder, LabTemplate,
                         ::testing::Values("01_naive", "02_coalesced", "03_shared_tiles", "04_blocktile_1d",
                                           "05_blocktile_2d", "06_vectorized", "07_warptile"));

TEST(LabTemplateText, BlankLauncherAndUnknownStep) {
  EXPECT_NE(gpulab::lab::blank_launcher().find("void sgemm_student("), std::string::npos);
  EXPECT_TRUE(gpulab::lab::ladder_template("08_nothing").empty());
}

}  // namespace

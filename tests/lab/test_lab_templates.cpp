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
  // What the lab page draws with the "Inside the kernel" views (who computes what, one warp's load) came back from
  // the child process as the kernel page has it for the same step: every cell's block, warp and lane, and warp 0's
  // first load of A.
  ASSERT_TRUE(r.trace);
  const gpulab::emu::StepTrace* own = nullptr;
  for (const gpulab::emu::StepTrace& t : gpulab::lab::ladder_at(request.trace_shape))
    if (t.step == step) own = &t;
  ASSERT_TRUE(own);
  EXPECT_EQ(r.trace->owner_block, own->owner_block);
  EXPECT_EQ(r.trace->owner_warp, own->owner_warp);
  EXPECT_EQ(r.trace->owner_lane, own->owner_lane);
  const auto first_load_of_a = [](const gpulab::emu::StepTrace& t) -> const gpulab::emu::WarpSample* {
    for (const gpulab::emu::WarpSample& s : t.samples) {
      const gpulab::emu::InstructionTrace& i = t.instructions.at(std::size_t(s.instruction));
      if (s.warp == 0 && i.array == "A" && !i.shared && !i.store) return &s;  // samples are in instruction order
    }
    return nullptr;
  };
  const gpulab::emu::WarpSample* mine = first_load_of_a(*r.trace);
  const gpulab::emu::WarpSample* theirs = first_load_of_a(*own);
  ASSERT_TRUE(mine && theirs);
  EXPECT_EQ(mine->element, theirs->element);
}

INSTANTIATE_TEST_SUITE_P(Ladder, LabTemplate,
                         ::testing::Values("01_naive", "02_coalesced", "03_shared_tiles", "04_blocktile_1d",
                                           "05_blocktile_2d", "06_vectorized", "07_warptile"));

TEST(LabTemplateText, BlankLauncherAndUnknownStep) {
  EXPECT_NE(gpulab::lab::blank_launcher().find("void sgemm_student("), std::string::npos);
  EXPECT_TRUE(gpulab::lab::ladder_template("08_nothing").empty());
}

}  // namespace

// The lab page's model alone: the guided tasks' starting files and verdicts, the Why rows, the roofline model.
#include "pages/lab/model/lab_model.h"

#include <gpulab_lab/templates.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using gpulab::emu::InstructionTrace;
using gpulab::emu::StepTrace;
using lab_model::Task;
using lab_model::Verdict;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A trace with one global load instruction of `sectors` sectors over `requests` requests, at 64³.
StepTrace trace(const std::string& step, long long requests, long long sectors) {
  StepTrace t;
  t.step = step;
  t.kernel = step + "_kernel";
  t.shape = {64, 64, 64};
  t.grid[0] = 2, t.grid[1] = 64, t.block[0] = 32;
  InstructionTrace load;
  load.name = "load B";
  load.array = "B";
  load.requests = requests;
  load.thread_accesses = 32 * requests;
  load.sectors = sectors;
  load.bytes_used = 32 * sectors;
  t.instructions = {load};
  t.check_passed = true;
  return t;
}

gpulab::lab::LabReport passed_like(const std::string& closest, const StepTrace& t) {
  gpulab::lab::LabReport r;
  r.outcome = gpulab::lab::Outcome::passed;
  r.trace = t;
  r.closest = gpulab::lab::Closest{0, closest, 0, ""};
  return r;
}

TEST(LabModel, BugTasksStartFromTheRealStepsWithOneThingRemoved) {
  const std::string three = gpulab::lab::ladder_template("03_shared_tiles");
  const std::string barrier = lab_model::task_source(Task::fix_barrier);
  EXPECT_EQ(count(barrier, "__syncthreads()"), count(three, "__syncthreads()") - 1);
  const std::string edge = lab_model::task_source(Task::fix_edge);
  EXPECT_EQ(edge.find("row >= m || col >= n"), std::string::npos);
  EXPECT_NE(gpulab::lab::ladder_template("02_coalesced").find("row >= m || col >= n"), std::string::npos);
  for (Task t : lab_model::tasks()) EXPECT_NE(lab_model::task_source(t).find("sgemm_student"), std::string::npos);
}

TEST(LabModel, CoalesceIsDoneOnlyWhenItTracesLikeStepTwo) {
  const StepTrace t = trace("student", 100, 250);
  EXPECT_EQ(lab_model::judge(Task::coalesce, passed_like("01_naive", t), {}).verdict, Verdict::not_yet);
  EXPECT_EQ(lab_model::judge(Task::coalesce, passed_like("02_coalesced", t), {}).verdict, Verdict::done);
  gpulab::lab::LabReport wrong = passed_like("02_coalesced", t);
  wrong.outcome = gpulab::lab::Outcome::wrong;
  EXPECT_EQ(lab_model::judge(Task::coalesce, wrong, {}).verdict, Verdict::not_right);
}

TEST(LabModel, BeatStepThreeComparesBytesPerFlop) {
  const std::vector<StepTrace> ladder = {trace("02_coalesced", 100, 1000), trace("03_shared_tiles", 100, 400)};
  const auto fewer = lab_model::judge(Task::beat_step3, passed_like("04_blocktile_1d", trace("s", 100, 300)), ladder);
  EXPECT_EQ(fewer.verdict, Verdict::done);
  EXPECT_LT(fewer.student_bytes_per_flop, fewer.target_bytes_per_flop);
  const auto same = lab_model::judge(Task::beat_step3, passed_like("03_shared_tiles", trace("s", 100, 400)), ladder);
  EXPECT_EQ(same.verdict, Verdict::not_yet);
}

TEST(LabModel, WhyRowsPutTheStudentLastAndMarkTheClosestStep) {
  const std::vector<StepTrace> ladder = {trace("01_naive", 100, 1600), trace("02_coalesced", 100, 250)};
  const auto rows = lab_model::why_rows(ladder, passed_like("02_coalesced", trace("s", 100, 250)));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_FALSE(rows[0].closest);
  EXPECT_TRUE(rows[1].closest);
  EXPECT_TRUE(rows[2].student);
  EXPECT_DOUBLE_EQ(rows[2].sectors_per_request, 2.5);
  EXPECT_DOUBLE_EQ(rows[2].cells_per_thread, 1.0);  // 64×64 cells, 2×64 blocks of 32 threads
}

TEST(LabModel, RooflinePlaceIsMinOfRoofAndBandwidthTimesIntensity) {
  const StepTrace t = trace("s", 1, 4096);  // 4096 sectors × 32 B over 2·64³ FLOPs = 0.25 B/FLOP
  const auto p = lab_model::roofline_place(t, 80, 1000);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->intensity, 4.0);
  EXPECT_DOUBLE_EQ(p->attainable_tflops, 4.0);  // 4 FLOP/B × 1 TB/s
  EXPECT_TRUE(p->memory_bound);
  EXPECT_FALSE(lab_model::roofline_place(t, 0, 1000));
}

TEST(LabModel, RoofPointsPlaceEveryStepAndTheStudentUnderOneCard) {
  // 1600 sectors per 2·64³ FLOPs is 0.098 B/FLOP (10.2 FLOP/B); 250 sectors is 65.5 FLOP/B; the card's ridge is 80.
  const std::vector<StepTrace> ladder = {trace("01_naive", 100, 1600), trace("02_coalesced", 100, 250)};
  const auto points = lab_model::roof_points(ladder, passed_like("02_coalesced", trace("s", 100, 40)), 80, 1000);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].name, "01_naive");
  EXPECT_TRUE(points[0].place.memory_bound);
  EXPECT_LT(points[0].place.attainable_tflops, points[1].place.attainable_tflops);
  EXPECT_TRUE(points[2].student);
  EXPECT_FALSE(points[2].place.memory_bound);  // 40 sectors: 409.6 FLOP/B, past the ridge
  EXPECT_DOUBLE_EQ(points[2].place.attainable_tflops, 80);
  // No trace of the student's kernel (it failed to compile): the ladder alone.
  gpulab::lab::LabReport failed;
  EXPECT_EQ(lab_model::roof_points(ladder, failed, 80, 1000).size(), 2u);
}

}  // namespace

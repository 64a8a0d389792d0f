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

// A 4×4 C written by one block of two warps, as step 1 (lanes down a column) or step 2 (lanes along a row) would.
StepTrace owners(bool lanes_along_rows) {
  StepTrace t = trace("s", 1, 1);
  t.shape = {4, 4, 4};
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      const int lane = lanes_along_rows ? c : r, warp = (lanes_along_rows ? r : c) / 2;
      t.owner_block.push_back(0);
      t.owner_warp.push_back(warp);
      t.owner_lane.push_back(lane + 4 * ((lanes_along_rows ? r : c) % 2));
    }
  return t;
}

TEST(LabModel, WarpCoverSaysWhetherAWarpTakesARowOrAColumnOfC) {
  // Lanes along a row: warp 0 is rows 0 and 1 (a patch of two rows); in a 1-row block it is a row.
  const lab_model::WarpCover rows = lab_model::warp_cover(owners(true), 0, 0);
  EXPECT_EQ(rows.cells, 8);
  EXPECT_EQ(rows.shape, lab_model::WarpCover::Shape::patch);
  StepTrace one_row = owners(true);
  for (std::size_t i = 0; i < one_row.owner_warp.size(); ++i) one_row.owner_warp[i] = int(i / 4);  // a warp a row
  const lab_model::WarpCover row = lab_model::warp_cover(one_row, 0, 1);
  EXPECT_EQ(row.shape, lab_model::WarpCover::Shape::row);
  EXPECT_EQ(row.row0, 1);
  EXPECT_EQ(row.col0, 0);
  EXPECT_EQ(row.col1, 3);
  StepTrace one_col = owners(false);
  for (std::size_t i = 0; i < one_col.owner_warp.size(); ++i) one_col.owner_warp[i] = int(i % 4);  // a warp a column
  const lab_model::WarpCover col = lab_model::warp_cover(one_col, 0, 2);
  EXPECT_EQ(col.shape, lab_model::WarpCover::Shape::column);
  EXPECT_EQ(col.col0, 2);
  EXPECT_EQ(col.row0, 0);
  EXPECT_EQ(col.row1, 3);
  EXPECT_EQ(col.cells, 4);
  // A warp that wrote nothing, and a trace without owners (a kernel that never ran to the end).
  EXPECT_EQ(lab_model::warp_cover(one_col, 0, 9).shape, lab_model::WarpCover::Shape::none);
  EXPECT_EQ(lab_model::warp_cover(trace("s", 1, 1), 0, 0).cells, 0);
}

TEST(LabModel, FirstGlobalLoadIsTheFirstSampledLoadOfThatArray) {
  StepTrace t = trace("s", 1, 1);  // instruction 0: load B
  InstructionTrace a = t.instructions[0];
  a.name = "load A";
  a.array = "A";
  InstructionTrace shared_a = a;
  shared_a.name = "load As";
  shared_a.array = "As";
  shared_a.shared = true;
  InstructionTrace store_a = a;
  store_a.name = "store A";
  store_a.store = true;
  t.instructions = {t.instructions[0], store_a, shared_a, a, a};
  for (int i : {0, 1, 2, 3, 4}) {
    gpulab::emu::WarpSample s;
    s.instruction = i;
    s.warp = i == 3 ? 1 : 0;  // the first load of A ran in warp 1 only
    t.samples.push_back(s);
  }
  EXPECT_EQ(lab_model::first_global_load(t, "B", 0), 0);
  EXPECT_EQ(lab_model::first_global_load(t, "A", 0), 4);  // not the store, not the shared tile, not warp 1's
  EXPECT_EQ(lab_model::first_global_load(t, "A", 1), 3);
  EXPECT_EQ(lab_model::first_global_load(t, "C", 0), -1);
}

// Time on GPU: numbers only from a timed report; the share of a measured FMA peak only when one was measured.
gpulab::lab::GpuTimingReport timed_report(double student_gflops, double cublas_gflops) {
  gpulab::lab::GpuTimingReport r;
  r.status = gpulab::lab::GpuStatus::timed;
  r.device = gpulab::lab::GpuDevice{};
  r.device->name = "NVIDIA H100 80GB HBM3";
  r.m = r.n = r.k = 4096;
  r.check.done = r.check.passed = true;
  r.student = gpulab::lab::GpuTiming{};
  r.student->gflops = student_gflops;
  r.student->median_s = 2.0 * 4096 * 4096 * 4096 / (student_gflops * 1e9);
  r.cublas = gpulab::lab::GpuTiming{};
  r.cublas->gflops = cublas_gflops;
  r.cublas->median_s = 2.0 * 4096 * 4096 * 4096 / (cublas_gflops * 1e9);
  return r;
}

TEST(LabModel, GpuSpeedOfATimedReport) {
  const lab_model::GpuSpeed s = lab_model::gpu_speed(timed_report(5000, 50000), true, 0);
  EXPECT_TRUE(s.measured);
  EXPECT_FALSE(s.stale);
  EXPECT_EQ(s.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s.m, 4096);
  EXPECT_DOUBLE_EQ(s.student_gflops, 5000);
  EXPECT_DOUBLE_EQ(s.cublas_gflops, 50000);
  EXPECT_DOUBLE_EQ(s.share_of_cublas, 0.1);
  EXPECT_EQ(s.peak_gflops, 0);  // none measured: no share of a peak
  EXPECT_EQ(s.share_of_peak, 0);

  const lab_model::GpuSpeed p = lab_model::gpu_speed(timed_report(5000, 50000), false, 60000);
  EXPECT_TRUE(p.stale);
  EXPECT_DOUBLE_EQ(p.peak_gflops, 60000);
  EXPECT_NEAR(p.share_of_peak, 5000.0 / 60000, 1e-12);
  EXPECT_FALSE(p.above_peak);
  EXPECT_TRUE(lab_model::gpu_speed(timed_report(70000, 50000), true, 60000).above_peak);
}

TEST(LabModel, GpuSpeedOfAReportNotTimedCarriesNoNumbers) {
  for (const gpulab::lab::GpuStatus status : {gpulab::lab::GpuStatus::no_device, gpulab::lab::GpuStatus::wrong,
                                              gpulab::lab::GpuStatus::failed, gpulab::lab::GpuStatus::cancelled}) {
    gpulab::lab::GpuTimingReport r = timed_report(5000, 50000);  // numbers present, status not timed
    r.status = status;
    r.reason = "why";
    const lab_model::GpuSpeed s = lab_model::gpu_speed(r, true, 60000);
    EXPECT_FALSE(s.measured);
    EXPECT_EQ(s.reason, "why");
    EXPECT_EQ(s.student_gflops, 0);
    EXPECT_EQ(s.cublas_gflops, 0);
    EXPECT_EQ(s.share_of_peak, 0);
  }
}

}  // namespace

// The precision page's model: rows from typed results of the precision plan only.
#include "pages/precision/model/precision_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using gpulab::Precision;
using namespace precision_model;

namespace {
gpulab::Result gemm(Precision p, double gflops, std::string plan, std::string variant = "blas") {
  gpulab::Result r;
  r.experiment = "gemm";
  r.backend = "cpu";
  r.variant = std::move(variant);
  r.plan = std::move(plan);
  r.precision = p;
  r.params = {{"m", 1024}, {"n", 1024}, {"k", 1024}};
  r.check.passed = true;
  r.check.checked = 10;
  r.check.max_abs_err = 1e-5;
  r.gflops = gflops;
  return r;
}
}  // namespace

TEST(PrecisionModel, ARecordingDrawsOnlyWhatThePrecisionPlanMeasured) {
  auto rows = initialRows();
  const gpulab::Result mine = gemm(Precision::fp32, 100, gpulab::plan_name::precision);
  const gpulab::Result matmul = gemm(Precision::fp32, 900, gpulab::plan_name::matmul);  // faster, another plan's
  const auto sources = applyRecorded(rows, {{&matmul, 0}, {&mine, 1}});
  const Row& fp32 = rowOf(rows, Precision::fp32);
  ASSERT_EQ(fp32.recorded.size(), 1u);
  EXPECT_DOUBLE_EQ(fp32.recorded[0].flops, 100e9);
  EXPECT_EQ(fp32.recorded[0].source, 1);
  EXPECT_DOUBLE_EQ(recordedFlops(fp32, 0), 0);  // the first recording's is another plan's GEMM
  EXPECT_EQ(sources, std::vector<int>{1});
}

TEST(PrecisionModel, ARecordingFromBeforePlansStillDrawsItsLibraryGemms) {
  auto rows = initialRows();
  const gpulab::Result legacy = gemm(Precision::fp64, 50, "");
  const gpulab::Result naive = gemm(Precision::fp64, 900, "", "naive");
  applyRecorded(rows, {{&legacy, 0}, {&naive, 0}});
  EXPECT_DOUBLE_EQ(recordedFlops(rowOf(rows, Precision::fp64), 0), 50e9);
}

TEST(PrecisionModel, TwoRecordingsAreTwoSourcesEachWithItsOwnRate) {
  auto rows = initialRows();
  // The second recording's machine is half as fast: its slower FP64 is still its own bar, never hidden by the
  // first's; each recording keeps its own fastest run.
  const gpulab::Result second64 = gemm(Precision::fp64, 52, gpulab::plan_name::precision);
  const gpulab::Result first64 = gemm(Precision::fp64, 104, gpulab::plan_name::precision);
  const gpulab::Result first64Slower = gemm(Precision::fp64, 90, gpulab::plan_name::precision);
  gpulab::Result second32 = gemm(Precision::fp32, 200, gpulab::plan_name::precision);
  second32.backend = "cuda";  // only the second ran FP32, on a GPU
  const auto sources = applyRecorded(rows, {{&second64, 1}, {&first64, 0}, {&first64Slower, 0}, {&second32, 1}});
  EXPECT_EQ(sources, (std::vector<int>{0, 1}));
  const Row& fp64 = rowOf(rows, Precision::fp64);
  ASSERT_EQ(fp64.recorded.size(), 2u);
  EXPECT_EQ(fp64.recorded[0].source, 0);  // in source order, whatever the order of the results
  EXPECT_DOUBLE_EQ(fp64.recorded[0].flops, 104e9);
  EXPECT_EQ(fp64.recorded[1].source, 1);
  EXPECT_DOUBLE_EQ(fp64.recorded[1].flops, 52e9);
  EXPECT_FALSE(fp64.recorded[1].onGpu);
  const Row& fp32 = rowOf(rows, Precision::fp32);
  ASSERT_EQ(fp32.recorded.size(), 1u);
  EXPECT_EQ(fp32.recorded[0].source, 1);
  EXPECT_DOUBLE_EQ(recordedFlops(fp32, 1), 200e9);
  EXPECT_TRUE(fp32.recorded[0].onGpu);
  EXPECT_DOUBLE_EQ(recordedFlops(fp32, 0), 0);
  // Applying again starts afresh (a recording closed): no bar of the old set stays.
  applyRecorded(rows, {{&second64, 1}});
  EXPECT_EQ(rowOf(rows, Precision::fp64).recorded.size(), 1u);
  EXPECT_TRUE(rowOf(rows, Precision::fp32).recorded.empty());
}

TEST(PrecisionModel, MeasuredResultsFillTheirRowAndOnlyARunnableFormatsFailureIsAnError) {
  auto rows = initialRows();
  rowOf(rows, Precision::fp32).supported = true;
  EXPECT_FALSE(applyMeasured(rows, gemm(Precision::fp32, 80, "precision")));
  EXPECT_DOUBLE_EQ(rowOf(rows, Precision::fp32).flopsPerS, 80e9);
  EXPECT_DOUBLE_EQ(rowOf(rows, Precision::fp32).checkMaxAbs, 1e-5);
  gpulab::Result note = gemm(Precision::fp8, 0, "precision");
  note.error = "no FP8 on this CPU";
  EXPECT_FALSE(applyMeasured(rows, note));  // the row already says why
  gpulab::Result failed = gemm(Precision::fp32, 0, "precision");
  failed.error = "out of memory";
  EXPECT_EQ(applyMeasured(rows, failed).value_or(""), "out of memory");
}

TEST(PrecisionModel, VerdictsFollowTheRows) {
  auto rows = initialRows();
  EXPECT_EQ(speedVerdict(rows).kind, SpeedVerdict::Kind::nothing);
  rowOf(rows, Precision::fp64).flopsPerS = 50;  // mid-run: FP64 has run, FP32 not yet
  EXPECT_EQ(speedVerdict(rows).kind, SpeedVerdict::Kind::fastestOnly);
  EXPECT_EQ(speedVerdict(rows).best, Precision::fp64);
  rowOf(rows, Precision::fp32).flopsPerS = 100;
  rowOf(rows, Precision::fp64).flopsPerS = 50;
  EXPECT_EQ(speedVerdict(rows).kind, SpeedVerdict::Kind::fp32WithFp64);
  rowOf(rows, Precision::fp16).flopsPerS = 400;
  const SpeedVerdict v = speedVerdict(rows);
  EXPECT_EQ(v.kind, SpeedVerdict::Kind::fasterThanFp32);
  EXPECT_EQ(v.best, Precision::fp16);
  EXPECT_EQ(fp32Guard(rows, 0).kind, Fp32Guard::Kind::unknown);
  EXPECT_EQ(fp32Guard(rows, 99).kind, Fp32Guard::Kind::withinPeak);  // 1 % over: the peak's own noise
  EXPECT_EQ(fp32Guard(rows, 90).kind, Fp32Guard::Kind::abovePeak);
}

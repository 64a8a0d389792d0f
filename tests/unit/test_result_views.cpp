// The typed views (result_views.hpp) read what the writers write, and the recording keeps each result's plan.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/precision_error.hpp"
#include "gpulab/recording.hpp"
#include "gpulab/result_views.hpp"

#include <gtest/gtest.h>

using namespace gpulab;

namespace {
MeasurePolicy tiny() {
  MeasurePolicy p;
  p.min_samples = 1;
  p.max_samples = 2;
  p.warmup_runs = 0;
  p.time_budget_s = 0.01;
  return p;
}
}  // namespace

TEST(ResultViews, GemmAndBandwidthReadWhatTheirWritersWrote) {
  auto cpu = make_cpu_backend();
  RunContext ctx;
  ctx.policy = tiny();
  GemmSpec g;
  g.m = 16;
  g.n = 24;
  g.k = 8;
  g.variant = "blas";
  g.threads = 1;
  const Result gr = run_gemm(*cpu, g, ctx);
  const auto gv = as_gemm(gr);
  ASSERT_TRUE(gv);
  EXPECT_EQ(gv->m, 16);
  EXPECT_EQ(gv->n, 24);
  EXPECT_EQ(gv->k, 8);
  EXPECT_EQ(gv->threads, 1);
  EXPECT_TRUE(gv->library);
  EXPECT_FALSE(gv->head.on_gpu);
  EXPECT_FALSE(as_bandwidth(gr));

  BandwidthSpec b;
  b.kind = "copy";
  b.bytes_per_array = 1u << 20;
  b.threads = 1;
  const auto bv = as_bandwidth(run_bandwidth(*cpu, b, ctx));
  ASSERT_TRUE(bv);
  EXPECT_EQ(bv->bytes_per_array, double(1u << 20));  // the size asked for, under the one name the writer uses
  EXPECT_EQ(bv->kernel, StreamKernel::copy);
  EXPECT_FALSE(as_gemm(run_bandwidth(*cpu, b, ctx)));

  PrecisionErrorSpec e;
  e.m = e.n = 8;
  e.k = 64;
  e.precision = Precision::bf16;
  const auto ev = as_precision_error(emulated_error_result(e));
  ASSERT_TRUE(ev);
  EXPECT_GT(ev->rel_frobenius, 0);
  EXPECT_EQ(ev->head.precision, Precision::bf16);
}

TEST(ResultViews, TheRecordingKeepsEachResultsPlan) {
  Recording rec;
  rec.context["suite"] = "all";
  Result r;
  r.experiment = "gemm";
  r.backend = "cpu";
  r.variant = "blas";
  r.plan = "batch";
  r.params = {{"m", 32}, {"n", 4096}, {"k", 4096}};
  rec.results.push_back(r);
  const Recording back = parse_recording(to_json_text(rec));
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].plan, "batch");
  EXPECT_TRUE(schema_problems(back).empty());
}

TEST(ResultViews, AnOldRecordingOfOneSuiteReadsItsSuiteAsThePlan) {
  const std::string old = R"({"format":"gpulab-recording","version":1,"context":{"suite":"batch"},"results":[
    {"experiment":"gemm","backend":"cpu","variant":"blas","precision":"fp32","params":{"m":1,"n":8,"k":8},
     "check":{"passed":true,"max_abs_err":0,"max_rel_err":0,"first_bad_index":-1,"checked":1,"message":""},
     "stats":{"median_s":1,"min_s":1,"max_s":1,"mean_s":1,"rel_spread":0,"n":0}}]})";
  EXPECT_EQ(parse_recording(old).results.at(0).plan, "batch");
  std::string all = old;
  all.replace(all.find("\"batch\""), 7, "\"all\"");
  EXPECT_EQ(parse_recording(all).results.at(0).plan, "");  // cannot say: left empty, never guessed
}

TEST(ResultViews, TheSchemaCheckNamesAResultThatDoesNotReadAsItsKind) {
  Recording rec;
  Result r;
  r.experiment = "bandwidth";
  r.backend = "cpu";
  r.variant = "triad";
  r.check.passed = true;
  r.params = {{"bytes_per_array", 1024}};  // the drifted name: nothing writes it, nothing reads it
  rec.results.push_back(r);
  Result unknown = r;
  unknown.experiment = "teleport";
  rec.results.push_back(unknown);
  const auto problems = schema_problems(rec);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("bytes"), std::string::npos);
  EXPECT_NE(problems[1].find("no typed view"), std::string::npos);
}

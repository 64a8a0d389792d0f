// Plans (gpulab/plan.hpp, page_plans.hpp): run_plan stamps each result with its plan, turns a throwing job into an
// error result and goes on, stops between jobs when cancelled; a suite is the plan its page builds by default.
#include "gpulab/backend.hpp"
#include "gpulab/decode_experiments.hpp"
#include "gpulab/page_plans.hpp"
#include "gpulab/plan.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/suites.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

using namespace gpulab;

namespace {

struct Cpu {
  std::unique_ptr<Backend> cpu = make_cpu_backend();
  Backends backends() { return {cpu.get(), nullptr, "no GPU in this test"}; }
};

MeasurePolicy tiny() {
  MeasurePolicy p;
  p.min_samples = 1;
  p.max_samples = 2;
  p.warmup_runs = 0;
  p.time_budget_s = 0.01;
  return p;
}

std::multiset<std::string> keys(const Plan& plan) {
  std::multiset<std::string> out;
  for (const auto& j : plan.jobs) out.insert(job_key(j));
  return out;
}

}  // namespace

TEST(Plans, RunPlanStampsThePlanOnEveryResultAndKeepsGoingPastAThrow) {
  Cpu c;
  PlanBuilder b("test-plan");
  b.gemm(*c.cpu, 32, 32, 32, "naive", Precision::fp32);
  b.add({{}, "a job that throws", 1, c.cpu.get(), "gemm", "broken", Precision::fp32, {{"m", 1}},
         [](const RunContext&) -> std::vector<Result> { throw std::runtime_error("device fell over"); }});
  b.bandwidth(*c.cpu, "triad", 1u << 20, 1);
  const Plan plan = b.take();
  RunContext ctx;
  ctx.policy = tiny();
  std::vector<Result> seen;
  std::vector<double> fractions;
  ctx.on_result = [&](const Result& r) { seen.push_back(r); };
  ctx.on_progress = [&](const Progress& p) { fractions.push_back(p.fraction); };
  const std::vector<Result> rs = run_plan(plan, ctx);
  ASSERT_EQ(rs.size(), 3u);
  ASSERT_EQ(seen.size(), 3u);  // each result handed over once, though run_gemm also reports it itself
  for (const auto& r : rs) EXPECT_EQ(r.plan, "test-plan");
  EXPECT_TRUE(rs[0].ok());
  EXPECT_NE(rs[1].error.find("device fell over"), std::string::npos);
  EXPECT_EQ(rs[1].variant, "broken");
  EXPECT_TRUE(rs[2].ok());
  for (double f : fractions) {
    EXPECT_GE(f, 0.0);
    EXPECT_LE(f, 1.0 + 1e-9);
  }
  // Every job's key matches the key of the result it made: a plan says what it will measure.
  for (std::size_t i = 0; i < plan.jobs.size(); ++i)
    EXPECT_EQ(job_key(plan.jobs[i]), result_key(rs[i], plan.jobs[i].params)) << plan.jobs[i].label;
}

TEST(Plans, ACancelledPlanRunsNothingMore) {
  Cpu c;
  PlanBuilder b("p");
  b.gemm(*c.cpu, 32, 32, 32, "naive", Precision::fp32);
  std::stop_source stop;
  stop.request_stop();
  RunContext ctx;
  ctx.policy = tiny();
  ctx.stop = stop.get_token();
  EXPECT_TRUE(run_plan(b.take(), ctx).empty());
}

TEST(Plans, EverySuiteIsAPlanWhoseJobsCarryItsName) {
  Cpu c;
  for (const auto& s : suites()) {
    const Plan plan = suite_plan(s.name, c.backends());
    EXPECT_FALSE(plan.jobs.empty()) << s.name;
    for (const auto& j : plan.jobs) {
      EXPECT_FALSE(j.plan.empty()) << s.name << ": " << j.label;
      if (s.name != "all") EXPECT_EQ(j.plan, s.name) << j.label;
    }
  }
  EXPECT_THROW(suite_plan("no-such-suite", c.backends()), std::invalid_argument);
}

TEST(Plans, ThePrecisionSuiteIsThePrecisionPagesDefaultPlan) {
  Cpu c;
  EXPECT_EQ(keys(suite_plan("precision", c.backends())), keys(precision_plan(c.backends(), PrecisionControls{})));
  // Not trivially so: other controls make another plan.
  PrecisionControls other;
  other.n = 256;
  EXPECT_NE(keys(suite_plan("precision", c.backends())), keys(precision_plan(c.backends(), other)));
}

TEST(Plans, PrecisionPlanRunsEveryFormatTheCpuHasAndNotesTheRest) {
  Cpu c;
  PrecisionControls small;
  small.n = 64;
  small.underflow = false;
  const Plan plan = precision_plan(c.backends(), small);
  RunContext ctx;
  ctx.policy = tiny();
  const std::vector<Result> rs = run_plan(plan, ctx);
  ASSERT_EQ(rs.size(), plan.jobs.size());
  int gemm_ok = 0, notes = 0, errors = 0;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    EXPECT_EQ(result_key(rs[i], plan.jobs[i].params), job_key(plan.jobs[i]));
    if (rs[i].experiment == "gemm") (rs[i].ok() ? gemm_ok : notes)++;
    if (rs[i].experiment == "precision_error") ++errors;
  }
  EXPECT_GE(gemm_ok, 2);  // FP32 and FP64 at least
  EXPECT_EQ(gemm_ok + notes, 7);
  EXPECT_EQ(errors, 7);
}

// The decode plan ends with the prompt's prefill: the chain at a batch of the prompt's tokens, on the CPU through one
// layer and capped to prefill_cpu_max_flops a pass. By hand: the 7B layer holds 4096·12288 + 4096·4096 + 2·4096·11008
// + 11008·4096 = 202,375,168 weights, 2 FLOPs each per token: 50e9 / 404,750,336 = 123.5 -> 123 of a 1,000-token
// prompt; the small layer (12,845,056 weights) 1,946; the tiny one (790,528) takes all 1,000.
TEST(Plans, DecodePlanEndsWithThePromptsPrefillCappedOnTheCpu) {
  Cpu c;
  EXPECT_EQ(prefill_chain_batch(layer_chain_for(TransformerShape{}, 1, 1, Precision::fp32), 1000, prefill_cpu_max_flops), 123);
  EXPECT_EQ(prefill_chain_batch(layer_chain_for(TransformerShape{1024, 8, 8, 128, 2816, 32}, 1, 1, Precision::fp32),
                                5000, prefill_cpu_max_flops),
            1946);
  EXPECT_EQ(prefill_chain_batch(layer_chain_for(TransformerShape{}, 1, 1, Precision::fp32), 50, prefill_cpu_max_flops), 50);
  const Plan seven = decode_plan(c.backends(), DecodeControls{});
  ASSERT_FALSE(seven.jobs.empty());
  const PlanJob& last = seven.jobs.back();
  EXPECT_EQ(last.params.at("batch"), 123);
  EXPECT_EQ(last.params.at("layers"), 1);
  EXPECT_EQ(last.params.at("prompt_tokens"), 1000);
  EXPECT_NE(last.label.find("prompt 123 of 1000 tokens"), std::string::npos) << last.label;
  // A one-token prompt is a decode step: no prefill job.
  DecodeControls none;
  none.prompt_tokens = 1;
  EXPECT_EQ(decode_plan(c.backends(), none).jobs.size(), seven.jobs.size() - 1);

  // Run the tiny layer's prefill: its result carries the prompt, so the page tells it from a decode step.
  DecodeControls tinyControls;
  tinyControls.shape = TransformerShape{256, 4, 4, 64, 688, 32};
  tinyControls.max_users = 1;
  tinyControls.prompt_tokens = 200;
  tinyControls.triad_bytes = 1u << 20;
  Plan p = decode_plan(c.backends(), tinyControls);
  Plan only;
  only.name = p.name;
  only.jobs.push_back(p.jobs.back());
  RunContext ctx;
  ctx.policy = tiny();
  const std::vector<Result> rs = run_plan(only, ctx);
  ASSERT_EQ(rs.size(), 1u);
  ASSERT_TRUE(rs[0].ok()) << rs[0].error;
  const auto view = as_layer_chain(rs[0]);
  ASSERT_TRUE(view.has_value());
  EXPECT_TRUE(view->prefill());
  EXPECT_EQ(view->users, 200);
  EXPECT_EQ(view->prompt_tokens, 200);
  EXPECT_EQ(result_key(rs[0], only.jobs[0].params), job_key(only.jobs[0]));
}

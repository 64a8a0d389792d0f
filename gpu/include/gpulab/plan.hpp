#pragma once
// A plan: what one press of Run (a page's) or one `gpulab bench --suite NAME` measures, as a list of jobs planned
// before anything runs, so progress is a true fraction of the whole and a cancelled or failed job is one place's
// concern. A page turns its controls into a plan with a plan builder (page_plans.hpp); the bench's suite of the
// same name is the plan that builder makes for the page's default controls. run_plan executes any plan.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/results.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gpulab {

struct Backends {
  Backend* cpu = nullptr;   // always present
  Backend* gpu = nullptr;   // the chosen GPU (CUDA or Vulkan); null when none, gpu_reason says why
  std::string gpu_reason;
};

struct PlanJob {
  std::string plan;   // the plan it belongs to: stamped on every result it makes
  std::string label;  // shown while it runs: "gemm blas fp32 512³ (1 thread)"
  double weight = 1;  // a rough share of the plan's time, for the progress bar
  // What the job measures: the key a page's plan and a bench suite are compared by, and the error result's
  // fields when the job throws.
  Backend* backend = nullptr;
  std::string experiment, variant;
  Precision precision = Precision::fp32;
  Params params;
  // Runs the job. Results the experiment hands to ctx.on_result as it goes (a memory hold's steps, each thread
  // count of the Amdahl ladder) are the job's results; when it hands none, the returned ones are.
  std::function<std::vector<Result>(const RunContext&)> run;
  // What a time estimate needs that the key leaves out (a memory hold's steps and pauses): read by the plan
  // estimate (plan_estimate.hpp), never by the run. Not part of job_key: a page and its suite may differ here.
  Params estimate_hints{};
};

struct Plan {
  std::string name;
  std::vector<PlanJob> jobs;
  void append(Plan other);  // keeps each job's own plan name
  double total_weight() const;
};

// A job that makes exactly one result (a job returns a vector: some make one per size or per step).
inline std::vector<Result> one_result(Result r) { return {std::move(r)}; }
// Plans size their arrays in binary megabytes.
inline constexpr std::size_t kMiB = std::size_t{1} << 20;

// Builds jobs for one plan. Each method adds one job (or a note: an error result saying why something that
// belongs to the plan cannot run here, so the recording shows the gap instead of hiding it).
class PlanBuilder {
 public:
  explicit PlanBuilder(std::string plan_name) { m_plan.name = std::move(plan_name); }

  void gemm(Backend& b, long long m, long long n, long long k, const std::string& variant, Precision p,
            int threads = 0);
  void bandwidth(Backend& b, const std::string& kind, std::size_t bytes, int threads = 0);
  void transfer(Backend& b, const std::string& direction, bool pinned, std::size_t bytes);
  // OpenBLAS's sgemm called directly with a bare clock: the control for "the harness adds nothing".
  void direct_blas(Backend& cpu, long long n, int threads);
  void note(Backend& b, std::string experiment, std::string variant, Precision p, Params params, std::string why);
  // Any other job (the emulated precision error, the layer chain, a memory hold): label, weight, key, run.
  void add(PlanJob job);

  Plan take() { return std::move(m_plan); }
  const Plan& plan() const { return m_plan; }

 private:
  Plan m_plan;
};

// Runs the jobs in order under one RunContext: each job reports into its own slice of the progress bar under its
// own label; a job that throws becomes an error result and the plan goes on; a stop ends it between jobs (or
// inside one, which keeps what it measured). Every result gets its job's plan name and goes to ctx.on_result.
// Returns the results in run order; `after_job`, when given, sees each job's results as the job ends (the bench
// saves its recording there, so a run that is killed still leaves one behind). A job stopped before its first
// sample records nothing and ends the plan.
std::vector<Result> run_plan(const Plan& plan, const RunContext& ctx,
                             const std::function<void(const std::vector<Result>&)>& after_job = {});

// A result that records why something did not run.
Result error_result(const Backend& b, std::string experiment, std::string variant, Precision p, Params params,
                    std::string why);
Result error_result(std::string backend_kind, std::string experiment, std::string variant, Precision p,
                    Params params, std::string why);

bool offers_variant(const Backend& b, const std::string& variant);

// What a job will measure and what a result measured, in one comparable line: "precision|cpu|gemm|blas|fp32|k=1024
// m=1024 n=1024 threads=0". A job's key lists the parameters it planned; a result's key lists the same parameter
// names (result_key(r, job.params) picks them), so a page's plan and a bench suite compare as sets of keys.
std::string job_key(const PlanJob& job);
std::string result_key(const Result& r, const Params& planned);

}  // namespace gpulab

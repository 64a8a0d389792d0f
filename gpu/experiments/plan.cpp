// Plans: building jobs, and the one runner of them (progress slices, cancel, errors as results, the plan stamp).
#include "gpulab/plan.hpp"

#include "gpulab/device_words.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

namespace gpulab {
namespace {


std::string cube(long long n) { return std::to_string(n) + "³"; }
std::string mib(std::size_t bytes) { return std::to_string(bytes / kMiB) + " MiB"; }
std::string threads_word(int threads) {
  return threads == 0 ? "all threads" : threads == 1 ? "1 thread" : std::to_string(threads) + " threads";
}

// Timing estimates for the progress bar only: a run is checked once, warmed up, and repeated up to the budget.
double gemm_weight(const GemmSpec& s, const std::string& kind) {
  double flops = 2.0 * s.m * s.n * s.k;
  double rate = s.variant == "naive" ? 1e9 : s.variant == "reordered" ? 8e9 : kind == "cpu" ? 5e10 : 5e12;
  return std::min(4.0, 0.05 + 5 * flops / rate);
}


// The GPU side of a label ("GPU gemm …"): any backend but the CPU's.
bool gpu_side(const Backend& b) { return b.kind() != "cpu"; }
// Its words (device_words): "GPU", "Vulkan GPU", "Vulkan on the CPU" — a CPU-type Vulkan device is no GPU.
std::string side_word(const Backend& b) { return device_words(b.device_info()).noun + " "; }

}  // namespace

bool offers_variant(const Backend& b, const std::string& variant) {
  auto v = b.gemm_variants();
  return std::find(v.begin(), v.end(), variant) != v.end();
}

Result error_result(const Backend& b, std::string experiment, std::string variant, Precision p, Params params,
                    std::string why) {
  Result r = error_result(b.kind(), std::move(experiment), std::move(variant), p, std::move(params), std::move(why));
  // Which device said no, so the note is worded like the device's results (a CPU-type Vulkan device is no GPU).
  const Provenance prov = b.provenance();
  for (const char* key : {"device", "device_type"})
    if (const auto it = prov.find(key); it != prov.end()) r.provenance[key] = it->second;
  return r;
}

Result error_result(std::string backend_kind, std::string experiment, std::string variant, Precision p,
                    Params params, std::string why) {
  Result r;
  r.experiment = std::move(experiment);
  r.backend = std::move(backend_kind);
  r.variant = std::move(variant);
  r.precision = p;
  r.params = std::move(params);
  r.check.message = "not run";
  r.error = std::move(why);
  return r;
}

namespace {
std::string key_of(const std::string& plan, const std::string& backend, const std::string& experiment,
                   const std::string& variant, Precision p, const Params& params) {
  std::string key = plan + "|" + backend + "|" + experiment + "|" + variant + "|" + std::string(to_string(p)) + "|";
  for (const auto& [name, value] : params) {
    const bool whole = std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9e15;
    key += name + "=" + (!std::isfinite(value) ? std::string("?") : whole ? std::to_string(static_cast<long long>(value))
                                                                          : std::to_string(value)) + " ";
  }
  return key;
}
}  // namespace

std::string job_key(const PlanJob& job) {
  return key_of(job.plan, job.backend ? job.backend->kind() : "cpu", job.experiment, job.variant, job.precision,
                job.params);
}

std::string result_key(const Result& r, const Params& planned) {
  Params picked;
  for (const auto& [name, value] : planned) picked[name] = r.param(name, std::nan(""));
  return key_of(r.plan, r.backend, r.experiment, r.variant, r.precision, picked);
}

void Plan::append(Plan other) {
  for (auto& j : other.jobs) jobs.push_back(std::move(j));
}

double Plan::total_weight() const {
  double total = 0;
  for (const auto& j : jobs) total += j.weight;
  return total;
}

void PlanBuilder::add(PlanJob job) {
  job.plan = m_plan.name;
  m_plan.jobs.push_back(std::move(job));
}

void PlanBuilder::gemm(Backend& b, long long m, long long n, long long k, const std::string& variant, Precision p,
                       int threads) {
  GemmSpec s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.variant = variant;
  s.precision = p;
  s.threads = threads;
  std::string label = "gemm " + variant + " " + std::string(to_string(p)) + " " +
                      (m == n && n == k ? cube(n)
                                        : std::to_string(m) + "×" + std::to_string(n) + "×" + std::to_string(k));
  if (!gpu_side(b) && variant != "naive" && variant != "reordered") label += " (" + threads_word(threads) + ")";
  if (gpu_side(b)) label = side_word(b) + label;
  Backend* bp = &b;
  Params params{{"m", double(m)}, {"n", double(n)}, {"k", double(k)}, {"threads", double(threads)}};
  add({{}, label, gemm_weight(s, b.kind()), bp, "gemm", variant, p, params, [bp, s, params](const RunContext& ctx) {
         if (!offers_variant(*bp, s.variant))
           return one_result(error_result(*bp, "gemm", s.variant, s.precision, params,
                                   "the " + bp->kind() + " backend has no GEMM variant \"" + s.variant + "\""));
         return one_result(run_gemm(*bp, s, ctx));
       }});
}

void PlanBuilder::bandwidth(Backend& b, const std::string& kind, std::size_t bytes, int threads) {
  BandwidthSpec s;
  s.kind = kind;
  s.bytes_per_array = bytes;
  s.threads = threads;
  std::string label = (gpu_side(b) ? side_word(b) : std::string()) + "bandwidth " + kind + " " + mib(bytes);
  if (!gpu_side(b)) label += " (" + threads_word(threads) + ")";
  Backend* bp = &b;
  add({{}, label, 0.5 + bytes / (1024.0 * kMiB), bp, "bandwidth", kind, Precision::fp64,  // run_bandwidth's
       {{"bytes", double(bytes)}, {"threads", double(threads)}},
       [bp, s](const RunContext& ctx) { return one_result(run_bandwidth(*bp, s, ctx)); }});
}

void PlanBuilder::transfer(Backend& b, const std::string& direction, bool pinned, std::size_t bytes) {
  TransferSpec s;
  s.direction = direction;
  s.pinned = pinned;
  s.bytes = bytes;
  std::string label = "transfer " + direction +
                      (direction == "h2d" || direction == "d2h" ? (pinned ? " pinned " : " pageable ") : " ") +
                      mib(bytes);
  Backend* bp = &b;
  add({{}, label, 0.5 + bytes / (1024.0 * kMiB), bp, "transfer", direction, Precision::fp32,
       {{"bytes", double(bytes)}, {"pinned", pinned ? 1.0 : 0.0}},
       [bp, s](const RunContext& ctx) { return one_result(run_transfer(*bp, s, ctx)); }});
}

void PlanBuilder::direct_blas(Backend& cpu, long long n, int threads) {
  Backend* bp = &cpu;
  const Params params{{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"threads", double(threads)}};
  add({{}, "gemm blas-direct fp32 " + cube(n) + " (" + threads_word(threads) + ", no harness)",
       gemm_weight({n, n, n, Precision::fp32, "blas", threads, 42}, "cpu"), bp, "gemm", "blas-direct",
       Precision::fp32, params, [bp, n, threads, params](const RunContext&) {
         // Enough repeats for a stable median at this size, bounded so 2 cores stay quick.
         const int repeats = n <= 512 ? 30 : n <= 1024 ? 10 : 5;
         const double median = direct_blas_sgemm_median_s(n, threads, repeats);
         if (!(median > 0))
           return one_result(error_result(*bp, "gemm", "blas-direct", Precision::fp32, params,
                                   "OpenBLAS is not available in this build"));
         Result r;
         r.experiment = "gemm";
         r.backend = bp->kind();
         r.variant = "blas-direct";
         r.precision = Precision::fp32;
         r.params = params;
         r.params["repeats"] = repeats;
         // Timed only: the harness's "blas" result of the same call is the checked one.
         r.check.passed = true;
         r.check.message = "timing control: output not checked (the harness's blas run is)";
         r.stats.median_s = r.stats.min_s = r.stats.max_s = r.stats.mean_s = median;
         r.stats.n = repeats;
         r.flops = 2.0 * double(n) * double(n) * double(n);
         r.bytes = 3.0 * double(n) * double(n) * 4;
         r.provenance = bp->provenance();
         r.provenance["timing"] = "bare steady_clock around cblas_sgemm, median of " + std::to_string(repeats) +
                                  " calls; only the median is kept";
         finalize_rates(r);
         return one_result(std::move(r));
       }});
}

void PlanBuilder::note(Backend& b, std::string experiment, std::string variant, Precision p, Params params,
                       std::string why) {
  Backend* bp = &b;
  const std::string label = experiment + " " + variant + " " + std::string(to_string(p)) + " (skipped)";
  add({{}, label, 0.01, bp, experiment, variant, p, params,
       [=](const RunContext&) { return one_result(error_result(*bp, experiment, variant, p, params, why)); }});
}

std::vector<Result> run_plan(const Plan& plan, const RunContext& ctx,
                             const std::function<void(const std::vector<Result>&)>& after_job) {
  std::vector<Result> all;
  const double total = std::max(plan.total_weight(), 1e-9);
  double done = 0;
  for (const PlanJob& job : plan.jobs) {
    if (ctx.cancelled()) break;
    // Each job reports into its own slice of the bar, always under its own label: the experiment's inner
    // messages ("sample 7") would make the plan's progress line flicker.
    RunContext sub = ctx;
    sub.progress_base = ctx.progress_base + ctx.progress_span * (done / total);
    sub.progress_span = ctx.progress_span * (job.weight / total);
    if (ctx.on_progress) {
      const ProgressFn outer = ctx.on_progress;
      const std::string label = job.label;
      sub.on_progress = [outer, label](const Progress& p) { outer(Progress{p.fraction, label}); };
    }
    // What the experiment hands over as it goes is the job's result list, stamped with the plan here, once.
    std::vector<Result> emitted;
    sub.on_result = [&emitted, &job, &ctx](const Result& r) {
      emitted.push_back(r);
      emitted.back().plan = job.plan;
      if (ctx.on_result) ctx.on_result(emitted.back());
    };
    sub.report(0, job.label);
    std::vector<Result> returned;
    try {
      returned = job.run(sub);
    } catch (const std::exception& e) {
      // A bad spec or a device fault ends this job only; the plan goes on and the results say what broke.
      returned = {error_result(job.backend ? job.backend->kind() : "cpu", job.experiment, job.variant, job.precision,
                               job.params, job.label + ": " + e.what())};
    } catch (...) {
      returned = {error_result(job.backend ? job.backend->kind() : "cpu", job.experiment, job.variant, job.precision,
                               job.params, job.label + ": failed with an unknown error")};
    }
    // Interrupted before its first sample: there is nothing to record, only the stop.
    const std::vector<Result>& made = emitted.empty() ? returned : emitted;
    const bool nothing = std::all_of(made.begin(), made.end(), [](const Result& r) {
      return r.samples_s.empty() && r.stats.n == 0;
    });
    if (ctx.cancelled() && nothing) break;
    if (emitted.empty())
      for (const auto& r : returned) sub.on_result(r);
    if (after_job) after_job(emitted);
    for (auto& r : emitted) all.push_back(std::move(r));
    done += job.weight;
  }
  return all;
}

}  // namespace gpulab

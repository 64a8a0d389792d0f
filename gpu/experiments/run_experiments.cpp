// The three primitive experiments: GEMM, streaming bandwidth, transfers. Each builds a self-describing Result:
// what ran, on what, the check, every sample, and where the number came from.
#include "gpulab/device_words.hpp"
#include "gpulab/gemm_ladder.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <chrono>
#include <stdexcept>
#include <string>

namespace gpulab {
namespace {

std::string num(double v) { return format_fixed(v, v == static_cast<long long>(v) ? 0 : 3); }

// Seconds for a program to read back (bench compares them): no thousands separator, '.' in every locale.
std::string plain_seconds(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  return res.ec == std::errc{} ? std::string(buf, res.ptr) : std::string("0");
}

void add_policy(Provenance& p, const MeasurePolicy& policy) {
  p["policy_min_samples"] = std::to_string(policy.min_samples);
  p["policy_max_samples"] = std::to_string(policy.max_samples);
  p["policy_target_rel_spread"] = num(policy.target_rel_spread);
  p["policy_time_budget_s"] = num(policy.time_budget_s);
  p["warmup"] = "the check run, then " + std::to_string(policy.warmup_runs) + " untimed run(s)";
  p["stop_rule"] = "the last " + std::to_string(policy.min_samples) + " samples agree within the spread, or the budget";
}

// What the measurement did, beside what the policy asked for (a GPU op warms up by time).
void add_measurement(Provenance& p, const MeasurePolicy& policy, const Measurement& m) {
  p["warmup"] = describe_warmup(policy, m);
  if (const std::string settling = describe_settling(m); !settling.empty()) p["settling"] = settling;
}

Provenance full_provenance(const Backend& backend, const MeasurePolicy& policy) {
  Provenance p = backend.provenance();
  for (auto& [k, v] : base_provenance()) p[k] = v;  // the date of this run wins over anything a backend cached
  add_policy(p, policy);
  return p;
}

// Prepares the op, measures it and fills the Result. `make` builds the TimedOp (may throw).
template <typename Make>
void measure_into(Result& r, const Backend& backend, Make make, const std::string& label, const RunContext& ctx) {
  const MeasurePolicy policy = policy_for(ctx.policy, backend);
  ctx.report(0, label + ": preparing");
  std::unique_ptr<TimedOp> op;
  try {
    const StopScope scope(ctx.stop);  // filling GBs of inputs takes seconds: a cancel stops that too
    op = make();
  } catch (const std::invalid_argument&) {
    throw;  // a bad spec is the caller's mistake: the CLI exits non-zero on it
  } catch (const Cancelled&) {
    r.error = "cancelled while preparing the inputs: nothing was timed";
    r.provenance["cancelled"] = "yes, while preparing the inputs";
    return;
  } catch (const std::exception& e) {
    r.error = e.what();  // a device fault (out of memory, driver error): recorded, not fatal
    return;
  }
  if (!op) {
    r.error = "the backend returned no operation for " + label;
    return;
  }
  r.flops = op->flops();
  r.bytes = op->bytes();
  ctx.report(0.02, label + ": checking");

  // Progress within the run: samples needed, or the time budget, whichever is nearer.
  double spent = 0;
  auto on_sample = [&](int sample, double seconds) {
    spent += seconds;
    const double by_count = static_cast<double>(sample + 1) / std::max(1, policy.min_samples);
    const double by_time = policy.time_budget_s > 0 ? spent / policy.time_budget_s : 0;
    ctx.report(0.05 + 0.95 * std::min(1.0, std::max(by_count, by_time)),
               label + ": sample " + std::to_string(sample + 1) + ", " + format_seconds(seconds));
  };
  Measurement m;
  try {
    m = measure(*op, policy, ctx.stop, on_sample);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    r.error = e.what();
    return;
  }
  r.check = m.check;
  r.stats = m.stats;
  r.samples_s = m.samples_s;
  if (m.check.passed) add_measurement(r.provenance, policy, m);
  finalize_rates(r);
  if (!m.check.passed && !m.cancelled) {
    r.error = "Result check failed, so it was not timed: " + m.check.message;
  } else if (m.cancelled) {
    if (m.samples_s.empty()) {
      r.error = "cancelled during " + (m.cancelled_in.empty() ? std::string("the run") : m.cancelled_in) +
                ", before any sample was timed";
      r.provenance["cancelled"] = "yes, during " + m.cancelled_in;
    } else {
      // What was measured is real, just fewer samples than the policy asked for.
      r.provenance["cancelled"] = "yes, after " + std::to_string(m.samples_s.size()) + " sample(s)";
    }
  }
  ctx.report(1, label + (r.error.empty() ? ": done" : ": " + r.error));
}

void finish(Result& r, const RunContext& ctx) {
  if (ctx.on_result) ctx.on_result(r);
}

}  // namespace

Result run_gemm(Backend& backend, const GemmSpec& spec, const RunContext& ctx) {
  if (spec.m < 1 || spec.n < 1 || spec.k < 1)
    throw std::invalid_argument("GEMM sizes must be at least 1 (got m=" + std::to_string(spec.m) + ", n=" +
                                std::to_string(spec.n) + ", k=" + std::to_string(spec.k) + ")");
  Result r;
  r.experiment = experiment_name::gemm;
  r.backend = backend.kind();
  r.variant = spec.variant;
  r.precision = spec.precision;
  r.params = {{"m", double(spec.m)}, {"n", double(spec.n)}, {"k", double(spec.k)}, {"threads", double(spec.threads)}};
  r.flops = 2.0 * double(spec.m) * double(spec.n) * double(spec.k);
  // The lesson's traffic model: each matrix crosses memory once (A and B read, C written).
  r.bytes = (double(spec.m) * double(spec.k) + double(spec.k) * double(spec.n) + double(spec.m) * double(spec.n)) *
            bytes_per_element(spec.precision);
  r.provenance = full_provenance(backend, ctx.policy);
  r.provenance["precision"] = std::string(display_name(spec.precision));
  r.provenance["seed"] = std::to_string(spec.seed);

  const std::string label = "GEMM " + std::to_string(spec.m) + "\u00d7" + std::to_string(spec.n) + "\u00d7" +
                            std::to_string(spec.k) + " " + std::string(display_name(spec.precision)) + " " +
                            spec.variant;
  const Support s = backend.supports(spec);
  if (!s.ok) {
    r.error = s.reason;
  } else {
    // The naive loop is the one that can run for minutes: it says beforehand how long, from a probe of this very
    // product (see estimate_cpu_gemm), and the result keeps the prediction beside the time it really took.
    if (backend.kind() == "cpu" && spec.variant == "naive") {
      try {
        const StopScope scope(ctx.stop);
        ctx.report(0, label + ": timing a few rows to estimate the run");
        const RunEstimate e = estimate_cpu_gemm(spec, ctx.policy);
        if (e.total_s > 0) {
          r.provenance["predicted_s"] = plain_seconds(e.total_s);
          r.provenance["predicted_run_s"] = plain_seconds(e.run_s);
          r.provenance["predicted_check_s"] = plain_seconds(e.check_s);
          r.provenance["predicted_basis"] = format_fixed(e.gflops, 3) + " GFLOP/s, " + e.basis;
          ctx.report(0, label + ": about " + format_seconds(e.total_s) + " (check " + format_seconds(e.check_s) +
                            " + " + std::to_string(ctx.policy.warmup_runs) + " warm-up + " +
                            std::to_string(e.samples) + " samples)");
        }
      } catch (const Cancelled&) {
        r.error = "cancelled while estimating the run: nothing was timed";
        r.provenance["cancelled"] = "yes, while estimating the run";
        finish(r, ctx);
        return r;
      } catch (const std::invalid_argument&) {
        // Too big for memory, for instance: make_gemm below refuses it with the full reason.
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    const double model_flops = r.flops, model_bytes = r.bytes;
    measure_into(r, backend, [&] { return backend.make_gemm(spec); }, label, ctx);
    // What the backend learned only while making this op: the library algorithm it chose for this format
    // (CUDA: cuBLASLt's for INT8 and FP8).
    const std::string algo_key = "cublaslt_algo_" + std::string(to_string(spec.precision));
    if (const Provenance after = backend.provenance(); after.count(algo_key)) r.provenance[algo_key] = after.at(algo_key);
    if (r.provenance.count("predicted_s"))
      r.provenance["actual_s"] =
          plain_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    // The Result reports the lesson's model, whatever the op counts internally (e.g. padding).
    r.flops = model_flops;
    r.bytes = model_bytes;
    finalize_rates(r);
    // A peak is never below a rate measured here: a BLAS run faster than every register-FMA burst raises it
    // (the bursts were unlucky), so "% of peak" cannot pass 100 %.
    if (backend.kind() == "cpu" && r.ok() && r.gflops > 0 && !r.samples_s.empty())
      raise_cpu_peak_floor(r.gflops, spec.precision == Precision::fp64, label + " measured here");
  }
  finish(r, ctx);
  return r;
}

Result run_bandwidth(Backend& backend, const BandwidthSpec& spec, const RunContext& ctx) {
  Result r;
  r.experiment = experiment_name::bandwidth;
  r.backend = backend.kind();
  r.variant = spec.kind;
  r.precision = Precision::fp64;  // the CPU kernels stream doubles; the bytes, not the format, are the point
  r.params = {{"bytes", double(spec.bytes_per_array)}, {"threads", double(spec.threads)}};
  r.provenance = full_provenance(backend, ctx.policy);
  r.provenance["bytes_counted"] = spec.kind == "copy" ? "read + written: 2 arrays" : "read + written: 3 arrays";
  const std::string label = "bandwidth " + spec.kind + " " + format_bytes(double(spec.bytes_per_array));
  measure_into(r, backend, [&] { return backend.make_bandwidth(spec); }, label, ctx);
  finish(r, ctx);
  return r;
}

Result run_transfer(Backend& backend, const TransferSpec& spec, const RunContext& ctx) {
  Result r;
  r.experiment = experiment_name::transfer;
  r.backend = backend.kind();
  r.variant = spec.direction;
  r.precision = Precision::fp32;
  r.params = {{"bytes", double(spec.bytes)}, {"pinned", spec.pinned ? 1.0 : 0.0}};
  r.provenance = full_provenance(backend, ctx.policy);
  r.provenance["memory"] = spec.direction == "p2p" ? "device memory on two GPUs (a peer copy; no host memory)"
                           : spec.pinned           ? "pinned (page-locked) host memory"
                                                   : "pageable host memory";
  r.provenance["bytes_counted"] = "bytes moved, each counted once";
  const std::string label = "transfer " + spec.direction + " " + format_bytes(double(spec.bytes));
  const Support s = backend.supports(spec);
  if (!s.ok) {
    r.error = s.reason;
  } else {
    measure_into(r, backend, [&] { return backend.make_transfer(spec); }, label, ctx);
  }
  finish(r, ctx);
  return r;
}

// ---- The typed views of the three results written above (result_views.hpp) ----------------------------------

ResultHeader result_header(const Result& r) {
  ResultHeader h;
  h.plan = r.plan;
  h.backend = r.backend;
  h.kind = backend_kind(r.backend);
  h.on_gpu = r.on_gpu();
  if (const auto d = r.provenance.find("device"); d != r.provenance.end()) h.device = d->second;
  // A CPU-type device behind a GPU API (lavapipe) or the CUDA emulator: device_words names it, never as a GPU.
  const DeviceClass dc = device_words(r).device_class;
  h.cpu_device = dc == DeviceClass::vulkan_on_cpu || dc == DeviceClass::emulator;
  h.variant = r.variant;
  h.precision = r.precision;
  h.ok = r.ok();
  h.error = r.error;
  h.median_s = r.stats.median_s;
  return h;
}

std::optional<GemmPoint> as_gemm(const Result& r) {
  if (r.experiment != experiment_name::gemm) return std::nullopt;
  GemmPoint p;
  p.head = result_header(r);
  p.m = std::llround(r.param("m"));
  p.n = std::llround(r.param("n"));
  p.k = std::llround(r.param("k"));
  p.threads = static_cast<int>(std::lround(r.param("threads")));
  p.direct_control = r.variant == "blas-direct";
  p.library = r.variant == "blas" || ladder_step_of(r.variant) == LadderStep::cublas || r.variant == "cublaslt" ||
              p.direct_control;
  p.gflops = r.gflops;
  p.check_max_abs = r.check.checked > 0 ? r.check.max_abs_err : -1;
  return p;
}

std::optional<BandwidthPoint> as_bandwidth(const Result& r) {
  if (r.experiment != experiment_name::bandwidth) return std::nullopt;
  BandwidthPoint p;
  p.head = result_header(r);
  p.kernel = r.variant == "copy" ? StreamKernel::copy : r.variant == "triad" ? StreamKernel::triad : StreamKernel::other;
  p.bytes_per_array = r.param("bytes");  // run_bandwidth writes the spec's bytes_per_array under "bytes"
  p.threads = static_cast<int>(std::lround(r.param("threads")));
  p.gbps = r.gbps;
  return p;
}

std::optional<TransferPoint> as_transfer(const Result& r) {
  if (r.experiment != experiment_name::transfer) return std::nullopt;
  TransferPoint p;
  p.head = result_header(r);
  const std::string& d = r.variant;
  p.direction = d == "h2h"   ? TransferDirection::h2h
                : d == "h2d" ? TransferDirection::h2d
                : d == "d2h" ? TransferDirection::d2h
                : d == "d2d" ? TransferDirection::d2d
                : d == "p2p" ? TransferDirection::p2p
                             : TransferDirection::other;
  p.pinned = r.param("pinned") != 0;
  p.bytes = r.param("bytes");
  p.gbps = r.gbps;
  return p;
}

}  // namespace gpulab

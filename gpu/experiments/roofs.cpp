// The three regimes' roofs, measured (roofs.hpp): the FMA peak and the overhead floor as experiments, the plan of
// `gpulab bench --suite roofs`, and their typed views. The ops themselves live with each backend (cpu/roofs_ops,
// vulkan/roofs_ops, cuda/roofs_ops); this file only checks, times and records them.
#include "gpulab/roofs.hpp"

#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/page_plans.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gpulab {
namespace {


// The roofs are measured in bulk (dozens of ops per device): each keeps to a short budget whatever the caller's
// policy says, so the whole suite stays well under 30 s on a 2-core machine. A peak is a best case, so it is the
// *fastest* sample that counts (gflops from min_s), the median beside it.
MeasurePolicy short_policy(const MeasurePolicy& in, double budget_s, int max_samples) {
  MeasurePolicy p = in;
  p.time_budget_s = std::min(in.time_budget_s > 0 ? in.time_budget_s : budget_s, budget_s);
  p.max_samples = std::min(std::max(in.min_samples, max_samples), in.max_samples > 0 ? in.max_samples : max_samples);
  p.min_samples = std::min(p.min_samples, p.max_samples);
  return p;
}

void measure_op(Result& r, Backend& backend, const std::function<std::unique_ptr<TimedOp>()>& make,
                const MeasurePolicy& asked, const std::string& label, const RunContext& ctx) {
  const MeasurePolicy policy = policy_for(asked, backend);  // a GPU op warms up by time
  r.provenance = backend.provenance();
  for (auto& [k, v] : base_provenance()) r.provenance[k] = v;
  r.provenance["policy"] = "min " + std::to_string(policy.min_samples) + ", max " +
                           std::to_string(policy.max_samples) + " samples, budget " +
                           format_fixed(policy.time_budget_s, 2) + " s";
  ctx.report(0, label + ": preparing");
  std::unique_ptr<TimedOp> op;
  try {
    const StopScope scope(ctx.stop);
    op = make();
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const Cancelled&) {
    r.error = "cancelled while preparing: nothing was timed";
    return;
  } catch (const std::exception& e) {
    r.error = e.what();
    return;
  }
  if (!op) {
    r.error = "the backend returned no operation for " + label;
    return;
  }
  r.flops = op->flops();
  r.bytes = op->bytes();
  op->describe(r.params, r.provenance);
  Measurement m;
  try {
    m = measure(*op, policy, ctx.stop, [&](int sample, double seconds) {
      ctx.report(std::min(1.0, double(sample + 1) / std::max(1, policy.min_samples)),
                 label + ": sample " + std::to_string(sample + 1) + ", " + format_seconds(seconds));
    });
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    r.error = e.what();
    return;
  }
  r.check = m.check;
  r.stats = m.stats;
  r.samples_s = m.samples_s;
  if (m.check.passed) {
    r.provenance["warmup"] = describe_warmup(policy, m);
    if (const std::string settling = describe_settling(m); !settling.empty()) r.provenance["settling"] = settling;
  }
  finalize_rates(r);
  if (!m.check.passed && !m.cancelled) r.error = "Result check failed, so it was not timed: " + m.check.message;
  else if (m.samples_s.empty()) r.error = "cancelled before any sample was timed";
}

}  // namespace

std::vector<std::size_t> overhead_sweep_elements() {
  std::vector<std::size_t> out;
  for (std::size_t n = 1; n <= (std::size_t{1} << 20); n *= 16) out.push_back(n);
  out.push_back(std::size_t{8} << 20);  // 3 × 32 MiB: past a 32 MiB L3 (and an H200's 50 MB L2)
  return out;
}

Result run_peak(Backend& backend, const PeakSpec& spec, const RunContext& ctx) {
  if (!(spec.target_s > 0) || spec.target_s > 0.1)
    throw std::invalid_argument("a peak run must last between 0 and 0.1 s (got " + format_fixed(spec.target_s, 3) + ")");
  Result r;
  r.experiment = experiment_name::peak;
  r.backend = backend.kind();
  r.variant = "fma";
  r.precision = spec.precision;
  r.params = {{"target_s", spec.target_s}};
  const std::string label = std::string(display_name(spec.precision)) + " FMA peak";
  if (const Support s = backend.supports(spec); !s.ok) {
    r.provenance = backend.provenance();
    r.error = s.reason;
  } else {
    measure_op(r, backend, [&] { return backend.make_fma_peak(spec); }, short_policy(ctx.policy, 0.4, 12), label, ctx);
    // A peak is a best case: the fastest run, the median kept beside it.
    if (r.ok() && r.stats.min_s > 0) {
      r.params["gflops_median"] = r.gflops;
      r.gflops = r.flops / r.stats.min_s / 1e9;
      r.provenance["peak_rate"] = "the fastest timed run (a peak is a best case); the median is gflops_median";
    }
  }
  if (ctx.on_result) ctx.on_result(r);
  return r;
}

Result run_overhead(Backend& backend, const OverheadSpec& spec, const RunContext& ctx) {
  Result r;
  r.experiment = experiment_name::overhead;
  r.backend = backend.kind();
  r.variant = spec.graph ? "graph" : spec.elements == 0 ? "empty" : "elementwise";
  r.precision = Precision::fp32;
  r.params = {{"elements", double(spec.elements)}, {"graph", spec.graph ? 1.0 : 0.0}};
  const std::string label =
      spec.elements == 0 ? std::string(spec.graph ? "graph launch" : "empty launch") + " + wait"
                         : "x = y + s·z over " + format_count(static_cast<long long>(spec.elements)) + " floats";
  if (const Support s = backend.supports(spec); !s.ok) {
    r.provenance = backend.provenance();
    r.error = s.reason;
  } else {
    measure_op(r, backend, [&] { return backend.make_overhead(spec); }, short_policy(ctx.policy, 0.15, 15), label, ctx);
    if (r.ok()) r.params["per_op_s"] = r.stats.median_s;
  }
  if (ctx.on_result) ctx.on_result(r);
  return r;
}

Plan roofs_plan(const Backends& backends, const RoofsControls& c) {
  PlanBuilder plan(plan_name::roofs);
  std::vector<Backend*> devices{backends.cpu};
  if (backends.gpu) devices.push_back(backends.gpu);
  for (Backend* be : devices) {
    const std::string side = be == backends.cpu ? "CPU " : "GPU slot ";
    for (Precision p : {Precision::fp32, Precision::fp64, Precision::fp16}) {
      const PeakSpec spec{p, 0.02};
      const Params params{{"target_s", spec.target_s}};
      // FP32 always belongs to the plan (a device without it says why); the others only where offered.
      if (const Support ok = be->supports(spec); !ok.ok) {
        if (p == Precision::fp32) plan.note(*be, experiment_name::peak, "fma", p, params, ok.reason);
        continue;
      }
      plan.add({{}, side + std::string(display_name(p)) + " FMA peak", 0.5, be, experiment_name::peak, "fma", p, params,
                [be, spec](const RunContext& ctx) { return one_result(run_peak(*be, spec, ctx)); }});
    }
    std::vector<OverheadSpec> specs{{0, false}};
    if (be->kind_id() == BackendKind::cuda || be->supports(OverheadSpec{0, true}).ok) specs.push_back({0, true});
    if (c.sweep)
      for (std::size_t n : overhead_sweep_elements()) specs.push_back({n, false});
    for (const OverheadSpec& s : specs) {
      const Params params{{"elements", double(s.elements)}, {"graph", s.graph ? 1.0 : 0.0}};
      const std::string variant = s.graph ? "graph" : s.elements == 0 ? "empty" : "elementwise";
      if (const Support ok = be->supports(s); !ok.ok) {
        // The graph replay is a CUDA thing: a CUDA device without it (the CPU emulator) says why; others stay silent.
        if (s.elements == 0 && (!s.graph || be->kind_id() == BackendKind::cuda))
          plan.note(*be, experiment_name::overhead, variant, Precision::fp32, params, ok.reason);
        if (s.elements == 0) continue;
        break;  // no sweep without the probe
      }
      plan.add({{}, side + "overhead " + variant + " " + std::to_string(s.elements), 0.2, be,
                experiment_name::overhead, variant, Precision::fp32, params,
                [be, s](const RunContext& ctx) { return one_result(run_overhead(*be, s, ctx)); }});
    }
    // Beside the launch + wait, the pace of launches issued back to back with no wait (issue 36): the
    // launch_overhead run (amdahl_scaling.hpp), each device's own way, on the roofs' short budget.
    {
      const LaunchOverheadSpec spec{1000, 1};
      const Params params{{"kernels", double(spec.kernels)}, {"elements", double(spec.elements)}};
      if (const Support ok = be->supports(spec); !ok.ok)
        plan.note(*be, experiment_name::launch_overhead, "tiny_kernels", Precision::fp32, params, ok.reason);
      else
        plan.add({{}, side + "1000 launches back to back", 0.2, be, experiment_name::launch_overhead, "tiny_kernels",
                  Precision::fp32, params, [be, spec](const RunContext& ctx) {
                    RunContext quick = ctx;
                    quick.policy = short_policy(ctx.policy, 0.3, 12);
                    return one_result(run_launch_overhead(*be, spec, quick));
                  }});
    }
    // The memory roof beside them: the triad past the caches (the roofline page's size for this device).
    if (!c.triad) continue;
    const RooflineControls rc;
    const bool gpu = be != backends.cpu && be->device_info().kind == "cuda";
    plan.bandwidth(*be, "triad", gpu ? rc.gpu_triad_bytes : rc.cpu_triad_bytes);
  }
  return plan.take();
}

std::optional<PeakPoint> as_peak(const Result& r) {
  if (r.experiment != experiment_name::peak) return std::nullopt;
  PeakPoint p;
  p.head = result_header(r);
  p.gflops = r.gflops;
  p.chains = static_cast<int>(std::lround(r.param("chains")));
  p.lanes = static_cast<int>(std::lround(r.param("lanes")));
  p.threads = static_cast<int>(std::lround(r.param("threads")));
  p.invocations = r.param("invocations");
  p.iterations = r.param("iterations");
  return p;
}

std::optional<OverheadPoint> as_overhead(const Result& r) {
  if (r.experiment != experiment_name::overhead) return std::nullopt;
  OverheadPoint o;
  o.head = result_header(r);
  o.elements = r.param("elements");
  o.graph = r.param("graph") > 0;
  o.bytes = r.bytes;
  o.per_op_s = r.param("per_op_s", r.stats.median_s);
  return o;
}

}  // namespace gpulab

// The decode step as a measurable chain of products (see decode_experiments.hpp).
#include "gpulab/result_views.hpp"
#include "gpulab/decode_experiments.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/layer_chain_plan.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gpulab {

LayerChainSpec layer_chain_for(const TransformerShape& s, int layers, long long batch, Precision precision) {
  if (s.hidden < 1 || s.heads < 1 || s.kv_heads < 1 || s.head_dim < 1 || s.intermediate < 1)
    throw std::invalid_argument("A transformer shape needs positive widths and head counts");
  LayerChainSpec spec;
  const long long h = s.hidden, attn = static_cast<long long>(s.heads) * s.head_dim;
  const long long qkv = static_cast<long long>(s.heads + 2 * s.kv_heads) * s.head_dim;
  spec.matrices = {{h, qkv}, {attn, h}, {h, s.intermediate}, {h, s.intermediate}, {s.intermediate, h}};
  spec.layers = layers;
  spec.batch = batch;
  spec.precision = precision;
  return spec;
}

double layer_chain_params_per_layer(const LayerChainSpec& spec) {
  double p = 0;
  for (const auto& m : spec.matrices) p += static_cast<double>(m.k) * static_cast<double>(m.n);
  return p;
}

double layer_chain_weight_bytes(const LayerChainSpec& spec) {
  return layer_chain_params_per_layer(spec) * spec.layers * bytes_per_element(spec.precision);
}

long long prefill_chain_batch(const LayerChainSpec& spec, long long prompt_tokens, double max_flops) {
  const double per_token = 2.0 * layer_chain_params_per_layer(spec) * std::max(1, spec.layers);
  const long long want = std::max(1LL, prompt_tokens);
  if (!(max_flops > 0) || !(per_token > 0)) return want;
  return std::clamp(static_cast<long long>(std::floor(max_flops / per_token)), 1LL, want);
}

int layer_chain_layers_that_fit(const LayerChainSpec& one_layer, double budget_bytes, int max_layers) {
  LayerChainSpec s = one_layer;
  s.layers = 1;
  const double per = layer_chain_weight_bytes(s);
  if (!(per > 0)) return 1;
  const double n = std::floor(budget_bytes / per);
  return static_cast<int>(std::clamp(n, 1.0, static_cast<double>(std::max(1, max_layers))));
}

Result run_layer_chain(Backend& backend, const LayerChainSpec& spec, const RunContext& ctx) {
  Result r;
  r.experiment = experiment_name::layer_chain;
  r.backend = backend.kind();
  r.variant = "gemm_chain";
  r.precision = spec.precision;
  const double per_layer = layer_chain_params_per_layer(spec);
  r.params = {{"batch", double(spec.batch)},
              {"layers", double(spec.layers)},
              {"matrices_per_layer", double(spec.matrices.size())},
              {"params_per_layer", per_layer},
              {"weight_bytes", layer_chain_weight_bytes(spec)}};
  r.provenance = backend.provenance();
  for (auto& [k, v] : base_provenance()) r.provenance[k] = v;
  r.provenance["precision"] = std::string(display_name(spec.precision));
  r.provenance["seed"] = std::to_string(spec.seed);
  r.provenance["policy_time_budget_s"] = format_fixed(ctx.policy.time_budget_s, 2);
  r.provenance["bytes_counted"] = "every weight once per step + activations read and written";
  std::string shapes;
  for (const auto& m : spec.matrices) shapes += (shapes.empty() ? "" : ", ") + std::to_string(m.k) + "\u2192" + std::to_string(m.n);
  r.provenance["layer_shapes"] = shapes;
  r.provenance["code_path"] = layer_chain_code_path(backend.kind_id(), spec.batch);

  const std::string label = "chain " + std::to_string(spec.layers) + " layer(s), batch " + std::to_string(spec.batch);
  const Support s = backend.supports(spec);
  if (!s.ok) {
    r.error = s.reason;
    if (ctx.on_result) ctx.on_result(r);
    return r;
  }
  ctx.report(0, label + ": preparing the weights");
  std::unique_ptr<TimedOp> op;
  try {
    const StopScope scope(ctx.stop);  // GBs of weights take seconds to fill: a cancel stops that too
    op = backend.make_layer_chain(spec);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const Cancelled&) {
    r.error = "cancelled while preparing the weights: nothing was timed";
    r.provenance["cancelled"] = "yes, while preparing the weights";
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  if (!op && r.error.empty()) r.error = "the " + backend.kind() + " backend returned no layer chain";
  if (op) {
    r.flops = op->flops();
    r.bytes = op->bytes();
    ctx.report(0.1, label + ": checking against an FP64 reference");
    double spent = 0;
    auto on_sample = [&](int sample, double seconds) {
      spent += seconds;
      const double f = ctx.policy.time_budget_s > 0 ? spent / ctx.policy.time_budget_s : 0;
      ctx.report(0.2 + 0.8 * std::min(1.0, std::max(f, double(sample + 1) / std::max(1, ctx.policy.min_samples))),
                 label + ": step " + std::to_string(sample + 1) + ", " + format_seconds(seconds));
    };
    try {
      const MeasurePolicy policy = policy_for(ctx.policy, backend);  // a GPU op warms up by time
      const Measurement m = measure(*op, policy, ctx.stop, on_sample);
      if (m.check.passed) {
        r.provenance["warmup"] = describe_warmup(policy, m);
        if (const std::string settling = describe_settling(m); !settling.empty()) r.provenance["settling"] = settling;
      }
      r.check = m.check;
      r.stats = m.stats;
      r.samples_s = m.samples_s;
      finalize_rates(r);
      if (!m.check.passed && !m.cancelled) r.error = "Result check failed, so it was not timed: " + m.check.message;
      else if (m.cancelled && m.samples_s.empty()) r.error = "cancelled during " + m.cancelled_in + ", before any step was timed";
      if (m.cancelled)
        r.provenance["cancelled"] = m.samples_s.empty() ? "yes, during " + m.cancelled_in
                                                        : "yes, after " + std::to_string(m.samples_s.size()) + " step(s)";
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception& e) {
      r.error = e.what();
    }
  }
  ctx.report(1, label + (r.error.empty() ? ": done" : ": " + r.error));
  if (ctx.on_result) ctx.on_result(r);
  return r;
}

// The typed view of the result written above (result_views.hpp).
std::optional<LayerChainPoint> as_layer_chain(const Result& r) {
  if (r.experiment != experiment_name::layer_chain) return std::nullopt;
  LayerChainPoint p;
  p.head = result_header(r);
  p.users = std::llround(r.param("batch"));
  p.layers = static_cast<int>(std::lround(r.param("layers")));
  p.params_per_layer = r.param("params_per_layer");
  p.weight_bytes = r.param("weight_bytes");
  p.gbps = r.gbps;
  p.gflops = r.gflops;
  p.prompt_tokens = std::llround(r.param("prompt_tokens"));
  return p;
}

}  // namespace gpulab

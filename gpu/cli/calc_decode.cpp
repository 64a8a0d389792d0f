// `calc decode`: the decode ceiling (bandwidth ÷ bytes per token), batching with every user's KV cache read and
// fitted (serving_model.hpp), and mixtures of experts (the experts a batch touches).
#include "calc_support.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/prefill_model.hpp"
#include "gpulab/models/serving_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <iostream>

namespace gpulab::calc_cli {

using namespace gpulab::models;

namespace {

// The smallest batch at which the arithmetic catches up with the step's reads (weights touched + caches); none
// (infinity) when each user's cache read costs more time than its sums, or past a million users.
double serving_compute_bound_from(const ServingInputs& in) {
  if (!(in.peak_flops > 0)) return INFINITY;
  double lo = 1, hi = 1;
  while (!serving_step(in, hi).step.compute_bound) {
    lo = hi;
    hi *= 2;
    if (hi > 1 << 20) return INFINITY;
  }
  if (hi == 1) return 1;
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (serving_step(in, mid).step.compute_bound ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

// ---- calc decode --------------------------------------------------------------------------------------------
int calc_decode(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> params, bandwidth, peak, users, prompt, context, card_gb, experts, active_experts;
  std::optional<NumberFormat> precision, kv_precision;
  const GpuSpec* card = nullptr;
  r.number("params", 1e3, 1e13, params);
  r.number("bandwidth", 1e-3, 1e5, bandwidth);
  r.number("peak-tflops", 1e-3, 1e5, peak);
  r.number("users", 1, 1e6, users, true);
  r.number("prompt", 1, 1e7, prompt, true);
  r.number("context", 0, 1e8, context, true);  // 0: the caches left out, as the lesson's ceiling
  r.number("card-gb", 1e-3, 1e6, card_gb);
  r.number("experts", 2, 1e5, experts, true);
  r.number("active-experts", 1, 1e5, active_experts, true);
  r.format("precision", precision);
  r.format("kv-precision", kv_precision);
  r.card("card", card);
  if (!r.error.empty()) return usage_error(r.error);
  if (kv_precision && *kv_precision != NumberFormat::fp16 && *kv_precision != NumberFormat::fp8 &&
      *kv_precision != NumberFormat::int4)
    return usage_error("--kv-precision: the KV cache is stored in fp16, fp8 or int4");
  // The shape sizes the KV cache: a preset by name, else the preset nearest in size (its layers, KV heads and head
  // dim; GQA models such as Llama 3 8B keep 4x less per token than Llama 2 7B).
  const MoeModel* moe_preset = nullptr;
  const ModelShape* shape_preset = nullptr;
  if (const std::string* m = f.value("model")) {
    shape_preset = find_preset(*m);
    moe_preset = shape_preset ? nullptr : find_moe_preset(*m);
    if (!shape_preset && !moe_preset) {
      std::string known;
      for (const auto& p : model_presets()) known += (known.empty() ? "" : ", ") + std::string(p.id);
      for (const auto& p : moe_presets()) known += ", " + std::string(p.shape.id);
      return usage_error("--model: unknown model '" + *m + "' (known: " + known + ")");
    }
    if (!params) params = moe_preset ? moe_preset->shape.params : shape_preset->params;
  }
  if (!params) return usage_error("calc decode needs --params N (or --model NAME)");
  if (card && bandwidth && peak) return usage_error("--card gives a bandwidth and a peak, and --bandwidth and --peak-tflops replace both");
  std::optional<double> active;
  if (!r.number("active-params", 1e3, 1e13, active)) return usage_error(r.error);
  if (!active && moe_preset) active = moe_preset->active_params;
  if (active && *active > *params)
    return usage_error("--active-params " + Reader::num(*active) + " is more than --params " + Reader::num(*params));
  if (experts.has_value() != active_experts.has_value())
    return usage_error("--experts and --active-experts go together (experts per layer, experts per token)");
  if (experts && *active_experts >= *experts)
    return usage_error("--active-experts must be fewer than --experts");
  if (experts && !active) return usage_error("--experts needs --active-params N (the parameters one token reads)");
  if (card && card_gb) return usage_error("give --card or --card-gb, not both");
  // A mixture of experts reads (and multiplies by) only its active parameters per token; VRAM holds all of them.
  const double read = active.value_or(*params);
  if (!bandwidth && !(card && card->bandwidth_gbs > 0))
    return usage_error("calc decode needs --bandwidth GB/s (or --card NAME with a stated bandwidth)");
  const double bw_gbs = bandwidth ? *bandwidth : card->bandwidth_gbs;
  // Weight-only quantisation still does its maths in 16-bit, so the FP16 peak is the compute roof for all.
  double peak_flops = 0;
  if (peak) peak_flops = *peak * 1e12;
  else if (card && card->peak_flops_for(Precision::fp16)) peak_flops = *card->peak_flops_for(Precision::fp16);

  // The prefill is compute-bound for long prompts: without a compute roof there is no time to first token.
  if (prompt && !(peak_flops > 0))
    return usage_error("calc decode --prompt needs --peak-tflops T (or --card NAME with a stated FP16 peak)");

  std::vector<NumberFormat> formats;
  if (precision) formats = {*precision};
  else formats = {NumberFormat::fp16, NumberFormat::int8, NumberFormat::int4};

  // A mixture of experts' counts: given, a preset's, or a preset recognised by its totals.
  if (active && !experts) {
    if (!moe_preset) moe_preset = find_moe_by_params(*params, *active);
    if (moe_preset) experts = moe_preset->experts, active_experts = moe_preset->active_experts;
  }
  ServingInputs serve;
  serve.shape = moe_preset ? moe_preset->shape : shape_preset ? *shape_preset : nearest_preset(*params);
  serve.shape.params = *params;
  serve.active_params = active.value_or(0);
  serve.experts = experts ? int(*experts) : 0;
  serve.active_experts = active_experts ? int(*active_experts) : 0;
  serve.kv_format = kv_precision.value_or(NumberFormat::fp16);
  serve.context = context.value_or(default_context_tokens);
  serve.bandwidth_bytes_s = bw_gbs * 1e9;
  serve.peak_flops = peak_flops;
  serve.card_bytes = card_gb ? *card_gb * bytes_per_gb : card ? card->memory_bytes() : 0;
  const bool serving = users || context || kv_precision;
  // Without the serving step, the card's size and a named model's shape (when --params gives the size) have
  // nothing to change: say what they need rather than print the same ceiling (issue 39's option walk).
  if (!serving && card_gb)
    return usage_error("--card-gb is the memory the users' KV caches must fit in: add --users N (and --context N)");
  if (!serving && f.value("model") && f.value("params"))
    return usage_error("--model with --params only shapes the users' KV caches: add --users N, or drop --params to "
                       "take the model's size");

  json rows = json::array();
  const bool as_json = f.on("json");
  if (!as_json) {
    std::cout << "Decode ceiling (model): tokens/s <= bandwidth / bytes per token (every weight read once per token)\n"
              << "  " << format_whole(*params) << " params, " << format_whole(bw_gbs) << " GB/s"
              << (card ? " (" + card->name + (bandwidth ? ", bandwidth given" : ", datasheet") + ")" : "") << "\n";
    if (active)
      std::cout << "  mixture of experts: each token reads " << format_whole(*active) << " active params of "
                << format_whole(*params) << "; memory still holds all of them\n";
  }
  for (NumberFormat fmt : formats) {
    const MoeDecode moe = moe_decode(*params, read, bytes_per_value(fmt), bw_gbs * 1e9);
    const double per_token = moe.bytes_per_token;
    const double ceiling = moe.ceiling_tokens_s;
    const double compute = compute_at_ceiling(read, bytes_per_value(fmt), bw_gbs * 1e9);
    json row = {{"precision", format_name(fmt)}, {"bytes_per_token", per_token}, {"tokens_per_s", ceiling},
                {"flops_per_token", decode_flops_per_token(read)}, {"flops_at_ceiling", compute},
                {"weights_bytes", moe.weights_bytes}};
    if (active) row["dense_tokens_per_s"] = moe.dense_ceiling_tokens_s;
    if (peak_flops > 0) row["compute_idle_share"] = 1.0 - compute / peak_flops;
    if (!as_json) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "  %-5s %8s per token -> at most %s tokens/s per stream (%s)",
                    std::string(format_name(fmt)).c_str(), gb(per_token).c_str(), tokens(ceiling).c_str(),
                    format_fixed_plain(ceiling, 2).c_str());
      std::cout << buf << "\n";
      if (active)
        std::cout << "        holds " << gb(moe.weights_bytes) << ", reads " << format_fixed_plain(100 * moe.read_share, 1)
                  << "% of it per token (read whole: at most " << tokens(moe.dense_ceiling_tokens_s) << " tokens/s)\n";
      std::cout << "        compute at that ceiling: " << format_si(decode_flops_per_token(read), "FLOP") << "/token x "
                << format_fixed_plain(ceiling, 2) << " tokens/s = " << format_si(compute, "FLOP/s");
      if (peak_flops > 0) std::cout << ", cores idle " << format_fixed_plain(100 * (1 - compute / peak_flops), 2) << "% of the time";
      std::cout << "\n";
    }
    if (prompt) {
      // The prompt: one batch of N through the weights. A mixture of experts multiplies each token by its active
      // parameters, but a prompt's tokens are routed to nearly every expert, so all of them are read.
      PrefillInputs pin;
      pin.params = read;
      pin.weight_bytes = moe.weights_bytes;
      pin.bandwidth_bytes_s = bw_gbs * 1e9;
      pin.peak_flops = peak_flops;
      const PrefillEstimate p = prefill_estimate(pin, *prompt);
      const double ridge = prefill_compute_bound_from(pin);
      row["prefill"] = {{"prompt_tokens", *prompt},        {"flops", p.flops},
                        {"compute_s", p.compute_s},         {"memory_s", p.memory_s},
                        {"time_to_first_token_s", p.ttft_s}, {"compute_bound", p.compute_bound},
                        {"prompt_tokens_per_s", p.prompt_tokens_s}, {"compute_bound_from_tokens", ridge}};
      if (!as_json) {
        std::cout << "        prompt of " << format_whole(*prompt) << " tokens (one batch of " << format_whole(*prompt)
                  << "): " << format_si(p.flops, "FLOP") << " = " << format_fixed_plain(p.compute_s * 1e3, 2) << " ms of compute, "
                  << gb(pin.weight_bytes) << " of weights = " << format_fixed_plain(p.memory_s * 1e3, 2) << " ms\n"
                  << "        time to first token >= " << format_fixed_plain(p.ttft_s * 1e3, 2) << " ms ("
                  << (p.compute_bound ? "compute-bound" : "memory-bound") << ", compute-bound from ~"
                  << format_whole(std::ceil(ridge)) << " tokens), then " << tokens(ceiling)
                  << " tokens/s (memory-bound, one token a pass)\n";
      }
    }
    if (serving) {
      // A batched step reads the weights the batch touches once and every user's KV cache at its context
      // (serving_model.hpp); the caches must fit beside the weights.
      serve.weights_format = fmt;
      serve.bytes_per_param = bytes_per_value(fmt);
      const double n = users.value_or(1);
      const ServingStep s = serving_step(serve, n);
      const double turn = serving_compute_bound_from(serve);
      json batch = {{"users", n},
                    {"context_tokens", serve.context},
                    {"kv_precision", format_name(serve.kv_format)},
                    {"kv_bytes_per_user", s.kv_bytes_per_user},
                    {"kv_bytes_read", s.kv_bytes_read},
                    {"weight_bytes_read", s.weight_bytes_read},
                    {"step_bytes", s.step_bytes},
                    {"aggregate_tokens_per_s", s.step.aggregate_tokens_s},
                    {"per_user_tokens_per_s", s.step.per_user_tokens_s},
                    {"per_user_tokens_per_s_without_kv", s.per_user_without_kv},
                    {"compute_bound", s.step.compute_bound},
                    {"compute_bound_from_users", std::isfinite(turn) ? json(turn) : json(nullptr)}};
      if (serve.experts > 0) batch["experts_touched_share"] = s.experts_touched_share;
      if (s.checked)
        batch["fit"] = {{"fits", s.fits}, {"vram_needed_bytes", s.vram_needed}, {"card_bytes", serve.card_bytes},
                        {"max_users_at_context", s.max_users_at_context},
                        {"max_context_for_users", s.max_context_for_users}};
      row["batch"] = batch;
      if (!as_json) {
        std::cout << "        " << count_of(n, "user", "users") << " at " << format_whole(serve.context)
                  << " tokens each (" << format_name(serve.kv_format) << " KV cache, "
                  << gb(s.kv_bytes_per_user) << " a user): a step reads " << gb(s.weight_bytes_read) << " of weights";
        if (serve.experts > 0 && n > 1)
          std::cout << " (the batch touches " << format_fixed_plain(100 * s.experts_touched_share, 1)
                    << "% of each layer's experts)";
        else if (active && !serve.experts && n > 1)
          std::cout << " (expert counts unknown: " << format_whole(n) << " x active, at most all; give --experts E "
                    << "--active-experts K)";
        std::cout << " + " << gb(s.kv_bytes_read) << " of KV cache\n"
                  << "          -> " << tokens(s.step.aggregate_tokens_s) << " tokens/s in total, "
                  << format_fixed_plain(s.step.per_user_tokens_s, 1) << " per user ("
                  << (s.step.compute_bound ? "compute-bound" : "memory-bound") << "; "
                  << format_fixed_plain(s.per_user_without_kv, 1) << " per user if the caches were not read)";
        if (std::isfinite(turn)) std::cout << "; compute-bound from ~" << format_whole(turn) << " users";
        else if (peak_flops > 0) std::cout << "; never compute-bound: each user's cache read outlasts its sums";
        else std::cout << "; no compute limit given (--peak-tflops or --card)";
        std::cout << "\n";
        if (s.checked) {
          const double held = *params * bytes_per_value(fmt) + serve.overhead_bytes;
          std::cout << "          VRAM: weights + caches + working space + 1 GB overhead = " << gb(s.vram_needed)
                    << " of " << gb(serve.card_bytes)
                    << (card && !card_gb ? " (" + card->memory_label() + ")" : std::string()) << ": "
                    << (s.fits               ? "fits"
                        : held > serve.card_bytes ? "DOES NOT FIT - the weights alone (" + gb(*params * bytes_per_value(fmt)) +
                                                        " + 1 GB overhead) are more than the card"
                                             : std::string("DOES NOT FIT - the caches do not fit beside the weights"))
                    << "\n";
          if (held <= serve.card_bytes)
            std::cout << "          at " << format_whole(serve.context) << " tokens at most "
                      << count_of(double(s.max_users_at_context), "user fits", "users fit") << "; "
                      << count_of(n, "user", "users") << " fit up to " << format_whole(double(s.max_context_for_users))
                      << " tokens each\n";
        } else {
          std::cout << "          (give --card NAME or --card-gb GB to check that the caches fit)\n";
        }
      }
    }
    rows.push_back(row);
  }
  if (as_json) {
    json j = {{"kind", "model"}, {"calc", "decode"}, {"params", *params}, {"bandwidth_gbs", bw_gbs}, {"rows", rows}};
    if (active) j["active_params"] = *active;
    if (prompt) j["prompt_tokens"] = *prompt;
    if (serving) j["model_shape"] = std::string(serve.shape.id);
    if (peak_flops > 0) j["peak_flops"] = peak_flops;
    if (card) j["card"] = spec_json(*card);
    print_json(j);
  } else {
    if (!serving)
      std::cout << "  (add --users N --context N to read every user's KV cache too, as a server's step does)\n";
    std::cout << "  (real speeds are lower: launch overhead, sampling, imperfect bandwidth)\n";
  }
  return k_ok;
}

}  // namespace gpulab::calc_cli

// `calc decode`: the decode ceiling (bandwidth ÷ bytes per token), batching, and mixtures of experts.
#include "calc_support.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/prefill_model.hpp"

#include <iostream>

namespace gpulab::calc_cli {

using namespace gpulab::models;

// ---- calc decode --------------------------------------------------------------------------------------------
int calc_decode(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> params, bandwidth, peak, users, prompt;
  std::optional<NumberFormat> precision;
  const GpuSpec* card = nullptr;
  r.number("params", 1e3, 1e13, params);
  r.number("bandwidth", 1e-3, 1e5, bandwidth);
  r.number("peak-tflops", 1e-3, 1e5, peak);
  r.number("users", 1, 1e6, users, true);
  r.number("prompt", 1, 1e7, prompt, true);
  r.format("precision", precision);
  r.card("card", card);
  if (!r.error.empty()) return usage_error(r.error);
  if (!params) return usage_error("calc decode needs --params N");
  if (card && bandwidth && peak) return usage_error("--card gives a bandwidth and a peak, and --bandwidth and --peak-tflops replace both");
  std::optional<double> active;
  if (!r.number("active-params", 1e3, 1e13, active)) return usage_error(r.error);
  if (active && *active > *params)
    return usage_error("--active-params " + Reader::num(*active) + " is more than --params " + Reader::num(*params));
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
    if (users) {
      DecodeInputs in;
      in.params = read;
      in.bytes_per_param = bytes_per_value(fmt);
      in.bandwidth_bytes_s = bw_gbs * 1e9;
      in.peak_flops = peak_flops;
      const DecodeStep s = decode_step(in, *users);
      const double turn = peak_flops > 0 ? compute_bound_batch(in) : INFINITY;
      row["batch"] = {{"users", *users},           {"aggregate_tokens_per_s", s.aggregate_tokens_s},
                      {"per_user_tokens_per_s", s.per_user_tokens_s}, {"compute_bound", s.compute_bound},
                      {"compute_bound_from_users", std::isfinite(turn) ? json(turn) : json(nullptr)}};
      if (!as_json) {
        std::cout << "        " << count_of(*users, "user", "users") << " batched: " << tokens(s.aggregate_tokens_s)
                  << " tokens/s in total, " << format_fixed_plain(s.per_user_tokens_s, 1) << " per user ("
                  << (s.compute_bound ? "compute-bound" : "memory-bound") << ")";
        if (std::isfinite(turn)) std::cout << "; compute-bound from ~" << format_whole(std::ceil(turn)) << " users";
        else std::cout << "; no compute limit given (--peak-tflops or --card)";
        std::cout << "\n";
      }
    }
    rows.push_back(row);
  }
  if (as_json) {
    json j = {{"kind", "model"}, {"calc", "decode"}, {"params", *params}, {"bandwidth_gbs", bw_gbs}, {"rows", rows}};
    if (active) j["active_params"] = *active;
    if (prompt) j["prompt_tokens"] = *prompt;
    if (peak_flops > 0) j["peak_flops"] = peak_flops;
    if (card) j["card"] = spec_json(*card);
    print_json(j);
  } else {
    std::cout << "  (real speeds are lower: KV cache reads, launch overhead, sampling, imperfect bandwidth)\n";
  }
  return k_ok;
}

}  // namespace gpulab::calc_cli

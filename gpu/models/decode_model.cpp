#include "gpulab/models/decode_model.hpp"

#include <algorithm>
#include <limits>

namespace gpulab::models {

double decode_bytes_per_token(double params, double bytes_per_param, double kv_bytes_read) {
  return params * bytes_per_param + kv_bytes_read;
}

double decode_ceiling_tokens_per_s(double bandwidth_bytes_s, double bytes_per_token) {
  return bytes_per_token > 0 ? bandwidth_bytes_s / bytes_per_token : 0.0;
}

double decode_flops_per_token(double params) { return 2.0 * params; }

double compute_at_ceiling(double params, double bytes_per_param, double bandwidth_bytes_s) {
  return decode_flops_per_token(params) *
         decode_ceiling_tokens_per_s(bandwidth_bytes_s, decode_bytes_per_token(params, bytes_per_param));
}

double idle_share_at_ceiling(double params, double bytes_per_param, double bandwidth_bytes_s, double peak_flops) {
  if (!(peak_flops > 0)) return 0.0;
  return 1.0 - compute_at_ceiling(params, bytes_per_param, bandwidth_bytes_s) / peak_flops;
}

DecodeRealEstimate decode_below_ceiling(const DecodeRealInputs& in) {
  DecodeRealEstimate e;
  const double weights = in.params * in.bytes_per_param;
  e.ceiling_tokens_s = decode_ceiling_tokens_per_s(in.bandwidth_bytes_s, weights);
  const double reached = in.bandwidth_bytes_s * in.bandwidth_share;
  if (!(reached > 0)) return e;
  e.weights_s = weights / reached;
  e.kv_s = in.kv_bytes_read / reached;
  e.launch_s = in.layers * in.kernels_per_layer * in.launch_gap_s;
  e.sampling_s = in.sampling_s;
  e.token_s = e.weights_s + e.kv_s + e.launch_s + e.sampling_s;
  e.tokens_s = e.token_s > 0 ? 1.0 / e.token_s : 0.0;
  e.share_of_ceiling = e.ceiling_tokens_s > 0 ? e.tokens_s / e.ceiling_tokens_s : 0.0;
  return e;
}

DecodeStep decode_step(const DecodeInputs& in, double users) {
  DecodeStep s;
  s.users = std::max(1.0, users);
  const double weights = in.params * in.bytes_per_param;
  // The weights stream once per step however many users share it (lesson: "Share the read").
  s.memory_s = in.bandwidth_bytes_s > 0 ? (weights + s.users * in.kv_bytes_per_user) / in.bandwidth_bytes_s : 0.0;
  s.compute_s = in.peak_flops > 0 ? s.users * decode_flops_per_token(in.params) / in.peak_flops : 0.0;
  s.step_s = std::max(s.memory_s, s.compute_s);
  s.compute_bound = s.compute_s >= s.memory_s;
  if (s.step_s > 0) {
    s.aggregate_tokens_s = s.users / s.step_s;
    s.per_user_tokens_s = 1.0 / s.step_s;
    s.compute_utilisation = s.compute_s / s.step_s;
  }
  return s;
}

double compute_bound_batch(const DecodeInputs& in) {
  if (!(in.bandwidth_bytes_s > 0) || !(in.peak_flops > 0)) return 0.0;
  const double weight_time = in.params * in.bytes_per_param / in.bandwidth_bytes_s;
  // users·(2P/peak - kv/bw) = W/bw; if each user's KV read costs more time than its FLOPs, never compute-bound.
  const double per_user = decode_flops_per_token(in.params) / in.peak_flops - in.kv_bytes_per_user / in.bandwidth_bytes_s;
  if (per_user <= 0) return std::numeric_limits<double>::infinity();
  return weight_time / per_user;
}

}  // namespace gpulab::models

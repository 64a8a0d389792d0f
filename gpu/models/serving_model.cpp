#include "gpulab/models/serving_model.hpp"

#include <algorithm>

namespace gpulab::models {

VramInputs serving_vram_inputs(const ServingInputs& in, double users) {
  VramInputs v;
  v.shape = in.shape;
  v.weights_format = in.weights_format;
  v.mode = VramMode::inference;
  v.context = in.context;
  v.users = std::max(1.0, users);
  v.kv_format = in.kv_format;
  v.overhead_bytes = in.overhead_bytes;
  return v;
}

ServingStep serving_step(const ServingInputs& in, double users) {
  ServingStep s;
  s.users = std::max(1.0, users);
  const double bpp = in.bytes_per_param > 0 ? in.bytes_per_param : bytes_per_value(in.weights_format);
  const double total = in.shape.params;
  const double active = in.active_params > 0 && in.active_params <= total ? in.active_params : total;
  // A batch reads the union of its users' experts: nearly all of them after a few users (moe_model.hpp).
  if (in.experts > in.active_experts && in.active_experts > 0 && active < total) {
    const MoeModel m = moe_from_counts(total, active, in.experts, in.active_experts);
    s.params_read = moe_params_read(m, s.users);
    s.experts_touched_share = moe_experts_touched_share(in.experts, in.active_experts, s.users);
  } else {
    // Without the counts a batch is charged its active parameters per user, up to every weight.
    s.params_read = std::min(total, active * (active < total ? s.users : 1.0));
  }
  s.weight_bytes_read = s.params_read * bpp;
  s.kv_bytes_per_user = kv_cache_bytes(in.shape.layers, in.shape.kv_heads, in.shape.head_dim, in.context, 1,
                                       kv_bytes_per_value(in.kv_format));
  s.kv_bytes_read = s.users * s.kv_bytes_per_user;
  s.step_bytes = s.weight_bytes_read + s.kv_bytes_read;
  if (in.bandwidth_bytes_s > 0) s.step.memory_s = s.step_bytes / in.bandwidth_bytes_s;
  if (in.peak_flops > 0) s.step.compute_s = s.users * decode_flops_per_token(active) / in.peak_flops;
  s.step.users = s.users;
  s.step.step_s = std::max(s.step.memory_s, s.step.compute_s);
  s.step.compute_bound = s.step.compute_s >= s.step.memory_s;
  if (s.step.step_s > 0) {
    s.step.aggregate_tokens_s = s.users / s.step.step_s;
    s.step.per_user_tokens_s = 1.0 / s.step.step_s;
    s.step.compute_utilisation = s.step.compute_s / s.step.step_s;
  }
  if (in.bandwidth_bytes_s > 0) {
    const double without = std::max(s.weight_bytes_read / in.bandwidth_bytes_s, s.step.compute_s);
    s.per_user_without_kv = without > 0 ? 1.0 / without : 0.0;
  }
  if (in.card_bytes > 0) {
    const VramInputs v = serving_vram_inputs(in, s.users);
    const VramBudget b = vram_budget(v, in.card_bytes);
    s.checked = true;
    s.fits = b.fits;
    s.vram_needed = b.total;
    s.max_users_at_context = max_users_that_fit(v, in.card_bytes, 1 << 16);
    s.max_context_for_users = max_context_that_fits(v, in.card_bytes);
  }
  return s;
}

}  // namespace gpulab::models

#include "gpulab/models/moe_model.hpp"

#include "gpulab/models/decode_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace gpulab::models {

namespace {

// Mixtral 8x7B: mistralai/Mixtral-8x7B-v0.1 model card and Mistral AI's announcement ("46.7B total parameters but
// only uses 12.9B parameters per token"); shape from its config.json (32 layers, hidden 4096, 32 query and 8 KV
// heads of 128, expert feed-forward 14336, 8 experts, 2 per token). Total: 46,702,792,704 in the checkpoint.
// Qwen3-30B-A3B: Qwen/Qwen3-30B-A3B model card ("30.5B in total and 3.3B activated", 48 layers, 32 query and 4 KV
// heads, 128 experts, 8 activated); hidden 2048, head dim 128, expert feed-forward 768 from its config.json.
const std::array<MoeModel, 2> k_moe{{
    {{"mixtral-8x7b", "Mixtral 8x7B", 46'702'792'704, 32, 4096, 32, 8, 128, 14336,
      "mistralai/Mixtral-8x7B-v0.1 model card + config.json"},
     12.9e9, 8, 2},
    {{"qwen3-30b-a3b", "Qwen3-30B-A3B", 30.5e9, 48, 2048, 32, 4, 128, 768,
      "Qwen/Qwen3-30B-A3B model card + config.json"},
     3.3e9, 128, 8},
}};

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const MoeModel> moe_presets() { return k_moe; }

const MoeModel* find_moe_preset(std::string_view name) {
  for (const auto& m : k_moe)
    if (iequal(m.shape.id, name) || iequal(m.shape.label, name)) return &m;
  return nullptr;
}

MoeDecode moe_decode(double total_params, double active_params, double bytes_per_param, double bandwidth_bytes_s,
                     double kv_bytes_read) {
  MoeDecode d;
  // An active count that is missing or larger than the model means nothing is skipped: read it all.
  const double active = active_params > 0 && active_params <= total_params ? active_params : total_params;
  d.weights_bytes = total_params * bytes_per_param;
  d.bytes_per_token = decode_bytes_per_token(active, bytes_per_param, kv_bytes_read);
  d.ceiling_tokens_s = decode_ceiling_tokens_per_s(bandwidth_bytes_s, d.bytes_per_token);
  d.dense_ceiling_tokens_s =
      decode_ceiling_tokens_per_s(bandwidth_bytes_s, decode_bytes_per_token(total_params, bytes_per_param, kv_bytes_read));
  d.read_share = total_params > 0 ? active / total_params : 0.0;
  return d;
}

double moe_experts_touched_share(int experts, int active_experts, double users) {
  if (experts <= active_experts || experts <= 0 || active_experts <= 0) return 1.0;
  const double missed_by_one = double(experts - active_experts) / experts;
  return 1.0 - std::pow(missed_by_one, std::max(1.0, users));
}

namespace {
// (total − active) ÷ (E − k) and active − k · that: the split moe_offload explains.
struct Split {
  double expert = 0, shared = 0;
};
Split split_of(const MoeModel& m) {
  Split s;
  if (m.experts <= m.active_experts || !(m.active_params > 0)) return s;
  s.expert = (m.shape.params - m.active_params) / (m.experts - m.active_experts);
  s.shared = std::max(0.0, m.active_params - m.active_experts * s.expert);
  return s;
}
}  // namespace

double moe_params_read(const MoeModel& m, double users) {
  const Split s = split_of(m);
  if (!(s.expert > 0)) return m.active_params > 0 ? m.active_params : m.shape.params;
  return s.shared + m.experts * s.expert * moe_experts_touched_share(m.experts, m.active_experts, users);
}

MoeModel moe_from_counts(double total_params, double active_params, int experts, int active_experts) {
  MoeModel m;
  m.shape.params = total_params;
  m.active_params = active_params;
  m.experts = experts;
  m.active_experts = active_experts;
  return m;
}

const MoeModel* find_moe_by_params(double total_params, double active_params) {
  for (const auto& m : k_moe)
    if (std::fabs(total_params / m.shape.params - 1) < 0.02 && std::fabs(active_params / m.active_params - 1) < 0.02)
      return &m;
  return nullptr;
}

MoeCpuExperts moe_cpu_experts(const MoeModel& m, double bytes_per_param, double card_bytes_s, double host_memory_bytes_s) {
  MoeCpuExperts c;
  const Split s = split_of(m);
  if (!(s.expert > 0) || !(card_bytes_s > 0) || !(host_memory_bytes_s > 0)) return c;
  c.card_s = s.shared * bytes_per_param / card_bytes_s;
  c.host_s = m.active_experts * s.expert * bytes_per_param / host_memory_bytes_s;
  c.token_s = c.card_s + c.host_s;
  c.tokens_s = 1.0 / c.token_s;
  const double in_vram = m.active_params * bytes_per_param / card_bytes_s;
  c.slowdown = c.token_s / in_vram;
  return c;
}

MoeOffload moe_offload(const MoeModel& m, double bytes_per_param, double card_bytes_s, double link_bytes_s) {
  MoeOffload o;
  const double total = m.shape.params, active = m.active_params;
  if (m.experts <= m.active_experts || !(card_bytes_s > 0) || !(link_bytes_s > 0) || !(active > 0)) return o;
  o.expert_params = (total - active) / (m.experts - m.active_experts);
  o.shared_params = std::max(0.0, active - m.active_experts * o.expert_params);
  o.bus_bytes_per_token = m.active_experts * o.expert_params * bytes_per_param;
  o.in_vram_s = active * bytes_per_param / card_bytes_s;
  o.offloaded_s = o.shared_params * bytes_per_param / card_bytes_s + o.bus_bytes_per_token / link_bytes_s;
  o.slowdown = o.in_vram_s > 0 ? o.offloaded_s / o.in_vram_s : 0.0;
  // Half speed: B of the token's bytes over the link and the rest from the card take twice the in-VRAM time,
  // (active − B) / card + B / link = 2 · active / card, so B = (active / card) / (1 / link − 1 / card).
  if (link_bytes_s < card_bytes_s) o.halving_bus_bytes = o.in_vram_s / (1 / link_bytes_s - 1 / card_bytes_s);
  return o;
}

}  // namespace gpulab::models

#pragma once
// Mixture of experts (MoE): each layer's feed-forward part is many "experts", and a router sends every token
// through only a few of them. VRAM must hold every expert, but a token reads only the active ones: the weights in
// memory follow the total parameters, the decode ceiling follows the active bytes.
#include "gpulab/models/vram_model.hpp"

#include <span>
#include <string_view>

namespace gpulab::models {

struct MoeModel {
  ModelShape shape;          // shape.params = total parameters; layers, KV heads, head dim size the KV cache
  double active_params = 0;  // parameters one token reads: attention, embeddings, router and its chosen experts
  int experts = 0;           // experts per layer
  int active_experts = 0;    // experts each token is routed through
};

// Mixtral 8x7B and Qwen3-30B-A3B, total and active parameters from their model cards.
std::span<const MoeModel> moe_presets();
// By id ("mixtral-8x7b") or label, case-insensitive; nullptr when unknown.
const MoeModel* find_moe_preset(std::string_view name);

// What a token costs a mixture of experts, against the same weights read whole (a dense model of that size).
struct MoeDecode {
  double weights_bytes = 0;          // every expert, in VRAM: total × bytes
  double bytes_per_token = 0;        // read per token: active × bytes (+ the KV cache read, when given)
  double ceiling_tokens_s = 0;       // bandwidth ÷ bytes per token
  double dense_ceiling_tokens_s = 0; // the ceiling if every weight were read (a dense model of the total size)
  double read_share = 0;             // active ÷ total: the part of the weights one token touches
};
// Mixtral 8x7B in FP16 at 3,350 GB/s: 93.4 GB held, 25.8 GB read per token, at most 129.8 tokens/s (a dense 46.7B
// would manage 35.9). active_params <= 0 or > total is treated as dense (all read).
MoeDecode moe_decode(double total_params, double active_params, double bytes_per_param, double bandwidth_bytes_s,
                     double kv_bytes_read = 0);

// Experts kept in host RAM: attention, embeddings and router stay on the card, and each token's active experts are
// read over the host link (PCIe) instead of from VRAM. Split of the parameters, from the totals alone:
//   one expert (all layers) = (total − active) ÷ (experts − active experts)
//   shared                  = active − active experts · one expert
// Mixtral 8x7B FP16, 3,350 GB/s on the card, 64 GB/s PCIe 5.0: one expert 5.634e9, shared 1.632e9; on the card
// 25.8 GB / 3,350 GB/s = 7.70 ms per token; offloaded 3.26 GB / 3,350 GB/s + 22.5 GB / 64 GB/s = 353.1 ms (45.8×
// slower). For the speed only to halve, at most (7.70 ms) / (1/64 − 1/3,350 s/GB) = 0.503 GB of a token's 25.8 GB
// may cross the bus: 1.9 % of it.
struct MoeOffload {
  double expert_params = 0;        // one expert across all layers
  double shared_params = 0;        // what every token reads besides its experts
  double bus_bytes_per_token = 0;  // the active experts' bytes, over the link
  double in_vram_s = 0;            // every weight on the card: active bytes ÷ card bandwidth
  double offloaded_s = 0;          // shared bytes ÷ card bandwidth + active experts' bytes ÷ link
  double slowdown = 0;             // offloaded ÷ in VRAM
  double halving_bus_bytes = 0;    // the most of a token's bytes the link may carry for the speed to fall by half
};
MoeOffload moe_offload(const MoeModel& m, double bytes_per_param, double card_bytes_s, double link_bytes_s);

}  // namespace gpulab::models

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

}  // namespace gpulab::models

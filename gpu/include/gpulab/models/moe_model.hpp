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

// ---- a batch of users ------------------------------------------------------------------------------------------
// A batched step routes each user's token on its own, so the batch touches the union of their experts. With a
// router that picks k of E experts evenly and independently per token, an expert is missed by one token with
// probability (E − k)/E, so the share of a layer's experts the batch touches is
//   1 − ((E − k) / E)^users.
// Mixtral (2 of 8): 25 % at 1 user, 1 − 0.75⁸ = 90.0 % at 8 users. Real routers are not perfectly even, but
// load-balancing losses push them towards it. Dense (experts <= active_experts): 1.
double moe_experts_touched_share(int experts, int active_experts, double users);
// Parameters one batched step reads: the shared part (attention, embeddings, router) once, and of the experts
// each layer holds, the share the batch touches:
//   shared + experts · one expert · touched share   (one expert and shared as moe_offload splits them)
// Mixtral 8x7B: 12.9e9 at 1 user, 1.632e9 + 8 · 5.634e9 · 0.8999 = 42.19e9 at 8 (84.4 GB of its 93.4 in FP16).
// A model without expert counts (experts <= active_experts): its active parameters.
double moe_params_read(const MoeModel& m, double users);
// A model from its totals alone, when the counts are known (`calc decode --experts E --active-experts K`).
MoeModel moe_from_counts(double total_params, double active_params, int experts, int active_experts);
// The preset with these totals (within 2 %), for a command line that gives only --params and --active-params.
const MoeModel* find_moe_by_params(double total_params, double active_params);

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

// What practical offload does instead (llama.cpp's --cpu-moe / --n-cpu-moe, ktransformers): the experts stay in
// host RAM and the CPU computes them there, so their weights stream from host memory into the CPU's cores, and only
// each layer's activations (a few KB a token) cross the bus. Per token:
//   shared bytes ÷ card bandwidth + active experts' bytes ÷ host memory bandwidth
// Mixtral 8x7B FP16 on an H100 SXM (3,350 GB/s) in a server whose CPU has eight channels of DDR5-4800
// (8 × 38.4 = 307.2 GB/s): 3.26 GB / 3,350 GB/s + 22.5 GB / 307.2 GB/s = 0.97 + 73.35 = 74.3 ms per token,
// 13.5 tokens/s — 9.6× slower than all in VRAM but 4.8× faster than copying the experts over PCIe 5.0 (353 ms).
// Still bound by a memory: the host's instead of the bus.
struct MoeCpuExperts {
  double card_s = 0;     // the shared part on the card
  double host_s = 0;     // the active experts read from host memory by the CPU
  double token_s = 0;
  double tokens_s = 0;
  double slowdown = 0;   // token_s ÷ everything in VRAM
};
MoeCpuExperts moe_cpu_experts(const MoeModel& m, double bytes_per_param, double card_bytes_s, double host_memory_bytes_s);

}  // namespace gpulab::models

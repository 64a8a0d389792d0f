#pragma once
// Batched decoding as a server really runs it (issue 36): every step reads the weights the batch touches once AND
// every user's KV cache at its context, and those caches must fit in VRAM beside the weights. The lesson's
// "8 users, each at about the same speed" holds only while the caches are small against the weights:
//   step bytes   = weights the batch touches + users · KV cache per user (at `context` tokens)
//   step time    = max(step bytes / bandwidth, users · 2 · active params / peak)
//   per user     = 1 / step time,  in total = users / step time
// and the fit check is the VRAM page's budget (vram_budget) for the same users and context.
// The lesson's 7B in FP16 on the shop's RTX 4090 (24 GB, 1,008 GB/s), 8 users at 4,096 tokens: 14.0 GB of weights
// + 8 · 2.15 GB of caches = 31.2 GB read a step, 32.3 tokens/s per user (72.0 without the caches) — and 32.2 GB
// of VRAM needed: it does not fit; 4 users fit at 4,096 tokens, 8 users at up to 2,139.
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <cstdint>

namespace gpulab::models {

struct ServingInputs {
  ModelShape shape{};               // params = every weight held; layers, KV heads, head dim size the cache (GQA-aware)
  double active_params = 0;         // a mixture of experts: parameters one token reads (0: dense, all of them)
  int experts = 0;                  // experts per layer (0: dense)
  int active_experts = 0;           // experts each token is routed through
  NumberFormat weights_format = NumberFormat::fp16;
  double bytes_per_param = 0;       // 0: bytes_per_value(weights_format)
  NumberFormat kv_format = NumberFormat::fp16;
  double context = default_context_tokens;  // tokens each user's cache holds (the VRAM page's default)
  double bandwidth_bytes_s = 0;
  double peak_flops = 0;            // 0: no compute roof
  double card_bytes = 0;            // 0: no fit check
  double overhead_bytes = 1e9;      // as the VRAM page's budget
};

struct ServingStep {
  double users = 1;
  double params_read = 0;           // weights one step reads (a mixture of experts: the experts the batch touches)
  double experts_touched_share = 1; // share of each layer's experts the batch touches (1: dense)
  double weight_bytes_read = 0;
  double kv_bytes_per_user = 0;     // one user's cache at `context` tokens
  double kv_bytes_read = 0;         // users · kv_bytes_per_user: read every step
  double step_bytes = 0;            // weights + caches
  DecodeStep step;                  // memory / compute time, per user and in total
  double per_user_without_kv = 0;   // the same step if the caches were not read (the lesson's simple ceiling)
  // The fit (card_bytes > 0): the VRAM page's budget for these users at this context.
  bool checked = false;
  bool fits = true;
  double vram_needed = 0;
  std::int64_t max_users_at_context = 0;  // most users whose caches fit at `context` tokens
  std::int64_t max_context_for_users = 0; // longest context (tokens) each of `users` users can have
};
ServingStep serving_step(const ServingInputs& in, double users);

// The VRAM page's budget for these inputs (inference, the page's defaults otherwise).
VramInputs serving_vram_inputs(const ServingInputs& in, double users);

}  // namespace gpulab::models

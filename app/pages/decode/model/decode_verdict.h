#pragma once
// The decode page's verdict on a measured chain: memory-bound while each user keeps (nearly) the batch-1 speed,
// because one read of the weights serves the whole batch; past the batch where per-user speed clearly falls, the
// arithmetic (or a CPU's caches) sets the pace. Read from the per-user curve itself, so the verdict and the curve
// drawn beside it cannot disagree. Also the notes the plot carries: how many layers really ran and the scale.
#include <string>
#include <vector>

namespace gpulab::models {

// One batch of the chain: seconds per token step of the whole model, median and the fastest/slowest sample.
struct ChainStep {
  double users = 0;
  double median_s = 0, min_s = 0, max_s = 0;
};

enum class DecodeBound { memory, compute, unclear, unknown };

struct DecodeVerdict {
  DecodeBound bound = DecodeBound::unknown;
  double bend_users = 0;        // compute: the first batch where per-user speed is clearly below `keep`
  double last_share = 0;        // per-user speed at the largest batch ÷ at batch 1 (medians)
  double last_users = 0;
  std::string text;
};

// `keep`: the share of batch-1 per-user speed that still counts as "the same" (0.8).
DecodeVerdict decode_verdict(std::vector<ChainStep> steps, double keep = 0.8);

// The measured chain runs the QKV, O and MLP products only: attention over each user's KV cache is left out, so its
// verdict holds for short contexts alone. What the cache would add, from the model: at `context` tokens each user's
// cache (`kv_bytes_per_user`) is read every step beside the weights, so a step at `users` users reads
// weights + users · cache — that many times the weights alone, and each user's speed falls by the same factor.
// "" when there is nothing to add (no weights or no context).
std::string chain_attention_note(double weight_bytes, double kv_bytes_per_user, double context, double users);
// That factor alone: (weights + users · cache) ÷ weights (1 when either is missing).
double chain_attention_factor(double weight_bytes, double kv_bytes_per_user, double users);

// "2 of 32 layers run, time scaled ×16" (or "all 32 layers run").
std::string chain_scale_note(int layers_run, int full_layers);

}  // namespace gpulab::models

#pragma once
// The decode page's measured side: a chain of batch×k by k×n products shaped like a transformer's layers,
// run back to back as one decode step, so tokens/s can be set against the bandwidth ceiling.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"

#include <string>

namespace gpulab {

// The weight matrices of one decoder layer, in the order a token meets them:
//   QKV  hidden -> (heads + 2·kv_heads)·head_dim   (GQA shrinks K and V; heads == kv_heads is plain attention)
//   O    heads·head_dim -> hidden
//   gate hidden -> intermediate, up hidden -> intermediate, down intermediate -> hidden
// Llama-2-7B: hidden 4096, 32 heads of 128, intermediate 11008 -> 202,375,168 weights per layer.
struct TransformerShape {
  int hidden = 4096;
  int heads = 32;
  int kv_heads = 32;
  int head_dim = 128;
  int intermediate = 11008;
  int layers = 32;  // the full model's depth, for extrapolation
};
LayerChainSpec layer_chain_for(const TransformerShape& shape, int layers, long long batch, Precision precision);

double layer_chain_params_per_layer(const LayerChainSpec& spec);  // Σ k·n over one layer
double layer_chain_weight_bytes(const LayerChainSpec& spec);      // × layers × bytes per element
// How many layers fit in `budget_bytes` of weights (at least 1, at most max_layers); the page runs that many
// and extrapolates the step time to the full depth.
int layer_chain_layers_that_fit(const LayerChainSpec& one_layer, double budget_bytes, int max_layers);

// Prefill measured: the prompt's tokens go through the chain as one batch. A CPU cannot time a long prompt of a
// large layer in a few seconds (a 1,000-token prompt through one 7B layer is 405 GFLOP, ~10 s a pass on two cores),
// so the batch is capped to what `max_flops` allows for the spec's layers: min(prompt, floor(max_flops ÷ (2 ·
// Σk·n · layers))), at least 1. The 7B layer (202,375,168 weights) at one layer under prefill_cpu_max_flops: 123
// tokens; the small layer (12,845,056 weights): 1,946. max_flops <= 0: no cap.
long long prefill_chain_batch(const LayerChainSpec& spec, long long prompt_tokens, double max_flops);
// One timed pass of the CPU's prefill at most: ~0.5–1 s at the 50–100 GFLOP/s two cores reach with OpenBLAS, so the
// check and three samples keep the step to a few seconds and a cancel lands within one product.
inline constexpr double prefill_cpu_max_flops = 50e9;
// A GPU's prefill: the prompt as it is, up to this many tokens (one product of the 7B layer at 8,192 rows is 0.74
// TFLOP: about a millisecond on an H100, far under the cancel window).
inline constexpr long long prefill_gpu_max_tokens = 8192;

// Checks, then times the chain (the whole chain is one sample). Result: experiment "layer_chain", variant
// "gemm_chain"; params batch, layers, params_per_layer, weight_bytes; flops = 2·batch·Σk·n·layers; bytes =
// weights + activations read and written. A backend without the operation gives a Result with `error` set.
Result run_layer_chain(Backend& backend, const LayerChainSpec& spec, const RunContext& ctx);

}  // namespace gpulab

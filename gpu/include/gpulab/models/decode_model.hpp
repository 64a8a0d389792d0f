#pragma once
// The decode ceiling (lesson 17.1, "Worked example"): generating one token for one user reads every weight
// once, so tokens/s can never exceed bandwidth / bytes per token. Batching shares that read between users
// until the arithmetic, not the memory, becomes the limit.

#include "gpulab/models/launch_model.hpp"

namespace gpulab::models {

// params · bytes/param + the KV cache bytes read for that token (0 to ignore it, as the lesson does).
// 7B FP16: 14e9 bytes.
double decode_bytes_per_token(double params, double bytes_per_param, double kv_bytes_read = 0);

// bandwidth / bytes per token. Lesson, 3,350 GB/s: 239.29 (FP16, 14 GB), 478.57 (INT8), 957.14 (INT4);
// 50 GB/s FP16: 3.57. Returns 0 for non-positive bytes.
double decode_ceiling_tokens_per_s(double bandwidth_bytes_s, double bytes_per_token);

// About 2 FLOPs per weight per token (one multiply, one add): 14e9 for 7B.
double decode_flops_per_token(double params);

// FLOP/s the cores do while running at the ceiling: 14e9 × 239.29 = 3.35e12 (the lesson's "~3.3 TFLOP/s").
double compute_at_ceiling(double params, double bytes_per_param, double bandwidth_bytes_s);

// At batch 1 the arithmetic units wait for memory: the share of the time they are idle while the decoder runs at
// the ceiling, 1 − compute_at_ceiling / peak. 7B FP16 on an H100 SXM (3,350 GB/s, 989.4 TFLOP/s dense FP16):
// 1 − 3.35 / 989.4 = 99.66 %; on an RTX 4090 (1,008 GB/s, 165.2): 1 − 1.008 / 165.2 = 99.39 %. 0 for peak <= 0.
double idle_share_at_ceiling(double params, double bytes_per_param, double bandwidth_bytes_s, double peak_flops);

// Why a real batch-1 decoder runs below the ceiling, as one rough sum per token (a model; its assumptions are
// the fields' defaults, each with its source):
//   token time = (weights + this conversation's KV cache) / (bandwidth · share reached)
//              + kernel launches · gap per launch + sampling
// The ceiling counts only the first term's weights at the datasheet bandwidth.
struct DecodeRealInputs {
  double params = 7e9;
  double bytes_per_param = 2.0;
  double kv_bytes_read = 0;            // this conversation's KV cache: read once for every new token
  double bandwidth_bytes_s = 3350e9;   // datasheet
  // Memory never streams at the datasheet figure: BabelStream copy / triad on an H100 SXM reach 86.6 / 88.7 %
  // of 3.35 TB/s, on an H200 83.5 / 86.5 % of 4.8 (Azure/AI-benchmarking-guide, in data/reference-results.md).
  double bandwidth_share = 0.87;
  // A Llama-style layer launches about 10 kernels when nothing is fused (two norms, the QKV, O, gate/up and down
  // products, rotary embedding, attention, the activation, two residual adds).
  int layers = 32;
  double kernels_per_layer = 10;
  // GPU time lost per launch. A decoder launches its kernels asynchronously, back to back, and its products run
  // longer than the CPU takes to issue the next: only the gap between kernels is lost, 0.9 µs
  // (launch_model.hpp: NVIDIA's CUDA-graphs measurement, 3.8 µs a kernel back to back against 2.9 µs of work).
  // A launch-and-wait per kernel would cost 6.7 µs; a CUDA graph 0.5 µs. With it the model lands within 4 % of
  // llama.cpp's measured 61 tokens/s for a 13.5 GB F16 7B on an RTX 4090 (PR 4766): see the test.
  double launch_gap_s = LaunchCosts{}.async_gap_s();
  // Picking the token: a softmax over the vocabulary, a sort for top-p, one token id copied back to the host.
  // An assumption (0.1 ms), not a measurement.
  double sampling_s = 1e-4;
};
struct DecodeRealEstimate {
  double ceiling_tokens_s = 0;  // datasheet bandwidth ÷ weight bytes, as the lesson computes it
  double weights_s = 0;         // weights at the bandwidth really reached
  double kv_s = 0;              // the KV cache read
  double launch_s = 0;          // kernel launch gaps
  double sampling_s = 0;
  double token_s = 0;           // the sum
  double tokens_s = 0;          // 1 / token_s
  double share_of_ceiling = 0;  // tokens_s / ceiling_tokens_s
};
// 7B FP16 on an H100 SXM with a 4,096-token conversation (2 GiB of KV cache): 4.80 + 0.74 + 0.29 + 0.10 ms =
// 5.93 ms, about 169 tokens/s, 70 % of the 239 ceiling.
DecodeRealEstimate decode_below_ceiling(const DecodeRealInputs& in);

// Batched decoding. One step produces one token for each of `users` users:
//   step time = max(memory time, compute time)
//   memory time  = (weights + users · kv_bytes_per_user) / bandwidth   (weights read once per step, shared)
//   compute time = users · 2 · params / peak_flops
// aggregate = users / step time, per user = 1 / step time.
struct DecodeInputs {
  double params = 7e9;
  double bytes_per_param = 2.0;
  double bandwidth_bytes_s = 3350e9;
  double peak_flops = 989.4e12;        // dense FP16 of an H100 SXM (data/gpu-specs.csv)
  double kv_bytes_per_user = 0;        // KV cache bytes each user's token reads per step (0 = ignore)
};
struct DecodeStep {
  double users = 1;
  double memory_s = 0;
  double compute_s = 0;
  double step_s = 0;
  double aggregate_tokens_s = 0;
  double per_user_tokens_s = 0;
  bool compute_bound = false;          // compute time >= memory time
  double compute_utilisation = 0;      // compute_s / step_s: share of peak in use (1 - idle share)
};
DecodeStep decode_step(const DecodeInputs& in, double users);

// The batch at which compute time catches up with memory time (ignoring KV reads):
//   users* = (weights / bandwidth) / (2 · params / peak) = peak · bytes_per_param / (2 · bandwidth).
// H100 SXM FP16: 989.4e12 · 2 / (2 · 3.35e12) ≈ 295 users: the roofline's ridge point again, since batch-B
// decode does 2·B FLOPs per 2 bytes of weight. With KV reads the crossover comes later (solved exactly).
double compute_bound_batch(const DecodeInputs& in);

}  // namespace gpulab::models

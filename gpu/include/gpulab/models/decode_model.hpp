#pragma once
// The decode ceiling (lesson 17.1, "Worked example"): generating one token for one user reads every weight
// once, so tokens/s can never exceed bandwidth / bytes per token. Batching shares that read between users
// until the arithmetic, not the memory, becomes the limit.

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

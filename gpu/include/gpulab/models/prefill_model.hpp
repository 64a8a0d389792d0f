#pragma once
// Prefill and decode: the two halves of a chatbot's answer. The prompt's N tokens go through the model together,
// one batch of N (every weight read once, 2 FLOPs per weight per token: compute-bound once N is large, like the
// batch sweep); each new token after that is a batch of one (memory-bound: decode_model.hpp). The prefill ends with
// the first new token, so its time is the time to first token (TTFT).
//
// A roofline estimate: the time is the larger of the compute time and the time to read the weights at the
// bandwidth. The compute runs at gemm_share of the datasheet peak: 1 gives the roof itself (a floor under any real
// time); the page passes the share a real GEMM reaches (cuBLAS at its best shape: 80.3 % of an H100's dense BF16,
// data/reference-results.md), measured or published. Left out: attention's own N² work (for a 7B model with a
// 4,096-token prompt about 8 % of the products' FLOPs), kernel launches, and bandwidth under 100 %.

namespace gpulab::models {

struct PrefillInputs {
  double params = 7e9;              // parameters each token is multiplied by (a mixture of experts: its active ones)
  double weight_bytes = 14e9;       // bytes read once for the whole prompt (a mixture of experts: all of its experts,
                                    // since a prompt's tokens are routed to nearly every one)
  double bandwidth_bytes_s = 3350e9;
  double peak_flops = 989.4e12;     // dense FP16 of an H100 SXM (data/gpu-specs.csv)
  double gemm_share = 1.0;          // share of peak_flops the products reach (0..1]; 1: the datasheet roof
};

struct PrefillEstimate {
  double prompt_tokens = 0;
  double flops = 0;            // 2 · params · prompt tokens
  double compute_s = 0;        // flops ÷ (peak · gemm_share)
  double memory_s = 0;         // weight bytes ÷ bandwidth
  double ttft_s = 0;           // max(compute, memory): the floor under the time to first token
  bool compute_bound = false;  // compute_s >= memory_s
  double prompt_tokens_s = 0;  // prompt tokens ÷ ttft: prompt processing speed
};
// 7B FP16 on an H100 SXM (989.4 TFLOP/s, 3,350 GB/s): a 1,000-token prompt 1.4e13 FLOPs, 14.15 ms compute against
// 4.18 ms of weights, so TTFT ≥ 14.15 ms (compute-bound, 70,671 prompt tokens/s); 100 tokens: 1.42 ms against
// 4.18 ms, memory-bound, TTFT ≥ 4.18 ms. At cuBLAS's 80.3 % of the peak the 1,000 tokens take 14.15 / 0.803 = 17.62
// ms. Zeros where the peak, the share or the bandwidth is not positive; a share above 1 counts as 1.
PrefillEstimate prefill_estimate(const PrefillInputs& in, double prompt_tokens);

// The prompt length from which prefill is compute-bound: peak · share · weight bytes ÷ (2 · params · bandwidth). 7B
// FP16 on an H100 SXM at the full peak: 295.3 tokens, the same ridge as batched decode's (decode_model.hpp,
// compute_bound_batch); at 80.3 % of it, 237.2 tokens.
double prefill_compute_bound_from(const PrefillInputs& in);

}  // namespace gpulab::models

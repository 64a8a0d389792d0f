#include "gpulab/models/prefill_model.hpp"

#include <algorithm>

namespace gpulab::models {

PrefillEstimate prefill_estimate(const PrefillInputs& in, double prompt_tokens) {
  PrefillEstimate e;
  e.prompt_tokens = std::max(1.0, prompt_tokens);
  if (!(in.peak_flops > 0) || !(in.bandwidth_bytes_s > 0) || !(in.gemm_share > 0)) return e;
  e.flops = 2.0 * in.params * e.prompt_tokens;
  e.compute_s = e.flops / (in.peak_flops * std::min(1.0, in.gemm_share));
  e.memory_s = in.weight_bytes / in.bandwidth_bytes_s;
  e.ttft_s = std::max(e.compute_s, e.memory_s);
  e.compute_bound = e.compute_s >= e.memory_s;
  e.prompt_tokens_s = e.ttft_s > 0 ? e.prompt_tokens / e.ttft_s : 0.0;
  return e;
}

double prefill_compute_bound_from(const PrefillInputs& in) {
  if (!(in.peak_flops > 0) || !(in.bandwidth_bytes_s > 0) || !(in.params > 0) || !(in.gemm_share > 0)) return 0.0;
  return in.peak_flops * std::min(1.0, in.gemm_share) * in.weight_bytes / (2.0 * in.params * in.bandwidth_bytes_s);
}

}  // namespace gpulab::models

// The decode page's plan (see decode.hpp): the triad, the chain at 1, 2, 4 … users, and the prompt's prefill.
#include "plans/decode.hpp"

#include "gpulab/decode_experiments.hpp"
#include "gpulab/device_words.hpp"
#include "gpulab/suite_registry.hpp"

#include <algorithm>
#include <string>

namespace gpulab {
double decode_default_budget(const Backend& b) {
  const double free = b.memory_info().free_bytes;
  if (b.kind() == "cpu") return std::clamp(free / 4, 0.1e9, 2e9);
  return std::min(16e9, free / 2);
}

// The decode page's run: the triad (the measured bandwidth its ceiling divides), then one decode step of a
// transformer-shaped chain at 1, 2, 4 … users, as many layers as fit the budget (the page extrapolates to the
// full depth), then the prompt's prefill through the same chain.
Plan decode_plan(const Backends& backends, const DecodeControls& c) {
  PlanBuilder plan(plan_name::decode);
  Backend* b = backends.cpu;
  Precision p = Precision::fp32;
  if (c.use_gpu && backends.gpu) {
    // FP16 weights as a GPU serves them; FP32 where the device has no FP16 chain.
    for (Precision gp : {Precision::fp16, Precision::fp32}) {
      if (!backends.gpu->supports(layer_chain_for(c.shape, 1, 1, gp)).ok) continue;
      b = backends.gpu;
      p = gp;
      break;
    }
    if (b == backends.cpu)
      plan.note(*backends.gpu, experiment_name::layer_chain, "gemm_chain", Precision::fp16, {{"batch", 1.0}},
                backends.gpu->supports(layer_chain_for(c.shape, 1, 1, Precision::fp16)).reason +
                    " — the chain runs on the CPU");
  }
  const LayerChainSpec probe = layer_chain_for(c.shape, 1, 1, p);
  if (const Support ok = b->supports(probe); !ok.ok) {
    plan.note(*b, experiment_name::layer_chain, "gemm_chain", p, {{"batch", 1.0}}, ok.reason);
    return plan.take();
  }
  const double budget = c.budget_bytes > 0 ? c.budget_bytes : decode_default_budget(*b);
  const int layers = layer_chain_layers_that_fit(probe, budget, c.shape.layers);
  plan.bandwidth(*b, "triad", c.triad_bytes);
  const TransformerShape shape = c.shape;
  for (long long users = 1; users <= std::max(1, c.max_users); users *= 2) {
    // A device may take fewer layers than the budget holds for this many users (a Vulkan device keeps one run within
    // the cancel window): the deepest chain it takes, down to one layer, whose refusal then says why. The label and
    // the result name the depth that ran; the page scales each point to the full depth by its own layer count.
    int run_layers = layers;
    while (run_layers > 1 && !b->supports(layer_chain_for(shape, run_layers, users, p)).ok) --run_layers;
    plan.add({{}, "decode chain " + std::string(display_name(p)) + ", " + std::to_string(run_layers) + " of " +
                      std::to_string(shape.layers) + " layers, " + std::to_string(users) + " users",
              1.0, b, experiment_name::layer_chain, "gemm_chain", p,
              {{"batch", double(users)}, {"layers", double(run_layers)}},
              [b, shape, run_layers, users, p](const RunContext& ctx) {
                return one_result(run_layer_chain(*b, layer_chain_for(shape, run_layers, users, p), ctx));
              }});
  }
  if (c.prompt_tokens >= 2) {
    // The prompt's prefill: the same chain with the prompt's tokens as one batch, beside the batch-1 step above, so
    // the compute-bound and the memory-bound regime are both measured. On the CPU one layer (the time per token is
    // scaled to the full depth like every step) and a batch capped to a few seconds' work.
    const long long prompt = c.prompt_tokens;
    // Vulkan on the CPU (lavapipe) computes on this computer's cores too: it gets the CPU's cap.
    const bool cpu = b == backends.cpu || device_words(b->device_info()).device_class == DeviceClass::vulkan_on_cpu;
    int run_layers = cpu ? 1 : layers;
    long long tokens = cpu ? prefill_chain_batch(layer_chain_for(shape, 1, 1, p), prompt, prefill_cpu_max_flops)
                           : std::min(prompt, prefill_gpu_max_tokens);
    while (run_layers > 1 && !b->supports(layer_chain_for(shape, run_layers, tokens, p)).ok) --run_layers;
    const std::string of = tokens < prompt ? std::to_string(tokens) + " of " + std::to_string(prompt) : std::to_string(prompt);
    plan.add({{}, "prefill chain " + std::string(display_name(p)) + ", " + std::to_string(run_layers) + " of " +
                      std::to_string(shape.layers) + " layers, prompt " + of + " tokens",
              cpu ? 2.0 : 1.0, b, experiment_name::layer_chain, "gemm_chain", p,
              {{"batch", double(tokens)}, {"layers", double(run_layers)}, {"prompt_tokens", double(prompt)}},
              [b, shape, run_layers, tokens, prompt, p](const RunContext& ctx) {
                // The prompt's length rides on the result (as_layer_chain's prompt_tokens), so the page tells a
                // prefill from a decode step of the same batch.
                RunContext tagged = ctx;
                tagged.on_result = [&ctx, prompt](const Result& r) {
                  Result t = r;
                  t.params["prompt_tokens"] = double(prompt);
                  if (ctx.on_result) ctx.on_result(t);
                };
                Result r = run_layer_chain(*b, layer_chain_for(shape, run_layers, tokens, p), tagged);
                r.params["prompt_tokens"] = double(prompt);
                return one_result(std::move(r));
              }});
  }
  return plan.take();
}

GPULAB_PLAN_FILE(decode) {
  registry.add({60, "decode",
                "the decode page's run: the triad, then a 7B-shaped decode step (GEMV chain) at 1…64 users on the GPU in FP16 (the CPU in FP32 without one), against the bandwidth ceiling",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return decode_plan(b); }});
}

}  // namespace gpulab

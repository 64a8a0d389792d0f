#pragma once
// The decode page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench
// suite that runs it with the default controls, registered in decode.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/decode_experiments.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>

namespace gpulab {

namespace plan_name {
inline constexpr const char* decode = "decode";
}  // namespace plan_name

// ---- The decode page -------------------------------------------------------------------------------------------
struct DecodeControls {
  TransformerShape shape;        // one layer of the chain (the 7B model's by default)
  double budget_bytes = 0;       // weights the chain may hold; 0: decode_default_budget for the device
  int max_users = 64;            // the chain runs 1, 2, 4 … users up to this
  bool use_gpu = true;           // the GPU slot's device when it runs the chain, else the CPU
  std::size_t triad_bytes = 64u << 20;  // the triad before the chain (the ceiling's measured bandwidth)
  int prompt_tokens = 1000;      // the page's prompt: its prefill is the chain at this batch (capped on a CPU)
};
// The CPU: a quarter of free memory, 0.1 to 2 GB; a GPU: half of its free memory, at most 16 GB.
double decode_default_budget(const Backend& b);
// The triad, then one decode step of the chain at 1, 2, 4 … users, with as many layers as fit the budget (the
// page extrapolates to the full depth), then the prompt's prefill: the chain at a batch of the prompt's tokens (one
// layer and at most prefill_cpu_max_flops a pass on a CPU, prefill_gpu_max_tokens on a GPU; prompt_tokens < 2: none),
// its result carrying the prompt's length as "prompt_tokens". A GPU runs FP16 where it can, the CPU FP32; a GPU without the chain: a
// note saying why, and the CPU runs it.
Plan decode_plan(const Backends& backends, const DecodeControls& controls = {});

}  // namespace gpulab

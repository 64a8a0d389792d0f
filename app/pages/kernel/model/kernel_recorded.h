#pragma once
// The kernel page's measured figure for one ladder step, without Qt: the CUDA module's GEMM of the same kernel
// (FP32) as a recording measured it, at the largest size recorded (the one least held back by launch and tail
// effects). Only the matrix-multiply plan's ladder (or a recording from before plans) counts, read through the
// typed view as_gemm; a Vulkan shader of the same name is another kernel and never stands for the CUDA step.
#include "models/sourced_result.h"
#include "gpulab/results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kernel_recorded {

using Input = SourcedResult;  // models/sourced_result.h
struct Speed {
  double flops = 0;  // per second
  long long m = 0, n = 0, k = 0;
  int source = -1;
  std::string device;
};
// `variant`: the CUDA module's name for the step (kernel_trace's module_variant_of); empty: none.
std::optional<Speed> recordedSpeed(const std::vector<Input>& results, const std::string& variant);

}  // namespace kernel_recorded

#pragma once
// One check of a student's launcher at one shape: seeded random A and B, C poisoned with NaN, the launch watched
// (access_watch.hpp), C compared with FP64 dot products within the ladder's K-scaled FP32 tolerance.
#include <gpulab_emu/kernel_trace.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>

namespace gpulab::lab {

// {"m","n","k","status": "ok" | "wrong" | "fault", "message", "pc" (the faulting instruction, absolute; 0 = none),
//  "launch_line", "wrong_count", "wrong": [{"row","col","got","expected","written","block","thread"}...]}
nlohmann::json check_shape(emu::SgemmLauncher launcher, int m, int n, int k, std::uint64_t seed);

}  // namespace gpulab::lab

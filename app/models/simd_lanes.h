#pragma once
// How many FP32 numbers one SIMD instruction of the reordered loop handles on a CPU with these flags
// (DeviceInfo::simd). Qt-free: the matmul page's lesson and the What-a-GPU-is picture both read it.
#include <string>

namespace gpulab::models {

// 8 with AVX2+FMA, 4 on the x86-64 baseline (SSE/AVX), 0 when unknown (not x86, or nothing detected).
int simd_fp32_lanes(const std::string& simd);

}  // namespace gpulab::models

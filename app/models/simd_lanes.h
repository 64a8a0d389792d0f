#pragma once
// How many FP32 numbers one SIMD instruction of the reordered loop handles on a CPU with these flags
// (DeviceInfo::simd). Qt-free: the matmul page's lesson and the What-a-GPU-is picture both read it.
#include <string>

namespace gpulab::models {

// 8 with AVX2+FMA, 4 on the x86-64 baseline (SSE/AVX), 0 when unknown (not x86, or nothing detected).
int simd_fp32_lanes(const std::string& simd);

// FP32 FMA lanes per core, counted as the GPU's lanes per SM are (FMAs per clock = FMA units × SIMD width), so the
// What-a-GPU-is picture compares like with like: every x86 core with AVX2+FMA (Haswell on, Zen 2 on) has two FMA
// pipes of 8 floats, 16 FMAs a clock (a Zen 4 core runs AVX-512 as two 256-bit halves: the same 16); the x86-64
// baseline one 4-wide SSE multiply and add, 4. 0 when unknown. The GPU's count is peak ÷ (SMs × clock × 2).
int cpu_fma_lanes_per_core(const std::string& simd);
// Whether the flags name a matrix unit on the CPU (Intel's AMX): the CPU's counterpart of Tensor Cores.
bool cpu_has_matrix_units(const std::string& simd);

}  // namespace gpulab::models

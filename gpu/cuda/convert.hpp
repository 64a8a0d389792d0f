#pragma once
// Host-side rounding to the low-precision storage formats (convert.cu, compiled by nvcc so it uses CUDA's own
// conversion routines). Each function writes the bits the GPU will read *and* the value those bits stand for:
// the reference is computed from the rounded values, so a check measures the kernel's arithmetic, not the
// rounding of its inputs.
#include <cstddef>
#include <cstdint>

namespace gpulab::cuda::convert {

void to_fp16(const float* in, std::uint16_t* bits, float* rounded, std::size_t n);
void to_bf16(const float* in, std::uint16_t* bits, float* rounded, std::size_t n);
void to_fp8_e4m3(const float* in, std::uint8_t* bits, float* rounded, std::size_t n);  // saturating to ±448
// Round to TF32 (10 mantissa bits, nearest-even), kept in FP32 storage: the tensor cores then see exactly these.
void to_tf32(const float* in, float* rounded, std::size_t n);
// q = round(x · 127), for x in [-1, 1]: small integers whose int32 dot products are exact.
void to_int8(const float* in, std::int8_t* q, float* rounded, std::size_t n);

void fp16_to_float(const std::uint16_t* bits, float* out, std::size_t n);
void bf16_to_float(const std::uint16_t* bits, float* out, std::size_t n);

}  // namespace gpulab::cuda::convert

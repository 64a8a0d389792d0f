#pragma once
// FP16 and BF16 as 16-bit patterns, converted from and to float with round to nearest, ties to even, in integer
// arithmetic. Portable on purpose: _Float16 is missing from gcc 11 and MSVC, and a teacher's machine may have either.
// The Vulkan module uploads and reads FP16 buffers through these; the CUDA emulator's __half and __nv_bfloat16 are
// built on them (gpulab_emu/half_types.hpp). Tested against the host compiler's _Float16 where it has one, and
// against a nearest-of-all-halves search in double everywhere (tests/cuda_emu/test_emu_half_types.cpp).
#include <cstdint>
#include <cstring>

namespace gpulab {

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Rounds the low `shift` bits of `value` away, to nearest with ties to even.
inline std::uint32_t round_shift_even(std::uint32_t value, int shift) {
  const std::uint32_t kept = value >> shift;
  const std::uint32_t rest = value & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
}

inline std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t mag = x & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7E00u | ((mag >> 13) & 0x3FFu));  // NaN
  if (mag >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // 65520 and up round to infinity
  if (mag < 0x38800000u) {  // below 2^-14: a half subnormal (units of 2^-24) or zero
    if (mag <= 0x33000000u) return static_cast<std::uint16_t>(sign);  // 2^-25 and below round to (even) zero
    const int exponent = static_cast<int>(mag >> 23);
    const std::uint32_t mantissa = (mag & 0x7FFFFFu) | 0x800000u;
    return static_cast<std::uint16_t>(sign | round_shift_even(mantissa, 126 - exponent));
  }
  // Normal: rebias the exponent (127 → 15) and round 23 mantissa bits to 10; a carry may bump the exponent.
  return static_cast<std::uint16_t>(sign | round_shift_even(mag - 0x38000000u, 13));
}

inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  const std::uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1F) return bits_float(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // m · 2^-24, exact
    return sign ? -magnitude : magnitude;
  }
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// The float FP16 storage makes of f: what a device multiplies after f was uploaded as FP16.
inline float round_through_half(float f) { return half_bits_to_float(float_to_half_bits(f)); }

inline std::uint16_t float_to_bf16_bits(float f) {
  const std::uint32_t x = float_bits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // keep NaN quiet
  return static_cast<std::uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

inline float bf16_bits_to_float(std::uint16_t b) { return bits_float(static_cast<std::uint32_t>(b) << 16); }

}  // namespace gpulab

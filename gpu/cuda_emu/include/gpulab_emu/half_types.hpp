#pragma once
// __half and __nv_bfloat16 as storage types with CUDA's round-to-nearest-even conversions, written out in integer
// arithmetic so they do not depend on the host compiler's _Float16 support (the tests compare them with it).
#include <gpulab/half_bits.hpp>

#include <cstdint>

struct __half {
  std::uint16_t bits;
};
struct __nv_bfloat16 {
  std::uint16_t bits;
};

// The conversions themselves are the core's portable ones (gpulab/half_bits.hpp), shared with the Vulkan module.
namespace gpulab::emu {
using gpulab::bits_float;
using gpulab::float_bits;
using gpulab::float_to_bf16_bits;
using gpulab::float_to_half_bits;
using gpulab::half_bits_to_float;
}  // namespace gpulab::emu

inline __half __float2half_rn(float f) { return __half{gpulab::emu::float_to_half_bits(f)}; }
inline __half __float2half(float f) { return __float2half_rn(f); }
inline float __half2float(__half h) { return gpulab::emu::half_bits_to_float(h.bits); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16{gpulab::emu::float_to_bf16_bits(f)}; }
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return gpulab::emu::bits_float(static_cast<std::uint32_t>(b.bits) << 16); }

// Host-side conversions to the storage formats; see convert.hpp for why both bits and values are kept.
// Each loop is split over every core (gpulab::parallel_chunks): an 8192² matrix is 67 M elements, and the
// precision suite rounds two of them per format before the GPU can start.
#include "convert.hpp"

#include "gpulab/parallel_chunks.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstring>

namespace gpulab::cuda::convert {
namespace {
// Below a million elements a thread costs more than it saves.
template <typename Body>
void each_range(std::size_t n, Body body) {
  gpulab::parallel_chunks(n, std::size_t{1} << 20, body);
}
}  // namespace

void to_fp16(const float* in, std::uint16_t* bits, float* rounded, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const __half h = __float2half_rn(in[i]);
      std::memcpy(&bits[i], &h, sizeof(h));
      rounded[i] = __half2float(h);
    }
  });
}

void to_bf16(const float* in, std::uint16_t* bits, float* rounded, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const __nv_bfloat16 h = __float2bfloat16_rn(in[i]);
      std::memcpy(&bits[i], &h, sizeof(h));
      rounded[i] = __bfloat162float(h);
    }
  });
}

void to_fp8_e4m3(const float* in, std::uint8_t* bits, float* rounded, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const __nv_fp8_storage_t s = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E4M3);
      bits[i] = s;
      const __half_raw hr = __nv_cvt_fp8_to_halfraw(s, __NV_E4M3);
      __half h;
      std::memcpy(&h, &hr, sizeof(h));
      rounded[i] = __half2float(h);
    }
  });
}

void to_tf32(const float* in, float* rounded, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      std::uint32_t u;
      std::memcpy(&u, &in[i], sizeof(u));
      if (std::isfinite(in[i])) {
        // Nearest-even on the 13 bits TF32 drops: add half an ulp, plus one if the kept part is odd, then truncate.
        u += 0x0FFFu + ((u >> 13) & 1u);
        u &= 0xFFFFE000u;
      }
      std::memcpy(&rounded[i], &u, sizeof(u));
    }
  });
}

void to_int8(const float* in, std::int8_t* q, float* rounded, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      float v = std::nearbyint(in[i] * 127.0f);
      v = v > 127.f ? 127.f : (v < -127.f ? -127.f : v);
      q[i] = static_cast<std::int8_t>(v);
      rounded[i] = v;
    }
  });
}

void fp16_to_float(const std::uint16_t* bits, float* out, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      __half h;
      std::memcpy(&h, &bits[i], sizeof(h));
      out[i] = __half2float(h);
    }
  });
}

void bf16_to_float(const std::uint16_t* bits, float* out, std::size_t n) {
  each_range(n, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      __nv_bfloat16 h;
      std::memcpy(&h, &bits[i], sizeof(h));
      out[i] = __bfloat162float(h);
    }
  });
}

}  // namespace gpulab::cuda::convert

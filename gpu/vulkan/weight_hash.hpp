#pragma once
// The decode chain's weights as a hash of their place, made on the device (shaders/fill_weights.comp) and
// recomputed here for the columns the check samples: a 7B chain's 6.5 G FP16 weights were generated on one host
// thread and staged across the bus for every job (minutes per job on an H200), like CUDA's fill_scaled is not.
//
// Weight (i, col) of a k×n product is m · 2^-e, m a hash of (i·n + col, the product's seed) uniform in [-M, M] with
// |m| ≥ m_min: M ≈ sqrt(3/k) · 2^e in [1024, 2048), so the weights have the variance 1/k that keeps the activations'
// size through any depth, and every value is exact in FP16 and FP32 (an 11-bit integer times a power of two, never
// below FP16's smallest normal), so no device's rounding mode or denormal flushing can change it.
#include <cmath>
#include <cstdint>

namespace gpulab::vk {

struct WeightHash {
  std::uint32_t seed = 0;
  std::uint32_t range = 1024;   // M
  std::uint32_t min_abs = 1;    // m_min
  float scale = 1.0f / 1024;    // 2^-e
};

inline WeightHash weight_hash_for(long long k, std::uint64_t seed, std::size_t product) {
  WeightHash h;
  h.seed = static_cast<std::uint32_t>((seed ^ (seed >> 32)) * 2654435761u + 7919u * (product + 1));
  const double sigma = std::sqrt(3.0 / static_cast<double>(k > 0 ? k : 1));
  int e = 0;
  while (sigma * std::ldexp(1.0, e) < 1024.0 && e < 60) ++e;
  h.range = static_cast<std::uint32_t>(std::lround(sigma * std::ldexp(1.0, e)));
  h.range = h.range < 1 ? 1 : h.range > 2047 ? 2047 : h.range;
  // FP16's smallest normal is 2^-14: |m| · 2^-e must not go below it.
  h.min_abs = e > 14 ? (1u << (e - 14)) : 1u;
  if (h.min_abs > h.range) h.min_abs = h.range;
  h.scale = static_cast<float>(std::ldexp(1.0, -e));
  return h;
}

inline std::uint32_t weight_hash_bits(std::uint32_t x, std::uint32_t seed) {
  x ^= seed;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// The weight at flat index i·n + col.
inline float weight_value(const WeightHash& h, std::uint32_t index) {
  const std::uint32_t bits = weight_hash_bits(index, h.seed);
  int m = static_cast<int>(bits % (2 * h.range + 1)) - static_cast<int>(h.range);
  const int lo = static_cast<int>(h.min_abs);
  if (m > -lo && m < lo) m = m < 0 ? -lo : lo;
  return static_cast<float>(m) * h.scale;
}

}  // namespace gpulab::vk

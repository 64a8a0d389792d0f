// The FP16 and BF16 conversions (gpulab/half_bits.hpp, under the emulator's __half and __nv_bfloat16; the Vulkan
// module uses them too) against independent references: a nearest-of-all-halves search in double for FP16 on every
// compiler, the host compiler's _Float16 where it has one (gcc 12+, clang; not gcc 11 or MSVC), and a
// nearest-of-two-neighbours search in double for BF16.
#include <gpulab_emu/half_types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <random>
#include <vector>

namespace {

std::vector<float> probe_values() {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f, 65520.0f, 1e9f, -1e9f,
                          5.96e-8f, 2.98e-8f, 2.9802322e-8f, 6.1035156e-5f, 6.1e-5f, 1e-10f,
                          INFINITY, -INFINITY, NAN, 3.0e38f, 1.0009765625f, 1.00048828125f};
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t u = bits(rng);
    float f;
    std::memcpy(&f, &u, 4);
    v.push_back(f);
  }
  // Every float near the FP16 range's edges and in its subnormals, where rounding is trickiest.
  for (float f = 1e-8f; f < 1e-4f; f *= 1.0013f) v.push_back(f);
  for (float f = 60000.0f; f < 70000.0f; f += 0.37f) v.push_back(f);
  return v;
}

// Every finite non-negative FP16 value, in order of its bits (which is its order as a number), from the format's
// definition: subnormals m * 2^-24, normals (1024 + m) * 2^(e-25).
const std::vector<double>& all_halves() {
  static const std::vector<double> values = [] {
    std::vector<double> v;
    for (int e = 0; e < 31; ++e)
      for (int m = 0; m < 1024; ++m) v.push_back(e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25));
    return v;
  }();
  return values;
}

// The nearest FP16 to f, ties to the even bit pattern; past the largest (65504) the next step would be 65536, so
// 65520 and up round to infinity, as IEEE rounding does.
std::uint16_t half_reference(float f) {
  const std::uint16_t sign = std::signbit(f) ? 0x8000u : 0u;
  const double x = std::fabs(static_cast<double>(f));
  if (x >= 65520.0) return sign | 0x7C00u;
  const std::vector<double>& v = all_halves();
  const auto above = std::lower_bound(v.begin(), v.end(), x);
  if (above == v.end()) return sign | static_cast<std::uint16_t>(v.size() - 1);  // above 65504: nearer it than 65536
  if (*above == x) return sign | static_cast<std::uint16_t>(above - v.begin());
  const auto below = above - 1;
  const double d_below = x - *below, d_above = *above - x;
  auto pick = d_below < d_above ? below : above;
  if (d_below == d_above) pick = ((below - v.begin()) & 1) ? above : below;
  return sign | static_cast<std::uint16_t>(pick - v.begin());
}

TEST(EmulatedHalfTypes, Fp16RoundsToTheNearestHalfTiesToEven) {
  std::size_t wrong = 0;
  for (float f : probe_values()) {
    const std::uint16_t got = gpulab::float_to_half_bits(f);
    if (std::isnan(f)) {
      EXPECT_TRUE((got & 0x7C00u) == 0x7C00u && (got & 0x3FFu) != 0) << f;
      continue;
    }
    const std::uint16_t want = half_reference(f);
    wrong += got != want;
    const float magnitude = (want & 0x7FFFu) == 0x7C00u ? INFINITY : static_cast<float>(all_halves()[want & 0x7FFFu]);
    EXPECT_EQ(gpulab::half_bits_to_float(got), (want & 0x8000u) ? -magnitude : magnitude) << f;
  }
  EXPECT_EQ(wrong, 0u);
}

#ifdef __FLT16_MAX__  // the compiler has _Float16: the emulated __half must round exactly as it does
TEST(EmulatedHalfTypes, Fp16RoundsLikeTheHostCompiler) {
  std::size_t wrong = 0;
  for (float f : probe_values()) {
    const _Float16 h = static_cast<_Float16>(f);
    std::uint16_t want;
    std::memcpy(&want, &h, 2);
    const std::uint16_t got = gpulab::emu::float_to_half_bits(f);
    const bool both_nan = std::isnan(f) && (got & 0x7C00u) == 0x7C00u && (got & 0x3FFu) != 0;
    if (got != want && !both_nan) ++wrong;
    if (!std::isnan(f)) {
      EXPECT_EQ(__half2float(__half{got}), static_cast<float>(h)) << f;
    }
  }
  EXPECT_EQ(wrong, 0u);
}
#endif

std::uint16_t bf16_reference(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isinf(f)) return static_cast<std::uint16_t>(u >> 16);
  const std::uint32_t low = u & 0xFFFF0000u;   // truncated toward zero
  const std::uint32_t high = low + 0x10000u;   // the next BF16 away from zero
  float a, b;
  std::memcpy(&a, &low, 4);
  std::memcpy(&b, &high, 4);
  // Past the largest BF16 the next step would be 2^128: measure the distance to that, as IEEE rounding does.
  const double b_value = std::isinf(b) ? std::copysign(std::ldexp(1.0, 128), f) : static_cast<double>(b);
  const double da = std::fabs(static_cast<double>(f) - a);
  const double db = std::fabs(static_cast<double>(f) - b_value);
  if (da != db) return static_cast<std::uint16_t>((da < db ? low : high) >> 16);
  return static_cast<std::uint16_t>((((low >> 16) & 1u) ? high : low) >> 16);  // a tie goes to the even one
}

TEST(EmulatedHalfTypes, Bf16RoundsToTheNearerNeighbourTiesToEven) {
  std::size_t wrong = 0;
  for (float f : probe_values()) {
    if (std::isnan(f)) {
      const std::uint16_t got = gpulab::emu::float_to_bf16_bits(f);
      EXPECT_TRUE((got & 0x7F80u) == 0x7F80u && (got & 0x7Fu) != 0);
      continue;
    }
    wrong += gpulab::emu::float_to_bf16_bits(f) != bf16_reference(f);
  }
  EXPECT_EQ(wrong, 0u);
}

}  // namespace

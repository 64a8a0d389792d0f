// The transfer ops' byte pattern: filled and compared on every core (byte_pattern.hpp).
#include "gpulab/byte_pattern.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/parallel_chunks.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace gpulab {
namespace {
constexpr std::size_t kBlock = std::size_t{1} << 20;
}

void fill_pattern_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  parallel_chunks(blocks, 4, [=](std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
      std::uint64_t x = (seed + b) * 0x9E3779B97F4A7C15ull + 1;
      const std::size_t end = std::min(n, (b + 1) * kBlock);
      std::size_t i = b * kBlock;
      for (; i + 8 <= end; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        std::memcpy(p + i, &x, 8);
      }
      for (; i < end; ++i) p[i] = static_cast<std::uint8_t>(i * 131u + 7u);
    }
  });
}

Check compare_pattern_bytes(const std::uint8_t* got, const std::uint8_t* want, std::size_t n, const std::string& what) {
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  // The first differing block, found by memcmp on every core; then the byte within it, serially.
  std::atomic<std::size_t> first_block{blocks};
  parallel_chunks(blocks, 16, [&](std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1 && b < first_block.load(); ++b) {
      const std::size_t begin = b * kBlock, len = std::min(n, begin + kBlock) - begin;
      if (std::memcmp(got + begin, want + begin, len) != 0) {
        std::size_t seen = first_block.load();
        while (b < seen && !first_block.compare_exchange_weak(seen, b)) {
        }
        return;
      }
    }
  });
  Check c;
  c.checked = static_cast<long long>(n);
  const std::size_t bad = first_block.load();
  if (bad >= blocks) {
    c.passed = true;
    return c;
  }
  for (std::size_t i = bad * kBlock; i < n; ++i)
    if (got[i] != want[i]) {
      c.first_bad_index = static_cast<long long>(i);
      break;
    }
  c.passed = false;
  c.max_abs_err = 1;
  c.max_rel_err = 1;
  c.message = what + ": the destination differs from the source, first at byte " + std::to_string(c.first_bad_index);
  return c;
}

}  // namespace gpulab

// Seeded random inputs in [-1, 1). Never zeros: zeros (and denormals) take fast paths on some hardware and would
// make a GEMM look faster than it is.
#include "gpulab/harness.hpp"
#include "gpulab/parallel_chunks.hpp"

#include <cstdint>

namespace gpulab {
namespace {

// splitmix64: one add and three xor-shift-multiplies per value, good enough statistics for test inputs and fast
// enough to fill hundreds of MB without showing up in a run.
constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += kGolden);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

// Element i is made from the generator's state after i steps, seed + i·kGolden: each core starts its own range
// there, so a parallel fill writes exactly the values a serial one would (the seeds in old recordings still
// name the same inputs). Ranges under a million elements are not worth a thread.
constexpr std::size_t kMinChunk = std::size_t{1} << 20;

}  // namespace

void fill_random(float* p, std::size_t count, std::uint64_t seed) {
  parallel_chunks(count, kMinChunk, [p, seed](std::size_t begin, std::size_t end) {
    SplitMix64 rng{seed + begin * kGolden};
    for (std::size_t i = begin; i < end; ++i) {
      if (((i - begin) & ((std::size_t{1} << 20) - 1)) == 0) throw_if_cancelled();  // ~5 ms apart on a busy core
      // (j + 0.5)·2^-23 - 1 for a 24-bit j: odd multiples of 2^-24 in (-1, 1), exact in FP32 and never 0.
      const auto j = static_cast<std::uint32_t>(rng.next() >> 40);
      p[i] = static_cast<float>((static_cast<double>(j) + 0.5) * 0x1p-23 - 1.0);
    }
  });
}

void fill_random(double* p, std::size_t count, std::uint64_t seed) {
  parallel_chunks(count, kMinChunk, [p, seed](std::size_t begin, std::size_t end) {
    SplitMix64 rng{seed + begin * kGolden};
    for (std::size_t i = begin; i < end; ++i) {
      if (((i - begin) & ((std::size_t{1} << 20) - 1)) == 0) throw_if_cancelled();
      // Same construction with 52 bits: exact in FP64 and never 0.
      const std::uint64_t j = rng.next() >> 12;
      p[i] = (static_cast<double>(j) + 0.5) * 0x1p-51 - 1.0;
    }
  });
}

}  // namespace gpulab

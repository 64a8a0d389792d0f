#pragma once
// The byte pattern the transfer ops (CUDA and Vulkan) send and check: made and compared on every core, in blocks,
// so the result is the same whatever the number of cores. A serial fill and a byte-by-byte compare of a 1 GiB
// buffer took seconds per job, longer than the timed copies they prepared (issue 35).
#include "gpulab/results.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpulab {

// xorshift64 over blocks of 1 MiB, each block seeded from its index and `seed`.
void fill_pattern_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed);

// Compares `got` with `want` (n bytes) in parallel; on a mismatch the check names the first differing byte.
Check compare_pattern_bytes(const std::uint8_t* got, const std::uint8_t* want, std::size_t n, const std::string& what);

}  // namespace gpulab

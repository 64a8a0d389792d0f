#include "models/simd_lanes.h"

namespace gpulab::models {

int simd_fp32_lanes(const std::string& simd) {
  // The reordered loop is built twice (target_clones): an AVX2+FMA copy (8 floats per instruction) and the
  // x86-64 baseline (SSE2, 4 floats); the loader picks the first this CPU runs. AVX-512 is not used by it.
  const auto has = [&](const char* flag) { return simd.find(flag) != std::string::npos; };
  if (has("AVX2") && has("FMA")) return 8;
  if (has("SSE") || has("AVX")) return 4;
  return 0;
}

int cpu_fma_lanes_per_core(const std::string& simd) {
  const auto has = [&](const char* flag) { return simd.find(flag) != std::string::npos; };
  if (has("AVX2") && has("FMA")) return 2 * 8;  // two FMA pipes, 8 floats each
  if (has("SSE") || has("AVX")) return 4;       // one 4-wide multiply + add pair a clock
  return 0;
}

bool cpu_has_matrix_units(const std::string& simd) { return simd.find("AMX") != std::string::npos; }

}  // namespace gpulab::models

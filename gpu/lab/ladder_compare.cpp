#include "gpulab_lab/ladder_compare.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

namespace gpulab::lab {
namespace {

// The change each step's successor makes (gpu/cuda/kernels/0N_*.cu, "What changed"), said as advice.
const char* next_change_after(const std::string& step) {
  if (step == "01_naive")
    return "Swap the thread index: let threadIdx.x walk the columns of C, so a warp's loads of B and stores of C "
           "are consecutive (step 2, coalesced).";
  if (step == "02_coalesced")
    return "Stage 32x32 tiles of A and B in __shared__ memory, __syncthreads() around their use, so each element "
           "fetched from global memory is reused by 32 threads (step 3).";
  if (step == "03_shared_tiles")
    return "Let each thread compute several cells (a column of 8) and keep them in registers: each value loaded "
           "from shared memory then feeds 8 FMAs (step 4, 1D block tiling).";
  if (step == "04_blocktile_1d")
    return "Compute an 8x8 patch per thread from 8 values of A and 8 of B held in registers: an outer product, "
           "1/4 shared load per FMA (step 5, 2D block tiling).";
  if (step == "05_blocktile_2d")
    return "Load and store 16 bytes at a time (float4) and keep the A tile transposed in shared memory, so the "
           "loads are a quarter as many (step 6, vectorised).";
  if (step == "06_vectorized")
    return "Tile per warp and pad the shared tiles so that a quarter-warp's reads hit distinct banks: no bank "
           "conflicts (step 7, warp tiling).";
  return "";
}

double log2_or_zero(double v) { return v > 0 ? std::log2(v) : 0; }

}  // namespace

TraceFeatures features_of(const emu::StepTrace& t) {
  TraceFeatures f;
  const long long requests = t.global_load_requests();
  f.sectors_per_request = requests ? double(t.global_load_sectors()) / double(requests) : 0;
  f.bytes_per_flop = t.bytes_per_flop();
  f.shared_reuse = t.shared_reuse();
  const double threads = double(t.grid[0]) * t.grid[1] * t.grid[2] * t.block[0] * t.block[1] * t.block[2];
  f.cells_per_thread = threads > 0 ? double(t.shape.m) * t.shape.n / threads : 0;
  for (const emu::InstructionTrace& i : t.instructions)
    if (!i.shared && !i.store && i.access_bytes > f.widest_global_load) f.widest_global_load = i.access_bytes;
  const long long shared_requests = t.shared_requests();
  f.bank_conflicts_per_request = shared_requests ? double(t.shared_extra_wavefronts()) / double(shared_requests) : 0;
  return f;
}

Closest closest_step(const emu::StepTrace& student, const std::vector<emu::StepTrace>& ladder) {
  // Log scales: each feature spans orders of magnitude along the ladder, and a factor of 2 should weigh the same
  // wherever it happens. Shared reuse counts double: it is what separates step 2 from step 3 most plainly.
  const auto point = [](const TraceFeatures& f) {
    return std::array<double, 5>{log2_or_zero(f.sectors_per_request), log2_or_zero(f.bytes_per_flop),
                                 2 * log2_or_zero(1 + f.shared_reuse), log2_or_zero(f.cells_per_thread),
                                 log2_or_zero(f.widest_global_load / 4.0)};
  };
  const auto s = point(features_of(student));
  Closest best;
  for (std::size_t i = 0; i < ladder.size(); ++i) {
    const auto l = point(features_of(ladder[i]));
    double d = 0;
    for (std::size_t j = 0; j < s.size(); ++j) d += (s[j] - l[j]) * (s[j] - l[j]);
    d = std::sqrt(d);
    if (best.index < 0 || d < best.distance) {
      best.index = static_cast<int>(i);
      best.step = ladder[i].step;
      best.distance = d;
    }
  }
  if (best.index >= 0) best.next_change = next_change_after(best.step);
  return best;
}

const std::vector<emu::StepTrace>& ladder_at(const emu::TraceShape& shape) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int>, std::vector<emu::StepTrace>> cache;
  const std::lock_guard lock(mutex);
  auto& traces = cache[{shape.m, shape.n, shape.k}];
  if (traces.empty())
    for (const std::string& step : emu::traced_ladder_steps()) traces.push_back(emu::trace_ladder_step(step, shape));
  return traces;
}

}  // namespace gpulab::lab

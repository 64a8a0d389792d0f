#pragma once
// The roofline: a kernel with arithmetic intensity I (FLOPs per byte) can reach at most
// min(peak, I · bandwidth). Below the ridge point peak / bandwidth it waits on memory; above it, on the ALUs.
// Lesson: ~1000 TFLOP/s over ~3.35 TB/s -> roughly 300 FLOPs per byte (298.5).
#include <cstddef>
#include <span>
#include <string>

namespace gpulab::models {

// Units are free as long as they agree: FLOP/s and bytes/s give FLOP/s.
double attainable_flops(double peak_flops, double bandwidth_bytes_s, double intensity);
// FLOPs per byte where the two roofs meet; 0 when bandwidth <= 0.
double ridge_point(double peak_flops, double bandwidth_bytes_s);

enum class Bound { memory, compute };
// Memory-bound strictly below the ridge point, compute-bound at or above it.
Bound classify(double intensity, double peak_flops, double bandwidth_bytes_s);
const char* bound_name(Bound b);  // "memory-bound" / "compute-bound"

struct RooflinePoint {
  double intensity = 0;  // FLOPs per byte
  double achieved = 0;   // FLOP/s (any unit, consistently)
};

// The measured memory-bound -> compute-bound crossover, found from the points rather than assumed.
// Rule (documented for the batch-sweep page):
//   1. points with non-finite or non-positive values are ignored; the rest are taken in order of intensity;
//   2. the plateau is the highest achieved value;
//   3. the crossover is the first point whose achieved value reaches `share` (default 80 %) of the plateau;
//   4. it counts as found only if some earlier point lies below that share (a memory-bound region was seen)
//      AND some later point exists (the plateau was seen, not just the last, still-rising point);
//   5. the implied bandwidth is achieved / intensity of the lowest-intensity point (the slope of the memory
//      roof), and the implied ridge is plateau / implied bandwidth: the measured counterpart of ridge_point().
struct Crossover {
  bool found = false;
  std::size_t index = 0;          // into the *sorted, filtered* order; see `intensity` for the value
  double intensity = 0;           // FLOPs per byte at the crossover point
  double achieved = 0;
  double plateau = 0;
  double implied_bandwidth = 0;   // achieved/intensity of the lowest-intensity point
  double implied_ridge = 0;       // plateau / implied_bandwidth
  std::string reason;             // why not found (empty when found)
};
Crossover find_crossover(std::span<const RooflinePoint> points, double share = 0.8);

}  // namespace gpulab::models

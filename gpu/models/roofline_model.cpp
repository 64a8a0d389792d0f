#include "gpulab/models/roofline_model.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpulab::models {

double attainable_flops(double peak_flops, double bandwidth_bytes_s, double intensity) {
  return std::min(peak_flops, intensity * bandwidth_bytes_s);
}

double ridge_point(double peak_flops, double bandwidth_bytes_s) {
  return bandwidth_bytes_s > 0 ? peak_flops / bandwidth_bytes_s : 0.0;
}

Bound classify(double intensity, double peak_flops, double bandwidth_bytes_s) {
  return intensity < ridge_point(peak_flops, bandwidth_bytes_s) ? Bound::memory : Bound::compute;
}

const char* bound_name(Bound b) { return b == Bound::memory ? "memory-bound" : "compute-bound"; }

Crossover find_crossover(std::span<const RooflinePoint> points, double share) {
  Crossover c;
  std::vector<RooflinePoint> pts;
  pts.reserve(points.size());
  for (const auto& p : points)
    if (std::isfinite(p.intensity) && std::isfinite(p.achieved) && p.intensity > 0 && p.achieved > 0) pts.push_back(p);
  std::stable_sort(pts.begin(), pts.end(),
                   [](const RooflinePoint& a, const RooflinePoint& b) { return a.intensity < b.intensity; });
  if (pts.size() < 3) {
    c.reason = "need at least 3 valid points";
    return c;
  }
  if (!(share > 0 && share <= 1)) share = 0.8;
  for (const auto& p : pts) c.plateau = std::max(c.plateau, p.achieved);
  c.implied_bandwidth = pts.front().achieved / pts.front().intensity;
  c.implied_ridge = c.implied_bandwidth > 0 ? c.plateau / c.implied_bandwidth : 0.0;

  const double threshold = share * c.plateau;
  std::size_t i = 0;
  while (i < pts.size() && pts[i].achieved < threshold) ++i;  // always stops: the plateau point qualifies
  c.index = i;
  c.intensity = pts[i].intensity;
  c.achieved = pts[i].achieved;
  if (i == 0) {
    c.reason = "already at the plateau at the lowest intensity: no memory-bound region measured";
  } else if (i + 1 == pts.size()) {
    c.reason = "still rising at the highest intensity: plateau not reached";
  } else {
    c.found = true;
  }
  return c;
}

}  // namespace gpulab::models

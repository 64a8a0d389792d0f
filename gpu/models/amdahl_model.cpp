#include "gpulab/models/amdahl_model.hpp"

#include <algorithm>
#include <limits>

namespace gpulab::models {

double amdahl_speedup(double serial_share, double workers) {
  const double s = std::clamp(serial_share, 0.0, 1.0);
  const double n = std::max(1.0, workers);
  return 1.0 / (s + (1.0 - s) / n);
}

double amdahl_limit(double serial_share) {
  const double s = std::clamp(serial_share, 0.0, 1.0);
  return s > 0 ? 1.0 / s : std::numeric_limits<double>::infinity();
}

double amdahl_efficiency(double serial_share, double workers) {
  return amdahl_speedup(serial_share, workers) / std::max(1.0, workers);
}

double partial_speedup(double fraction_sped_up, double factor) {
  if (!(factor > 0)) return 0.0;
  const double f = std::clamp(fraction_sped_up, 0.0, 1.0);
  return 1.0 / ((1.0 - f) + f / factor);
}

}  // namespace gpulab::models

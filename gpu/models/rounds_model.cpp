#include "gpulab/models/rounds_model.hpp"

#include <algorithm>

namespace gpulab::models {

std::int64_t rounds(std::int64_t cells, std::int64_t workers) {
  if (cells <= 0 || workers <= 0) return 0;
  // Integer ceil without the overflow of (cells + workers - 1).
  return cells / workers + (cells % workers != 0 ? 1 : 0);
}

double round_utilisation(std::int64_t cells, std::int64_t workers) {
  const std::int64_t r = rounds(cells, workers);
  if (r == 0) return 0.0;
  return static_cast<double>(cells) / (static_cast<double>(r) * static_cast<double>(workers));
}

ClerkResult clerk_model(double workers, double cell_rate, double clerk_rate) {
  ClerkResult r;
  r.demand_rate = std::max(0.0, workers) * std::max(0.0, cell_rate);
  // No clerk limit when clerk_rate <= 0: the slider's "unlimited" end.
  const bool limited = clerk_rate > 0 && clerk_rate < r.demand_rate;
  r.effective_rate = limited ? clerk_rate : r.demand_rate;
  r.clerk_limited = limited;
  r.idle_share = r.demand_rate > 0 ? 1.0 - r.effective_rate / r.demand_rate : 0.0;
  return r;
}

}  // namespace gpulab::models

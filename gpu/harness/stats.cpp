// Summary statistics over timing samples.
#include "gpulab/harness.hpp"

#include <algorithm>
#include <numeric>

namespace gpulab {

Stats summarize(std::vector<double> samples) {
  Stats s;
  s.n = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  // The median, not the mean, is the headline: one preempted sample on a shared machine must not move it.
  s.median_s = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.min_s = samples.front();
  s.max_s = samples.back();
  s.mean_s = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  s.rel_spread = s.median_s > 0 ? (s.max_s - s.min_s) / s.median_s : 0;
  return s;
}

}  // namespace gpulab

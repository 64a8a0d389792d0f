// Progress reporting of one run inside a larger job.
#include "gpulab/experiments.hpp"

#include <algorithm>

namespace gpulab {

void RunContext::report(double fraction_of_this_run, const std::string& message) const {
  if (!on_progress) return;
  const double f = std::clamp(fraction_of_this_run, 0.0, 1.0);
  on_progress(Progress{progress_base + progress_span * f, message});
}

}  // namespace gpulab

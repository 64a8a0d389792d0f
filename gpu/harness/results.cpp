// Rates from a Result's counts and median time.
#include "gpulab/results.hpp"

namespace gpulab {

void finalize_rates(Result& r) {
  const double t = r.stats.median_s;
  // A rate is only meaningful when something was timed; 0 means "not applicable" to the consumers.
  r.gflops = (t > 0 && r.flops > 0) ? r.flops / t / 1e9 : 0;
  r.gbps = (t > 0 && r.bytes > 0) ? r.bytes / t / 1e9 : 0;
}

}  // namespace gpulab

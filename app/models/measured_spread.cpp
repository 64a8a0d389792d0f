#include "models/measured_spread.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpulab::models {

RateRange rate_range(const Result& r, double work_per_run) {
  RateRange out;
  if (!r.ok() || work_per_run <= 0 || r.stats.median_s <= 0) return out;
  out.typical = work_per_run / r.stats.median_s / 1e9;
  // The min/max times give the max/min rates; fall back to the median when a result kept no spread.
  out.high = r.stats.min_s > 0 ? work_per_run / r.stats.min_s / 1e9 : out.typical;
  out.low = r.stats.max_s > 0 ? work_per_run / r.stats.max_s / 1e9 : out.typical;
  out.samples = std::max(r.stats.n, 1);
  return out;
}

RateRange gflops_range(const Result& r) { return rate_range(r, r.flops); }
RateRange gbps_range(const Result& r) { return rate_range(r, r.bytes); }

Ordering compare_rates(const RateRange& a, const RateRange& b, double margin) {
  if (a.samples == 0 || b.samples == 0) return Ordering::too_close;
  if (a.low > b.high * (1 + margin)) return Ordering::a_faster;
  if (b.low > a.high * (1 + margin)) return Ordering::b_faster;
  return Ordering::too_close;
}

std::string spread_text(const RateRange& r) {
  if (r.samples < 2 || r.typical <= 0) return {};
  const double half = 50.0 * r.rel_spread();
  char buf[32];
  std::snprintf(buf, sizeof buf, "±%.0f %%", std::max(half, 0.5));
  return buf;
}

}  // namespace gpulab::models

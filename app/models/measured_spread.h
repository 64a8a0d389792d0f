#pragma once
// The spread of a measured rate, and the one rule every page uses before it draws a conclusion from two
// measurements: a difference counts only when the two ranges do not overlap. Qt-free, so it is unit-tested
// without widgets (tests/models).
#include "gpulab/results.hpp"

#include <string>

namespace gpulab::models {

// A rate (GFLOP/s, GB/s, ...) with the range its timed samples span. Rates are work / time, so the fastest
// sample gives `high` and the slowest gives `low`.
struct RateRange {
  double low = 0, typical = 0, high = 0;
  int samples = 0;
  double rel_spread() const { return typical > 0 ? (high - low) / typical : 0; }
};

// work_per_run: flops for GFLOP/s, bytes for GB/s. Returns an empty range (samples == 0) for a failed result.
RateRange rate_range(const Result& r, double work_per_run);
RateRange gflops_range(const Result& r);
RateRange gbps_range(const Result& r);

// What a comparison of two measured rates supports.
enum class Ordering { a_faster, b_faster, too_close };

// a_faster only when a's whole range lies above b's by at least `margin` (relative, e.g. 0.03 = 3 %) and so on.
// Overlapping ranges are too_close: the noise could have produced the difference.
Ordering compare_rates(const RateRange& a, const RateRange& b, double margin = 0.03);

// "±12 %" style text for a tooltip or table column; "" when there is nothing to show.
std::string spread_text(const RateRange& r);

}  // namespace gpulab::models

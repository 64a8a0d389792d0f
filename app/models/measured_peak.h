#pragma once
// A GEMM's share of its own device's *measured* FMA peak (issue 27), for the matmul and batch pages: the roofs
// suite's "peak" results (gpulab/roofs.hpp) of the same backend and device name, from the same source as the GEMM
// (measured here, or the same recording): never another device's peak, another recording's, or a datasheet
// figure. A format whose GEMM runs on other units than the FMA chains (tensor cores) gets no share
// (gpulab::gemm_on_fma_units). Qt-free; tests/models/test_measured_peak.cpp.
#include "gpulab/backend_kind.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"

#include <string>

namespace measured_peak {

// Who ran a result: its backend kind and the device's name from provenance.
struct Device {
  gpulab::BackendKind backend = gpulab::BackendKind::unknown;
  std::string name;
};
Device deviceOf(const gpulab::Result& r);

// The FMA peak `r` measured, in GFLOP/s, when it is a passed "peak" result in `p` on `device`; else 0.
double peakGflopsOf(const gpulab::Result& r, const Device& device, gpulab::Precision p);

// Whether a GEMM in `p` on `device`'s backend runs on the units the FMA chains of `p` measure.
bool gemmSharesPeak(const Device& device, gpulab::Precision p);

// The best such peak among `inputs` (any type with .result and .source) of source `source` (-1: measured here).
// 0: none measured there, or a GEMM in `p` on that backend does not run on the FMA chains' units.
template <class Inputs>
double bestPeakGflops(const Inputs& inputs, int source, const Device& device, gpulab::Precision p) {
  if (!gemmSharesPeak(device, p)) return 0;
  double best = 0;
  for (const auto& in : inputs)
    if (in.result && in.source == source) {
      const double g = peakGflopsOf(*in.result, device, p);
      if (g > best) best = g;
    }
  return best;
}

// A share of a peak: `gflops / peak`, and whether it lies above the peak by more than the noise (10 %), where the
// pages say "above the measured peak" rather than print 140 %.
struct Share {
  double of = 0;  // 0: no peak
  bool above = false;
};
Share shareOf(double gflops, double peakGflops);

}  // namespace measured_peak

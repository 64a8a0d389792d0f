#include "models/measured_peak.h"

#include "gpulab/roofs.hpp"

namespace measured_peak {

Device deviceOf(const gpulab::Result& r) {
  const auto it = r.provenance.find("device");
  return {gpulab::backend_kind(r.backend), it == r.provenance.end() ? std::string() : it->second};
}

bool gemmSharesPeak(const Device& device, gpulab::Precision p) { return gpulab::gemm_on_fma_units(device.backend, p); }

double peakGflopsOf(const gpulab::Result& r, const Device& device, gpulab::Precision p) {
  const auto pk = gpulab::as_peak(r);
  if (!pk || !pk->head.ok || !(pk->gflops > 0) || pk->head.precision != p) return 0;
  if (gpulab::backend_kind(r.backend) != device.backend || pk->head.device != device.name) return 0;
  return pk->gflops;
}

Share shareOf(double gflops, double peakGflops) {
  Share s;
  if (!(peakGflops > 0) || !(gflops > 0)) return s;
  s.of = gflops / peakGflops;
  // The same allowance as `bench --check` (roof_check.cpp): under 10 % above is the two runs' noise.
  s.above = gflops > peakGflops * 1.10;
  return s;
}

}  // namespace measured_peak

#include "gpulab/models/transfer_model.hpp"

#include <algorithm>
#include <cmath>

namespace gpulab::models {

double pcie_quoted_gbs(int gen, int lanes) {
  if (gen < 1 || gen > 6 || lanes < 1 || lanes > 32) return 0.0;
  return 0.25 * std::ldexp(1.0, gen - 1) * lanes;
}

double pcie_encoded_gbs(int gen, int lanes) {
  if (gen < 1 || gen > 6 || lanes < 1 || lanes > 32) return 0.0;
  // Raw transfer rates per lane in GT/s (PCI-SIG): 2.5, 5, 8, 16, 32, 64.
  constexpr double gts[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  const double efficiency = gen <= 2 ? 8.0 / 10.0 : (gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0);
  return gts[gen - 1] * efficiency / 8.0 * lanes;
}

double transfer_seconds(double bytes, double bytes_per_s) { return bytes_per_s > 0 ? bytes / bytes_per_s : 0.0; }

double hbm_to_link_ratio(double hbm_bytes_s, double link_bytes_s) {
  return link_bytes_s > 0 ? hbm_bytes_s / link_bytes_s : 0.0;
}

OffloadCost offload_cost(double weight_bytes, double vram_for_weights, double hbm_bytes_s, double link_bytes_s) {
  OffloadCost c;
  c.resident_bytes = std::clamp(vram_for_weights, 0.0, std::max(0.0, weight_bytes));
  c.streamed_bytes = std::max(0.0, weight_bytes) - c.resident_bytes;
  c.seconds_per_token = transfer_seconds(c.resident_bytes, hbm_bytes_s) + transfer_seconds(c.streamed_bytes, link_bytes_s);
  if (c.seconds_per_token > 0) c.tokens_per_s = 1.0 / c.seconds_per_token;
  const double all_resident = transfer_seconds(weight_bytes, hbm_bytes_s);
  c.slowdown = all_resident > 0 ? c.seconds_per_token / all_resident : 0.0;
  return c;
}

}  // namespace gpulab::models

#pragma once
// The PCIe link versus on-card HBM (lesson 17.1: "PCIe 5.0 x16 is roughly 64 GB/s in each direction" against
// ~3.35 TB/s): what streaming weights over the link costs when they do not fit in VRAM.

namespace gpulab::models {

// The per-direction figure usually quoted for a PCIe link: 0.25 GB/s per lane for Gen 1, doubling each
// generation (Gen3 x16 = 16, Gen4 x16 = 32, Gen5 x16 = 64 GB/s), which is also data/gpu-specs.csv's
// host_link_gbs column. gen 1..6, lanes 1..32; 0 otherwise.
double pcie_quoted_gbs(int gen, int lanes);
// The same link after line encoding (8b/10b for Gen 1-2, 128b/130b for Gen 3-5; Gen 6 FLIT taken as 242/256):
// Gen5 x16 = 63.0 GB/s. Real transfers reach less still (the PCIe page measures them).
double pcie_encoded_gbs(int gen, int lanes);

// Seconds to move `bytes` at `bytes_per_s` (0 when the rate is not positive).
double transfer_seconds(double bytes, double bytes_per_s);

// How many times faster the on-card memory is than the link: 3,350 / 64 = 52.3.
double hbm_to_link_ratio(double hbm_bytes_s, double link_bytes_s);

// One decode token when only part of the weights fits: the resident part is read from HBM, the rest streams
// over the link every token (nothing is cached between tokens, the worst case the lesson describes).
struct OffloadCost {
  double resident_bytes = 0;
  double streamed_bytes = 0;
  double seconds_per_token = 0;
  double tokens_per_s = 0;
  double slowdown = 0;  // versus all weights in HBM
};
// weight_bytes total; vram_for_weights bytes available for them (clamped to [0, weight_bytes]).
OffloadCost offload_cost(double weight_bytes, double vram_for_weights, double hbm_bytes_s, double link_bytes_s);

}  // namespace gpulab::models

#pragma once
// What the decode page shows from measurements, without Qt: the bandwidth its "measured" ceiling bars divide, and
// each source's measured chain (users → seconds per token for the whole model, with the samples' spread), its
// own bandwidth ceiling and the batching gain. Chains are read through typed views (as_layer_chain) of the decode
// plan only (a recording from before plans: its chains, as then); bandwidths through as_bandwidth/as_transfer by
// the DRAM rule (largest arrays, then the fastest), since any triad on this machine measures the same memory.
// The verdict on a chain is decode_verdict.h; the formats and shapes decode_choices.h.
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"
#include "models/decode_verdict.h"
#include "models/device_words.h"

#include <vector>

namespace decode_page_model {

inline constexpr int kFullLayers = 32;  // the 7B model's depth: measured chains are extrapolated to it

struct Input {
  const gpulab::Result* result = nullptr;
  int source = -1;  // -1 measured here, else the recording's index
};

// The bandwidth of the "measured" ceiling bars: this machine's first (a triad, or a device-to-device copy counted
// read + write), else a recording's GPU-side one.
struct CeilingBandwidth {
  double bytesPerS = 0;  // 0: none
  int source = -1;
  bool copy = false;     // a device-to-device copy, not a triad
  gpulab::DeviceWords device;
};
// The measured ceiling of each source: this machine's best triad or copy (-1) first, then each recording's GPU
// triad or device copy — one per source, never the best of two recordings.
std::vector<CeilingBandwidth> ceilingBandwidths(const std::vector<Input>& results);

// One source's chain.
struct ChainRun {
  int source = -1;
  gpulab::Precision precision = gpulab::Precision::fp32;
  gpulab::DeviceWords device;
  int layers = 0;               // layers that ran (the time is scaled to kFullLayers)
  double paramsPerLayer = 0, weightBytes = 0;
  std::vector<gpulab::models::ChainStep> steps;  // by users; seconds per token of the full model
  double bandwidth = 0;         // this source's DRAM-sized triad on the chain's device (0: none): its ceiling
};
// Per source, measured here first, then recordings in order; per batch the newest result.
std::vector<ChainRun> chainRuns(const std::vector<Input>& results);
// Chain results measured here.
int measuredChainCount(const std::vector<Input>& results);
// Total tokens/s with `users` batched ÷ at batch 1, from the first run that has both; NaN when none.
double batchingGain(const std::vector<ChainRun>& runs, int users);

}  // namespace decode_page_model

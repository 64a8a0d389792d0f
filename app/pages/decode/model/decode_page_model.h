#pragma once
// What the decode page shows from measurements, without Qt: the bandwidth its "measured" ceiling bars divide, and
// each source's measured chain (users → seconds per token for the whole model, with the samples' spread), its
// own bandwidth ceiling and the batching gain. Chains are read through typed views (as_layer_chain) of the decode
// plan only (a recording from before plans: its chains, as then); bandwidths through as_bandwidth/as_transfer by
// the DRAM rule (largest arrays, then the fastest), since any triad on this machine measures the same memory.
// The verdict on a chain is decode_verdict.h; the formats and shapes decode_choices.h.
#include "models/sourced_result.h"
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"
#include "pages/decode/model/decode_choices.h"
#include "pages/decode/model/decode_verdict.h"
#include "models/device_words.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/serving_model.hpp"

#include <string>

#include <optional>
#include <vector>

namespace decode_page_model {

inline constexpr int kFullLayers = 32;  // the 7B model's depth: measured chains are extrapolated to it

using Input = SourcedResult;  // models/sourced_result.h

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

// The ceiling chart's table, built from the controls and the results before anything is drawn: every bandwidth (the
// chosen card's datasheet, each source's measured one, the what-if) against every weight format, each cell a
// ceiling = bandwidth ÷ the bytes one token reads. The view names, colours and draws it; the CSV export is it.
struct CeilingColumn {
  enum class Kind { datasheet, measured, whatIf } kind = Kind::whatIf;
  double bytesPerS = 0;
  CeilingBandwidth measured;  // Kind::measured: whose bandwidth it is
};
struct CeilingTable {
  std::vector<CeilingColumn> bandwidths;              // datasheet (when the card has a figure), measured, what-if
  std::vector<gpulab::models::WeightFormat> formats;  // FP16, INT8, INT4 (and the chain's own when wider)
  std::vector<double> bytesPerToken;                  // per format: active parameters × bytes per parameter
  std::vector<std::vector<double>> tokensPerS;        // [bandwidth][format]
};
// `datasheetBytesPerS` 0: the card has no figure (no datasheet column). `activeParams`: the parameters one token
// reads (a mixture of experts reads only its active ones).
CeilingTable ceilingTable(const std::vector<Input>& results, double datasheetBytesPerS, double whatIfBytesPerS,
                          double activeParams);

// Serving on the chosen card (issue 36): `users` users at `context` tokens each, every step reading the weights the
// batch touches and every user's KV cache, and the caches fitted beside the weights (gpulab/models/serving_model).
// The dense model is the lesson's 7B shape scaled to `params` (the nearest preset's layers and KV heads); a mixture
// of experts its preset. FP16 weights and cache, the card's datasheet bandwidth, FP16 peak and memory.
gpulab::models::ServingStep cardServing(const gpulab::models::GpuSpec& card, double params, const std::string& moeId,
                                        double context, double users);

// The chain's ceiling line with the cache read: `users` users at `context` tokens on a chain of `shape` in
// `bytesPerValue` (weights and cache alike), at `bandwidth`: users ÷ ((weights + users · cache) ÷ bandwidth).
double chainCeilingWithCache(const gpulab::TransformerShape& shape, double weightBytes, double bytesPerValue,
                             double bandwidth, double context, double users);
// One user's KV cache at `context` tokens on `shape` (every layer of the full model).
double chainKvBytesPerUser(const gpulab::TransformerShape& shape, double bytesPerValue, double context);

// A prompt's prefill as the chain measured it: the prompt's tokens as one batch (the decode plan's last step).
struct Prefill {
  long long tokens = 0;        // the batch that ran
  long long promptTokens = 0;  // the prompt the page asked for (more than `tokens` when the plan capped it)
  int layers = 0;              // layers that ran (the time is scaled to kFullLayers)
  double passS = 0;            // one pass of `tokens` through the full model (median, scaled)
  double gflops = 0;           // FLOP/s the products reached, in GFLOP/s (a rate: the same at any depth)
  bool capped() const { return promptTokens > tokens; }
  double tokensPerS() const { return passS > 0 ? double(tokens) / passS : 0; }
  // The whole prompt at the measured rate: measured when nothing was capped, else extrapolated from `tokens`.
  double promptS() const { return passS > 0 ? passS * double(promptTokens) / double(tokens) : 0; }
};

// One source's chain.
struct ChainRun {
  int source = -1;
  gpulab::Precision precision = gpulab::Precision::fp32;
  gpulab::DeviceWords device;
  int layers = 0;               // layers that ran (the time is scaled to kFullLayers)
  double paramsPerLayer = 0, weightBytes = 0;
  std::vector<gpulab::models::ChainStep> steps;  // by users; seconds per token of the full model (no prefill)
  std::optional<Prefill> prefill;  // the newest prefill this source measured
  double batchOneGbps = 0;         // batch 1's weight-read rate in GB/s (a rate: the same at any depth; 0: none)
  double bandwidth = 0;         // this source's DRAM-sized triad on the chain's device (0: none): its ceiling
};
// Per source, measured here first, then recordings in order; per batch the newest result.
std::vector<ChainRun> chainRuns(const std::vector<Input>& results);
// Chain results measured here (decode steps; a prefill is not one).
int measuredChainCount(const std::vector<Input>& results);
// Total tokens/s with `users` batched ÷ at batch 1, from the first run that has both; NaN when none.
double batchingGain(const std::vector<ChainRun>& runs, int users);

}  // namespace decode_page_model

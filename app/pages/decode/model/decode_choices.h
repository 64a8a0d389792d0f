#pragma once
// The decode page's choices, Qt-free: the weight formats its ceiling bars compare, and the layer shapes its chain
// can run.
#include "gpulab/decode_experiments.hpp"

#include <string>
#include <vector>

namespace gpulab::models {

struct WeightFormat {
  std::string name;  // "FP16", or "FP32 (the chain's)"
  double bytes = 0;  // per parameter
};

// FP16, INT8 and INT4, plus the format the measured chain ran in when it is wider than FP16 (a CPU runs FP32),
// named as the chain's: its ceiling and its run are then compared in one precision. `chain_bytes` 0: no chain.
std::vector<WeightFormat> ceiling_formats(const std::string& chain_format, double chain_bytes);

// "7b" (4096 / 11008), "7b-gqa" (8 KV heads), "small" (1024 / 2816), "tiny" (256 / 688); anything else: 7b.
TransformerShape chain_shape(const std::string& id);

}  // namespace gpulab::models

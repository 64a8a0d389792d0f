#include "pages/decode/model/decode_choices.h"

namespace gpulab::models {

std::vector<WeightFormat> ceiling_formats(const std::string& chain_format, double chain_bytes) {
  std::vector<WeightFormat> out{{"FP16", 2.0}, {"INT8", 1.0}, {"INT4", 0.5}};
  if (chain_bytes > 2) out.push_back({chain_format + " (the chain's)", chain_bytes});
  return out;
}

TransformerShape chain_shape(const std::string& id) {
  TransformerShape s;
  if (id == "7b-gqa") s.kv_heads = 8;
  if (id == "small") s.hidden = 1024, s.heads = 8, s.kv_heads = 8, s.head_dim = 128, s.intermediate = 2816;
  if (id == "tiny") s.hidden = 256, s.heads = 4, s.kv_heads = 4, s.head_dim = 64, s.intermediate = 688;
  return s;
}

}  // namespace gpulab::models

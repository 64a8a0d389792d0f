#pragma once
// The share of a card's dense FP16 peak a real GEMM reaches, for the decode page's time to first token (a prompt's
// prefill is large GEMMs: prefill_model.hpp scales its compute time by this share). Qt-free, tested alone.
//
// Where the share comes from, in this order, and said on the page:
//   measured: a library GEMM in FP16 or BF16 measured here or recorded on this very card (its device name finds the
//     card in the catalogue): the best one's rate ÷ the card's dense FP16 peak;
//   published: a best-shape BF16 GEMM others measured on this card (resources/published-results.csv, from
//     data/reference-results.md): its rate ÷ the peak the source names;
//   assumed: neither, so the H100 SXM's published share stands in (794.5 of 989 TFLOP/s, 80.3 %: stas00/ml-engineering),
//     labelled as that card's, not this one's.
#include "gpulab/models/catalogue.hpp"
#include "pages/decode/model/decode_page_model.h"

#include <string>
#include <vector>

namespace decode_page_model {

struct GemmShare {
  enum class Kind { measured, published, assumed } kind = Kind::assumed;
  double share = 0;      // 0..1 of the card's dense FP16 peak
  int source = -1;       // measured: -1 here, else the recording's index
  std::string device;    // the device the share was measured on (the card's, or the H100 SXM when assumed)
  std::string label;     // published/assumed: "published: <source>, <device>"; measured: the result's device name
};

// The share for `card` from the results (measured here or recorded) and the bundled published table.
GemmShare prefillGemmShare(const std::vector<Input>& results, const gpulab::models::GpuSpec& card);

}  // namespace decode_page_model

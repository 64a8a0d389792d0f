#include "pages/decode/model/prefill_share.h"

#include "gpulab/result_views.hpp"
#include "models/published_results.h"

#include <algorithm>

namespace decode_page_model {

GemmShare prefillGemmShare(const std::vector<Input>& results, const gpulab::models::GpuSpec& card) {
  using gpulab::Precision;
  const std::optional<double> peak = card.peak_flops_for(Precision::fp16);
  GemmShare out;
  // Measured: the best FP16/BF16 library GEMM on this card. A share is a ratio within one source: the measured rate
  // against the datasheet peak of the card it ran on, never another card's.
  if (peak && *peak > 0) {
    double best = 0;
    for (const Input& in : results) {
      const auto g = gpulab::as_gemm(*in.result);
      if (!g || !g->head.ok || !g->library || !g->head.on_gpu || g->head.cpu_device) continue;
      if (g->head.precision != Precision::fp16 && g->head.precision != Precision::bf16) continue;
      if (gpulab::models::find_gpu(g->head.device) != &card) continue;
      if (g->gflops * 1e9 > best) {
        best = g->gflops * 1e9;
        out.source = in.source;
        out.device = g->head.device;
      }
    }
    if (best > 0) {
      out.kind = GemmShare::Kind::measured;
      out.share = std::min(1.0, best / *peak);
      out.label = out.device;
      return out;
    }
  }
  // Published, for this card; else the H100 SXM's, said to be that card's.
  const std::vector<gpulab::models::PublishedResult> rows = gpulab::models::published_of_kind(gpulab::models::PublishedKind::gemm);
  auto pick = [&rows](const gpulab::models::GpuSpec* want) -> const gpulab::models::PublishedResult* {
    for (const auto& r : rows)
      if (r.precision == "bf16" && r.share() > 0 && gpulab::models::find_gpu(r.device) == want) return &r;
    return nullptr;
  };
  const gpulab::models::PublishedResult* row = pick(&card);
  out.kind = GemmShare::Kind::published;
  if (!row) {
    row = pick(gpulab::models::find_gpu("H100 SXM"));
    out.kind = GemmShare::Kind::assumed;
  }
  if (!row) return GemmShare{GemmShare::Kind::assumed, 0, -1, {}, {}};
  out.share = std::min(1.0, row->share());
  out.device = row->device;
  out.label = gpulab::models::published_label(*row);
  return out;
}

}  // namespace decode_page_model

#include "pages/kernel/model/kernel_recorded.h"

#include "plans/matmul.hpp"
#include "gpulab/result_views.hpp"

namespace kernel_recorded {

std::optional<Speed> recordedSpeed(const std::vector<Input>& results, const std::string& variant) {
  if (variant.empty()) return std::nullopt;
  std::optional<Speed> best;
  double bestSize = 0;
  for (const Input& in : results) {
    if (in.source < 0) continue;
    const auto g = gpulab::as_gemm(*in.result);
    if (!g || g->head.kind != gpulab::BackendKind::cuda || g->head.variant != variant || g->head.precision != gpulab::Precision::fp32 ||
        !g->head.ok || !(g->gflops > 0))
      continue;
    if (!gpulab::is_matmul_page_plan(g->head.plan)) continue;  // the matmul page's plans (or from before plans)
    const double size = double(g->m) * double(g->n) * double(g->k);
    if (size <= bestSize) continue;
    bestSize = size;
    best = Speed{g->gflops * 1e9, g->m, g->n, g->k, in.source, g->head.device};
  }
  return best;
}

}  // namespace kernel_recorded

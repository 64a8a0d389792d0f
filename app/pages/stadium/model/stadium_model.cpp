#include "pages/stadium/model/stadium_model.h"

#include "gpulab/gemm_ladder.hpp"
#include "plans/stadium.hpp"
#include "gpulab/result_views.hpp"

#include <optional>

namespace stadium_model {
namespace {

Run runOf(const gpulab::GemmPoint& g) {
  Run r;
  using gpulab::BackendKind;
  r.api = g.head.kind == BackendKind::cpu ? Api::cpu : g.head.kind == BackendKind::cuda ? Api::cuda
          : g.head.kind == BackendKind::vulkan ? Api::vulkan : Api::other;
  r.library = g.library;
  r.n = g.n;
  r.gflops = g.gflops;
  r.backend = g.head.backend;
  r.variant = g.head.variant;
  r.device = g.head.device;
  r.cpuDevice = g.head.cpu_device;
  return r;
}

}  // namespace

std::vector<Pace> paces(const std::vector<Input>& results, int recordings) {
  std::vector<Pace> out;
  for (int src = -1; src < recordings; ++src) {
    std::optional<gpulab::GemmPoint> naive, blas, gpu;
    for (const Input& in : results) {
      if (in.source != src) continue;
      const auto g = gpulab::as_gemm(*in.result);
      if (!g || !g->head.ok || !(g->gflops > 0) || g->head.precision != gpulab::Precision::fp32) continue;
      const bool legacy = g->head.plan.empty();
      if (!legacy && g->head.plan != gpulab::plan_name::stadium) continue;
      if (g->head.on_gpu) {
        // Before plans the stadium raced only cuBLAS; the plan's GPU GEMM is the device's best, whatever it is.
        if ((!legacy || g->library) && (!gpu || g->gflops > gpu->gflops)) gpu = g;
      } else if (gpulab::ladder_step_of(g->head.variant) == gpulab::LadderStep::naive) {  // the CPU loop spells it alike
        naive = g;  // newest wins
      } else if (g->library && !g->direct_control && g->threads == 0) {
        blas = g;
      }
    }
    if (!naive) continue;
    if (blas) out.push_back({src, Pace::Stadium::cpuBlas, runOf(*naive), runOf(*blas)});
    if (gpu) out.push_back({src, Pace::Stadium::gpu, runOf(*naive), runOf(*gpu)});
  }
  return out;
}

}  // namespace stadium_model

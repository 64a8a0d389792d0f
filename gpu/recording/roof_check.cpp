// The roof check behind `gpulab bench --check` (roofs.hpp): no measured point above its own device's measured
// FMA roof. Devices are told apart by backend and the device name in provenance, so a recording that merged two
// machines' runs compares each with its own.
#include "gpulab/recording.hpp"
#include "gpulab/roofs.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gpulab {

bool gemm_on_fma_units(BackendKind kind, Precision p) {
  if (kind == BackendKind::cpu) return p == Precision::fp32 || p == Precision::fp64;
  return p == Precision::fp32;  // vulkan, cuda: tensor cores (and FP16 with FP32 sums) are another roof
}

std::vector<std::string> roof_problems(const Recording& rec) {
  using Key = std::tuple<std::string, std::string, Precision>;
  struct Roof {
    double flops = 0, spread = 0;
  };
  std::map<Key, Roof> roofs;
  for (const Result& r : rec.results)
    if (auto pk = as_peak(r); pk && pk->head.ok) {
      Roof& roof = roofs[{r.backend, pk->head.device, r.precision}];
      if (pk->gflops * 1e9 > roof.flops) roof = {pk->gflops * 1e9, r.stats.rel_spread};
    }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < rec.results.size(); ++i) {
    const Result& r = rec.results[i];
    const auto g = as_gemm(r);
    if (!g || !g->head.ok || !(g->gflops > 0) || !gemm_on_fma_units(backend_kind(r.backend), r.precision)) continue;
    const auto it = roofs.find({r.backend, g->head.device, r.precision});
    if (it == roofs.end()) continue;
    const double allowed = it->second.flops * (1 + std::max(0.10, it->second.spread));
    if (g->gflops * 1e9 > allowed)
      out.push_back("results[" + std::to_string(i) + "] (gemm " + r.variant + " " +
                    std::string(display_name(r.precision)) + "): " + format_fixed(g->gflops, 1) +
                    " GFLOP/s lies above its device's measured FMA roof, " + format_fixed(it->second.flops / 1e9, 1) +
                    " GFLOP/s: a units or counting error, not a win");
  }
  return out;
}

std::vector<std::string> roofs_summary(const Recording& rec) {
  std::map<std::pair<std::string, std::string>, std::string> lines;  // (backend, device) -> text
  std::vector<std::pair<std::string, std::string>> order;
  auto line = [&](const Result& r, const std::string& device) -> std::string& {
    const auto key = std::make_pair(r.backend, device);
    if (!lines.count(key)) order.push_back(key);
    return lines[key];
  };
  for (const Result& r : rec.results) {
    if (auto pk = as_peak(r); pk && pk->head.ok)
      line(r, pk->head.device) += "; " + std::string(display_name(r.precision)) + " FMA peak " +
                                  format_fixed(pk->gflops, 1) + " GFLOP/s";
    if (auto o = as_overhead(r); o && o->head.ok && o->elements == 0)
      line(r, o->head.device) += std::string("; ") + (o->graph ? "graph launch" : "launch + wait") + " " +
                                 format_seconds(o->per_op_s);
    if (auto q = as_launch_overhead(r); q && q->head.ok && q->per_launch_s > 0)
      line(r, q->head.device) += "; back to back " + format_seconds(q->per_launch_s) + " a launch";
  }
  std::vector<std::string> out;
  for (const auto& key : order)
    out.push_back("roofs, " + key.first + (key.second.empty() ? "" : " (" + key.second + ")") + ": " +
                  lines[key].substr(2));
  return out;
}

}  // namespace gpulab

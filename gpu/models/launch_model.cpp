#include "gpulab/models/launch_model.hpp"

#include <algorithm>

namespace gpulab::models {

const LaunchCosts& published_launch_costs() {
  static const LaunchCosts c{};
  return c;
}

const char* launch_costs_source() { return "NVIDIA, Getting Started with CUDA Graphs (V100, 2019)"; }

double launched_ops_seconds(double ops, double gpu_s, LaunchMode mode, const LaunchCosts& c) {
  if (!(ops > 0)) return 0.0;
  const double work = std::max(0.0, gpu_s);
  switch (mode) {
    case LaunchMode::synchronised: return ops * (work + c.sync_overhead_s());
    // Below the back-to-back pace the GPU finishes before the next launch is issued: the CPU sets the pace.
    case LaunchMode::asynchronous: return ops * std::max(work + c.async_gap_s(), c.back_to_back_s);
    case LaunchMode::graph: return ops * (work + c.graph_gap_s());
  }
  return 0.0;
}

double launch_overhead_share(double gpu_s, LaunchMode mode, const LaunchCosts& c) {
  const double t = launched_ops_seconds(1, gpu_s, mode, c);
  return t > 0 ? 1.0 - std::max(0.0, gpu_s) / t : 0.0;
}

}  // namespace gpulab::models

// Not a page's: memory bandwidth from cache to DRAM (see bandwidth.hpp).
#include "plans/bandwidth.hpp"

#include "gpulab/suite_registry.hpp"

#include <algorithm>
#include <string>

namespace gpulab {

std::size_t device_bandwidth_floor_bytes(const Backend& gpu) {
  const Provenance p = gpu.provenance();
  auto number = [&p](const char* key) -> double {
    const auto it = p.find(key);
    if (it == p.end()) return 0;
    try {
      return std::stod(it->second);
    } catch (const std::exception&) {
      return 0;
    }
  };
  if (const double floor = number("bandwidth_min_array_bytes"); floor > 0) return static_cast<std::size_t>(floor);
  // The CUDA module raises an array to 4x its L2 (16 MiB at least) so the cache cannot hold it (bandwidth_ops.cpp).
  if (gpu.kind_id() == BackendKind::cuda) return 4 * std::max<std::size_t>(std::size_t(number("l2_bytes")), 16 * kMiB);
  return 0;
}

std::size_t device_bandwidth_ceiling_bytes(const Backend& gpu) {
  const Provenance p = gpu.provenance();
  const auto it = p.find("bandwidth_max_array_bytes");
  if (it == p.end()) return 0;
  try {
    return static_cast<std::size_t>(std::stod(it->second));
  } catch (const std::exception&) {
    return 0;
  }
}

std::vector<std::size_t> device_bandwidth_sizes(const Backend& gpu, const std::vector<std::size_t>& asked) {
  // A size the device does not run as asked runs at its floor (or its ceiling): asked twice, it would measure the
  // same array twice (three times on an H200, whose 4x L2 is 200 MiB: 4, 16 and 64 MiB all ran at 200 MiB, seconds
  // of a capped check). Each size that runs is asked once, by the first size that maps to it.
  const std::size_t floor = device_bandwidth_floor_bytes(gpu), ceiling = device_bandwidth_ceiling_bytes(gpu);
  std::vector<std::size_t> out, ran;
  for (std::size_t bytes : asked) {
    std::size_t runs = std::max(bytes, floor);
    if (ceiling > 0) runs = std::min(runs, ceiling);
    if (std::find(ran.begin(), ran.end(), runs) != ran.end()) continue;
    ran.push_back(runs);
    out.push_back(bytes);
  }
  return out;
}

Plan bandwidth_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::bandwidth);
  Backend& cpu = *backends.cpu;
  // Small arrays live in cache: the curve shows the cliff down to DRAM bandwidth.
  for (std::size_t bytes : {1 * kMiB, 4 * kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB})
    for (const char* kind : {"copy", "triad"}) {
      plan.bandwidth(cpu, kind, bytes, 1);
      plan.bandwidth(cpu, kind, bytes, 0);
    }
  if (backends.gpu)
    for (std::size_t bytes : device_bandwidth_sizes(*backends.gpu, {4 * kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB, 1024 * kMiB}))
      for (const char* kind : {"copy", "triad"}) plan.bandwidth(*backends.gpu, kind, bytes);
  return plan.take();
}

GPULAB_PLAN_FILE(bandwidth) {
  registry.add({20, "bandwidth",
                "copy and triad from cache-sized to DRAM-sized arrays (CPU, and GPU when present)",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return bandwidth_plan(b); }});
}

}  // namespace gpulab

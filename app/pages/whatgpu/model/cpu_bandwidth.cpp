#include "pages/whatgpu/model/cpu_bandwidth.h"

#include "gpulab/result_views.hpp"

namespace whatgpu_model {

CpuBandwidth cpuBandwidth(const SourcedResults& results, const std::string& cpuName) {
  CpuBandwidth best;
  for (const SourcedResult& in : results) {
    const auto b = gpulab::as_bandwidth(*in.result);
    if (!b || !b->head.ok || b->head.on_gpu || b->kernel != gpulab::StreamKernel::triad || !(b->gbps > 0)) continue;
    // A recording's CPU is this one only by name: a GPU server's triad says nothing about the laptop in the room.
    if (in.source >= 0 && (cpuName.empty() || b->head.device != cpuName)) continue;
    const double bytesPerS = b->gbps * 1e9;
    const bool replaces = !best.found() ? true
                          : in.source != best.source
                              ? in.source < best.source  // measured here (-1) first, then the first recording
                              : b->bytes_per_array > best.arrayBytes ||
                                    (b->bytes_per_array == best.arrayBytes && bytesPerS > best.bytesPerS);
    if (replaces) best = {bytesPerS, in.source, b->bytes_per_array};
  }
  return best;
}

}  // namespace whatgpu_model

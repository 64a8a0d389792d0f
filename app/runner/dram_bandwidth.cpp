#include "runner/dram_bandwidth.h"

#include "gpulab/result_views.hpp"

double streamedArrayBytes(const gpulab::Result& r) {
  if (auto b = gpulab::as_bandwidth(r)) return b->bytes_per_array;
  if (auto t = gpulab::as_transfer(r)) return t->bytes;
  return 0;
}

bool betterDramBandwidth(const gpulab::Result& candidate, const gpulab::Result* current) {
  if (!current) return true;
  const double size = streamedArrayBytes(candidate), currentSize = streamedArrayBytes(*current);
  return size > currentSize || (size == currentSize && candidate.gbps > current->gbps);
}

const StoredResult* dramBandwidthResult(const QVector<StoredResult>& all,
                                        const std::function<bool(const StoredResult&)>& pick) {
  const StoredResult* best = nullptr;
  for (const StoredResult& s : all)
    if (pick(s) && betterDramBandwidth(s.result, best ? &best->result : nullptr)) best = &s;
  return best;
}

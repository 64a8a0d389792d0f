#include "roofline_model.h"

#include "gpulab/roofs.hpp"

#include <algorithm>

namespace roofline_model {

namespace {

std::string provenance(const gpulab::Result& r, const char* key) {
  auto it = r.provenance.find(key);
  return it == r.provenance.end() ? std::string() : it->second;
}

DeviceCeilings& deviceFor(Model& m, int source, const gpulab::ResultHeader& head, const gpulab::Result& r) {
  for (auto& d : m.devices)
    if (d.source == source && d.words.device_class == gpulab::device_words(r).device_class && d.device == head.device)
      return d;
  DeviceCeilings d;
  d.source = source;
  d.device = head.device;
  d.words = gpulab::device_words(r);
  m.devices.push_back(d);
  return m.devices.back();
}

const DeviceCeilings* cpuHere(const Model& m) {
  for (const auto& d : m.devices)
    if (d.source < 0 && d.words.device_class == gpulab::DeviceClass::cpu) return &d;
  return nullptr;
}

}  // namespace

bool betterDramBandwidth(double candidateArrayBytes, double candidateGbps, double currentArrayBytes,
                         double currentGbps) {
  return candidateArrayBytes > currentArrayBytes ||
         (candidateArrayBytes == currentArrayBytes && candidateGbps > currentGbps);
}

Model build(const std::vector<Input>& results, bool includeRecorded) {
  Model m;
  for (const Input& in : results) {
    if (!in.result || (in.source >= 0 && !includeRecorded)) continue;
    const gpulab::Result& r = *in.result;
    Point pt;
    pt.source = in.source;
    pt.date = provenance(r, "date");
    pt.words = gpulab::device_words(r);
    if (auto b = gpulab::as_bandwidth(r)) {
      if (!b->head.ok || !(b->head.median_s > 0)) continue;
      DeviceCeilings& d = deviceFor(m, in.source, b->head, r);
      if (!d.hasBandwidth || betterDramBandwidth(b->bytes_per_array, b->gbps, d.bandwidthArrayBytes, d.bandwidth / 1e9)) {
        d.hasBandwidth = true;
        d.bandwidth = b->gbps * 1e9;
        d.bandwidthArrayBytes = b->bytes_per_array;
        d.bandwidthKind = b->head.variant;
      }
      pt.stream = true;
      pt.gbps = b->gbps;
      pt.bytesPerArray = b->bytes_per_array;
      pt.variant = b->head.variant;
      pt.device = b->head.device;
      pt.precision = b->head.precision;
    } else if (auto g = gpulab::as_gemm(r)) {
      if (!g->head.ok || !(g->head.median_s > 0)) continue;
      if (g->gflops > 0) {
        DeviceCeilings& d = deviceFor(m, in.source, g->head, r);
        double& best = d.peak[g->head.precision];
        best = std::max(best, g->gflops * 1e9);
      }
      pt.m = g->m;
      pt.n = g->n;
      pt.k = g->k;
      pt.gbps = r.gbps;
      pt.variant = g->head.variant;
      pt.device = g->head.device;
      pt.precision = g->head.precision;
    } else if (auto pk = gpulab::as_peak(r)) {
      if (pk->head.ok && pk->gflops > 0) {
        double& best = deviceFor(m, in.source, pk->head, r).fmaPeak[pk->head.precision];
        best = std::max(best, pk->gflops * 1e9);
      }
      continue;  // a roof, not a point: no memory traffic to place it by
    } else if (auto q = gpulab::as_launch_overhead(r)) {
      if (!q->head.ok || !(q->per_launch_s > 0)) continue;
      double& pace = deviceFor(m, in.source, q->head, r).issueS;
      pace = pace > 0 ? std::min(pace, q->per_launch_s) : q->per_launch_s;
      continue;
    } else if (auto o = gpulab::as_overhead(r)) {
      if (!o->head.ok || !(o->per_op_s > 0)) continue;
      DeviceCeilings& d = deviceFor(m, in.source, o->head, r);
      if (o->elements == 0) {
        double& floor = o->graph ? d.graphFloorS : d.overheadFloorS;
        floor = floor > 0 ? std::min(floor, o->per_op_s) : o->per_op_s;
      } else {
        d.sweep.emplace_back(o->elements, o->per_op_s);
        std::sort(d.sweep.begin(), d.sweep.end());
      }
      continue;
    } else {
      continue;
    }
    // A point needs its work and its traffic: FLOPs per byte on the x axis, FLOP/s on the y axis.
    if (r.flops > 0 && r.bytes > 0) {
      pt.intensity = r.flops / r.bytes;
      pt.flopsPerS = r.flops / r.stats.median_s;
      m.points.push_back(pt);
    }
  }
  return m;
}

std::vector<std::string> measuredGpuNames(const Model& m) {
  std::vector<std::string> out;
  for (const auto& d : m.devices)
    if (d.words.is_gpu && !d.device.empty() && std::find(out.begin(), out.end(), d.device) == out.end())
      out.push_back(d.device);
  return out;
}

double measuredCpuBandwidth(const Model& m) {
  const DeviceCeilings* d = cpuHere(m);
  return d && d->hasBandwidth ? d->bandwidth : 0;
}

double measuredCpuPeak(const Model& m, gpulab::Precision p) {
  const DeviceCeilings* d = cpuHere(m);
  if (!d) return 0;
  auto it = d->peak.find(p);
  return it == d->peak.end() ? 0 : it->second;
}

}  // namespace roofline_model

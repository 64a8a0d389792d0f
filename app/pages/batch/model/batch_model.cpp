#include "pages/batch/model/batch_model.h"

#include "plans/batch.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/roofs.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace batch_model {
namespace {

// The batch plan's results; a recording from before plans: every result (the caller's filter decides).
bool ofThisPlan(const gpulab::ResultHeader& h) { return h.plan.empty() || h.plan == gpulab::plan_name::batch; }

// A GEMM that belongs to a sweep: a layer (not a square ceiling run). Before plans, a recording held every suite's
// GEMMs of this shape, so only the batch suite's kind is taken: a library on every thread, not the direct control.
bool sweepGemm(const gpulab::GemmPoint& g) {
  if (g.square()) return false;
  if (!g.head.plan.empty()) return g.head.plan == gpulab::plan_name::batch;
  return g.library && g.threads == 0 && !g.direct_control;
}

// The sweep's triad: the batch plan's; before plans, the triad the plan runs on that device (all threads, its array
// size), which the bandwidth suite recorded among its sizes.
bool sweepTriad(const gpulab::BandwidthPoint& b) {
  if (b.kernel != gpulab::StreamKernel::triad) return false;
  if (!b.head.plan.empty()) return b.head.plan == gpulab::plan_name::batch;
  return b.threads == 0 && b.bytes_per_array == double(gpulab::batch_triad_array_bytes(b.head.kind));
}

}  // namespace

Reading read(const gpulab::Result& r) {
  Reading out;
  if (const auto bw = gpulab::as_bandwidth(r)) {
    if (!ofThisPlan(bw->head)) return out;
    if (bw->head.ok && bw->gbps > 0) {
      out.kind = Reading::Kind::bandwidth;
      out.bandwidth = bw->gbps * 1e9;
    } else {
      out.kind = Reading::Kind::bandwidthFailed;
      out.error = bw->head.error;
    }
    return out;
  }
  const auto g = gpulab::as_gemm(r);
  if (!g || !ofThisPlan(g->head)) return out;
  out.batch = g->m;
  if (!g->head.ok) {
    out.kind = Reading::Kind::pointFailed;
    out.error = g->head.error;
    return out;
  }
  out.kind = Reading::Kind::point;
  SweepPoint& pt = out.point;
  pt.batch = g->m;
  pt.seconds = g->head.median_s;
  pt.flops = r.flops;
  pt.flopsPerS = g->gflops * 1e9;
  pt.bytes = r.bytes;
  pt.intensity = r.bytes > 0 ? r.flops / r.bytes : 0;
  pt.gbps = r.gbps;
  const gpulab::models::RateRange range = gpulab::models::gflops_range(r);
  pt.lowFlopsPerS = range.low * 1e9;
  pt.highFlopsPerS = range.high * 1e9;
  pt.samples = range.samples;
  pt.relSpread = r.stats.rel_spread;
  return out;
}

double sessionCpuBandwidth(const std::vector<Input>& results) {
  double bestArray = 0, best = 0;
  for (const Input& in : results) {
    if (in.source >= 0) continue;
    const auto bw = gpulab::as_bandwidth(*in.result);
    if (!bw || !bw->head.ok || bw->head.on_gpu || !(bw->gbps > 0)) continue;
    if (bw->bytes_per_array > bestArray || (bw->bytes_per_array == bestArray && bw->gbps * 1e9 > best)) {
      bestArray = bw->bytes_per_array;
      best = bw->gbps * 1e9;
    }
  }
  return best;
}

std::vector<RecordedSweep> recordedSweeps(const std::vector<Input>& results, long long dIn, long long dOut) {
  // (source, backend, device, precision) -> batch -> the newest point (FLOP/s, FLOPs per byte)
  using Key = std::tuple<int, std::string, std::string, int>;
  using Device = std::tuple<int, std::string, std::string>;  // (source, backend, device)
  struct Triad {
    double bytesPerS = 0, arrayBytes = 0;
    bool ofTheSweep = false;
  };
  std::map<Key, std::map<long long, std::pair<double, double>>> points;
  std::map<Key, gpulab::DeviceWords> words;
  std::map<Device, Triad> triads;
  std::map<Key, double> peaks;  // FLOP/s
  for (const Input& in : results) {
    if (in.source < 0) continue;
    const gpulab::Result& r = *in.result;
    if (const auto b = gpulab::as_bandwidth(r)) {
      if (!b->head.ok || !(b->gbps > 0) || !sweepTriad(*b)) continue;
      Triad& t = triads[{in.source, b->head.backend, b->head.device}];
      const bool ofTheSweep = !b->head.plan.empty();
      if (t.ofTheSweep && !ofTheSweep) continue;  // the sweep's own triad outranks another suite's
      t = {b->gbps * 1e9, b->bytes_per_array, ofTheSweep};
      continue;
    }
    if (const auto pk = gpulab::as_peak(r)) {
      if (!pk->head.ok || !(pk->gflops > 0)) continue;
      double& best = peaks[{in.source, pk->head.backend, pk->head.device, int(pk->head.precision)}];
      best = std::max(best, pk->gflops * 1e9);
      continue;
    }
    const auto g = gpulab::as_gemm(r);
    if (!g || !g->head.ok || !(g->gflops > 0) || g->k != dIn || g->n != dOut || !sweepGemm(*g)) continue;
    const Key key{in.source, g->head.backend, g->head.device, int(g->head.precision)};
    points[key][g->m] = {g->gflops * 1e9, r.bytes > 0 ? r.flops / r.bytes : 0};
    words[key] = gpulab::device_words(r);
  }
  std::vector<RecordedSweep> out;
  for (const auto& [key, byBatch] : points) {
    if (byBatch.size() < 3) continue;  // two points are no sweep
    RecordedSweep s;
    s.source = std::get<0>(key);
    s.device = words[key];
    s.deviceName = gpulab::short_device_name(std::get<2>(key).empty() ? std::get<1>(key) : std::get<2>(key));
    s.precision = static_cast<gpulab::Precision>(std::get<3>(key));
    for (const auto& [b, point] : byBatch) {
      s.batches.push_back(double(b));
      s.flopsPerS.push_back(point.first);
      s.intensities.push_back(point.second);
    }
    if (const auto t = triads.find({std::get<0>(key), std::get<1>(key), std::get<2>(key)}); t != triads.end()) {
      s.bandwidth = t->second.bytesPerS;
      s.bandwidthArrayBytes = t->second.arrayBytes;
      s.bandwidthOfTheSweep = t->second.ofTheSweep;
    }
    if (const auto p = peaks.find(key); p != peaks.end()) s.peakFlops = p->second;
    out.push_back(std::move(s));
  }
  return out;
}

gpulab::models::GuardedCrossover crossover(const std::vector<SweepPoint>& sweep) {
  std::vector<gpulab::models::BatchPoint> pts;
  for (const SweepPoint& s : sweep)
    pts.push_back({double(s.batch), s.intensity, {s.lowFlopsPerS, s.flopsPerS, s.highFlopsPerS, s.samples}});
  return gpulab::models::guarded_crossover(pts);
}

SweepState startSweep(SweepSetup ran) {
  SweepState s;
  s.ran = std::move(ran);
  return s;
}

void apply(SweepState& state, const SweepPoint& point, double measuredPeakGflops) {
  state.measuredPeakGflops = measuredPeakGflops;
  state.points.push_back(point);
}

}  // namespace batch_model

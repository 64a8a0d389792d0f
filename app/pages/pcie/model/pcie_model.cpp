#include "pages/pcie/model/pcie_model.h"

#include "plans/pcie.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>
#include <optional>

namespace pcie_model {
namespace {

std::optional<Series> seriesOf(const gpulab::TransferPoint& t) {
  using D = gpulab::TransferDirection;
  switch (t.direction) {
    case D::h2d: return t.pinned ? Series::h2dPinned : Series::h2dPageable;
    case D::d2h: return t.pinned ? Series::d2hPinned : Series::d2hPageable;
    case D::d2d: return Series::d2d;
    case D::h2h: return Series::h2h;
    default: return std::nullopt;  // GPU to GPU belongs to the many-GPUs page
  }
}

bool ours(const gpulab::ResultHeader& h) { return h.plan == gpulab::plan_name::transfer || h.plan.empty(); }

// The largest copy wins (ties: the higher rate): a cache-sized copy is not the memory's speed.
const Point* largest(const std::vector<Point>& pts, Series s, bool hereOnly) {
  const Point* best = nullptr;
  for (const Point& p : pts) {
    if (p.series != s || (hereOnly && p.source >= 0)) continue;
    if (!best || p.bytes > best->bytes || (p.bytes == best->bytes && p.gbps > best->gbps)) best = &p;
  }
  return best;
}

}  // namespace

bool pageable(Series s) { return s == Series::h2dPageable || s == Series::d2hPageable; }

std::vector<Point> points(const std::vector<Input>& results) {
  std::vector<Point> out;
  for (const Input& in : results) {
    const auto t = gpulab::as_transfer(*in.result);
    if (!t || !ours(t->head) || !t->head.ok || !(t->gbps > 0)) continue;
    const auto s = seriesOf(*t);
    if (!s) continue;
    Point p;
    p.series = *s;
    p.source = in.source;
    p.bytes = t->bytes;
    p.gbps = t->gbps;
    p.median_s = t->head.median_s;
    p.samples = int(in.result->stats.n);
    p.backend = t->head.backend;
    p.direction = t->head.variant;
    p.pinned = t->pinned;
    p.onGpu = t->head.on_gpu;
    p.cpuDevice = t->head.cpu_device;
    p.device = t->head.device;
    if (const auto link = in.result->provenance.find("pcie_link"); link != in.result->provenance.end())
      p.pcieLink = link->second;
    out.push_back(p);
  }
  return out;
}

bool isOwnFailure(const gpulab::Result& r) {
  const auto t = gpulab::as_transfer(r);
  return t && ours(t->head) && !t->head.ok;
}

int measuredHereCount(const std::vector<Point>& pts) {
  return int(std::count_if(pts.begin(), pts.end(), [](const Point& p) { return p.source < 0; }));
}

Summary summarize(const std::vector<Point>& pts) {
  Summary s;
  for (const Point& p : pts) {
    if (p.series == Series::h2dPinned && p.gbps > s.bestH2dPinned) {
      s.bestH2dPinned = p.gbps;
      s.pcieLink = p.pcieLink;
    }
    if (p.onGpu) {
      ++s.gpuPoints;
      s.gpuIsCpuDevice = s.gpuIsCpuDevice || p.cpuDevice;
    }
  }
  if (const Point* d = largest(pts, Series::d2d, false)) s.d2d = d->gbps;
  if (const Point* h = largest(pts, Series::h2h, true)) s.h2h = h->gbps;
  return s;
}

Link measuredLink(const std::vector<Point>& pts) {
  Link best;
  for (int pass = 0; pass < 2 && !best.found; ++pass)
    for (const Point& p : pts) {
      if ((pass == 0) != (p.source < 0) || p.series != Series::h2dPinned) continue;
      if (p.bytes < 16e6) continue;  // small copies are latency, not the link
      if (p.gbps * 1e9 > best.bytesPerS) best = {true, p.gbps * 1e9, p.source};
    }
  return best;
}

}  // namespace pcie_model

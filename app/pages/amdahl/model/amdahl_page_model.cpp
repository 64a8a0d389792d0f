#include "pages/amdahl/model/amdahl_page_model.h"

#include "plans/amdahl.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>
#include <cmath>

namespace amdahl_page_model {
namespace {

bool ofThisPlan(const gpulab::ResultHeader& h) { return h.plan.empty() || h.plan == gpulab::plan_name::amdahl; }

Point pointOf(const gpulab::AmdahlStep& s, const gpulab::Result& r) {
  Point p;
  p.threads = s.threads;
  p.speedup = s.speedup > 0 ? s.speedup : 1.0;  // a run that wrote none: the one-thread reference
  p.seconds = s.head.median_s;
  p.serialSeconds = s.serial_s;
  p.samples = r.samples_s;
  p.relSpread = r.stats.rel_spread;
  return p;
}

}  // namespace

Reading read(const gpulab::Result& r) {
  Reading out;
  if (const auto l = gpulab::as_launch_overhead(r)) {
    if (!ofThisPlan(l->head)) return out;
    if (l->head.ok && l->per_launch_s > 0) {
      out.kind = Reading::Kind::launch;
      out.perLaunchS = l->per_launch_s;
    } else if (!l->head.error.empty()) {
      out.kind = Reading::Kind::launchFailed;
      out.error = l->head.error;
    }
    return out;
  }
  const auto s = gpulab::as_amdahl_step(r);
  if (!s || !ofThisPlan(s->head)) return out;
  if (!s->head.ok) {
    out.kind = Reading::Kind::stepFailed;
    out.threads = s->threads;
    out.error = s->head.error;
    return out;
  }
  out.kind = Reading::Kind::step;
  out.point = pointOf(*s, r);
  out.serialShare = s->serial_share;
  return out;
}

void addToRun(std::vector<Point>& run, Point p) {
  for (const Point& one : run)
    if (one.threads == 1) p.range = gpulab::models::paired_speedup_range(one.samples, p.samples);
  if (p.threads == 1) p.range = gpulab::models::paired_speedup_range(p.samples, p.samples);
  run.push_back(std::move(p));
}

Recorded recorded(const std::vector<Input>& results) {
  Recorded out;
  // Each recording's newest run decides the share its points come from (a recording may hold runs at two shares).
  for (auto it = results.rbegin(); it != results.rend(); ++it) {
    if (it->source < 0) continue;
    const auto s = gpulab::as_amdahl_step(*it->result);
    if (!s || !s->head.ok || !ofThisPlan(s->head)) continue;
    const bool known = std::any_of(out.runs.begin(), out.runs.end(),
                                   [&](const RecordedRun& run) { return run.source == it->source; });
    if (!known) out.runs.push_back({it->source, s->serial_share, {}});
  }
  std::sort(out.runs.begin(), out.runs.end(),
            [](const RecordedRun& a, const RecordedRun& b) { return a.source < b.source; });
  for (const Input& in : results) {
    if (in.source < 0) continue;
    if (const auto s = gpulab::as_amdahl_step(*in.result)) {
      if (!s->head.ok || !ofThisPlan(s->head)) continue;
      for (RecordedRun& run : out.runs)
        if (run.source == in.source && s->serial_share == run.share) run.points.push_back(pointOf(*s, *in.result));
    } else if (const auto l = gpulab::as_launch_overhead(*in.result)) {
      if (l->head.ok && ofThisPlan(l->head) && l->per_launch_s > 0) {
        out.launchSource = in.source;
        out.perLaunchS = l->per_launch_s;
      }
    }
  }
  return out;
}

}  // namespace amdahl_page_model

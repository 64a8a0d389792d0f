#include "pages/vram/model/vram_model.h"

#include "plans/vram.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>

namespace vram_model {
namespace {
bool ours(const gpulab::ResultHeader& h) { return h.plan == gpulab::plan_name::vram || h.plan.empty(); }
}  // namespace

double LiveStep::usedNow() const { return std::max(0.0, nowTotal - nowFree - held); }

std::optional<LiveStep> liveStep(const gpulab::Result& r) {
  const auto h = gpulab::as_memory_hold(r);
  if (!h || !ours(h->head) || !(h->before_total > 0)) return std::nullopt;
  const bool refused = h->stage == gpulab::HoldStage::refused || h->stage == gpulab::HoldStage::out_of_memory;
  if (!refused && !h->head.ok) return std::nullopt;
  LiveStep s;
  s.stage = h->stage == gpulab::HoldStage::out_of_memory ? LiveStep::Stage::outOfMemory
            : refused                                      ? LiveStep::Stage::refused
            : h->stage == gpulab::HoldStage::released      ? LiveStep::Stage::released
                                                           : LiveStep::Stage::holding;
  s.beforeTotal = h->before_total;
  s.beforeFree = h->before_free;
  s.requested = h->requested;
  s.held = h->held;
  s.nowFree = h->now_free;
  s.nowTotal = h->now_total > 0 ? h->now_total : h->before_total;
  s.margin = h->margin;
  s.step = h->step;
  s.steps = h->steps;
  s.error = h->head.error;
  s.part = h->part;
  s.predicted = h->predicted;
  s.stepBytes = h->step_bytes;
  s.users = h->users;
  s.scale = h->scale;
  s.cap = h->cap;
  s.sharedMemory = h->shared_memory;
  s.readingMeasured = h->reading_measured;
  s.device = h->head.device;
  s.cpuDevice = h->head.cpu_device;
  if (s.sharedMemory < 0 && s.cpuDevice) s.sharedMemory = 1;
  return s;
}

std::optional<std::string> unavailableReason(const gpulab::Result& r) {
  const auto h = gpulab::as_memory_hold(r);
  if (!h || !ours(h->head) || h->head.ok || h->stage == gpulab::HoldStage::refused || h->before_total > 0)
    return std::nullopt;
  return h->head.error;
}

std::optional<RecordedStep> newestRecorded(const std::vector<Recorded>& results) {
  for (auto it = results.rbegin(); it != results.rend(); ++it) {
    if (it->source < 0) continue;
    const auto s = liveStep(*it->result);
    if (s && s->stage != LiveStep::Stage::released) return RecordedStep{*s, it->source};
  }
  return std::nullopt;
}

const LiveStep* HoldRun::latest() const {
  if (released) return &*released;
  if (stop) return &*stop;
  return steps.empty() ? nullptr : &steps.back();
}

void add(HoldRun& run, const LiveStep& s) {
  using Stage = LiveStep::Stage;
  const bool finished = run.released.has_value();
  const bool first = s.stage == Stage::holding && (run.steps.empty() ? false : s.step <= run.steps.back().step);
  if (finished || first) run = HoldRun{};
  switch (s.stage) {
    case Stage::holding: run.steps.push_back(s); break;
    case Stage::refused:
    case Stage::outOfMemory: run.stop = s; break;
    case Stage::released: run.released = s; break;
  }
}

std::optional<RecordedRun> newestRecordedRun(const std::vector<Recorded>& results) {
  // The newest source that recorded a hold; its results in order make its last run.
  int source = -1;
  for (auto it = results.rbegin(); it != results.rend() && source < 0; ++it)
    if (it->source >= 0) {
      const auto s = liveStep(*it->result);
      if (s) source = it->source;
    }
  if (source < 0) return std::nullopt;
  RecordedRun out;
  out.source = source;
  for (const Recorded& r : results)
    if (r.source == source)
      if (const auto s = liveStep(*r.result)) add(out.run, *s);
  if (out.run.steps.empty() && !out.run.stop) return std::nullopt;  // only "freed again": nothing to show
  return out;
}

std::vector<BarPair> barPairs(const HoldRun& run, int most) {
  std::vector<BarPair> out;
  const std::size_t from = run.steps.size() > std::size_t(std::max(0, most)) ? run.steps.size() - std::size_t(most) : 0;
  for (std::size_t i = from; i < run.steps.size(); ++i) {
    const LiveStep& s = run.steps[i];
    out.push_back({s.step, s.part, s.users, s.predicted, s.measured()});
  }
  return out;
}

double fitLimit(const LiveStep& s) {
  const double limit = std::max(0.0, s.beforeFree - s.margin);
  return s.cap > 0 ? std::min(limit, s.cap) : limit;
}

}  // namespace vram_model

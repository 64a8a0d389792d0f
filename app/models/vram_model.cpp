#include "models/vram_model.h"

#include "gpulab/page_plans.hpp"
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
  const bool refused = h->stage == gpulab::HoldStage::refused;
  if (!refused && !h->head.ok) return std::nullopt;
  LiveStep s;
  s.stage = refused ? LiveStep::Stage::refused
            : h->stage == gpulab::HoldStage::released ? LiveStep::Stage::released
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

}  // namespace vram_model

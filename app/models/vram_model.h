#pragma once
// The memory page's live side, without Qt: one hold_memory step of the vram plan (or of a recording from before
// plans) as the numbers its "before / holding / freed" bars need, which steps may be drawn, and a recording's
// newest drawable step. Read through the typed view as_memory_hold, so no other plan's result is drawn.
#include "gpulab/results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vram_model {

struct LiveStep {
  enum class Stage { holding, released, refused } stage = Stage::holding;
  double beforeTotal = 0, beforeFree = 0, requested = 0, held = 0, nowFree = 0, nowTotal = 0, margin = 0;
  int step = 0, steps = 0;
  std::string error;  // refused: the numbers, in words
  double usedBefore() const { return beforeTotal - beforeFree; }
  double usedNow() const;  // by others, while gpulab holds `held`
  double drop() const { return beforeFree - nowFree; }
};

// A step of the vram plan that can be drawn: it ran (or was refused with its numbers) and read the memory.
std::optional<LiveStep> liveStep(const gpulab::Result& r);
// A result of the vram plan that says why nothing could be held here (no GPU, not offered on this backend).
std::optional<std::string> unavailableReason(const gpulab::Result& r);

struct Recorded {
  const gpulab::Result* result = nullptr;
  int source = -1;
};
// The newest step a recording holds that shows memory in use (a refusal counts; "freed again" does not).
struct RecordedStep {
  LiveStep step;
  int source = -1;
};
std::optional<RecordedStep> newestRecorded(const std::vector<Recorded>& results);

}  // namespace vram_model

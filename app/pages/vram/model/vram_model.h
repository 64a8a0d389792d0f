#pragma once
// The memory page's live side, without Qt: one hold_memory step of the vram plan (or of a recording from before
// plans) as the numbers its "before / holding / freed" bars need, which steps may be drawn, and a recording's
// newest drawable step. Read through the typed view as_memory_hold, so no other plan's result is drawn.
#include "models/sourced_result.h"
#include "gpulab/result_views.hpp"
#include "gpulab/results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vram_model {

struct LiveStep {
  // refused: the next step would not fit (never tried); outOfMemory: the device refused (the run went past the budget).
  enum class Stage { holding, released, refused, outOfMemory } stage = Stage::holding;
  double beforeTotal = 0, beforeFree = 0, requested = 0, held = 0, nowFree = 0, nowTotal = 0, margin = 0;
  int step = 0, steps = 0;
  gpulab::HoldPartKind part = gpulab::HoldPartKind::chunk;
  double predicted = 0;   // the calculator's bytes for everything held up to this step
  double stepBytes = 0;   // what this step asked for
  double users = 0;       // more users: how many this step adds
  double scale = 1, cap = 0;
  int sharedMemory = -1;  // 1: the system's RAM (iGPU, CPU-type device); 0: the card's own; -1: not recorded
  bool readingMeasured = true;  // false: counted (heap less held), not read from the device
  std::string device;     // the device's name as recorded
  bool cpuDevice = false; // a CPU-type device (lavapipe): never called a GPU
  std::string error;  // refused / out of memory: the numbers, in words
  // The device's reading of what was taken since the run began, and how far it is from the prediction.
  double measured() const { return beforeFree - nowFree; }
  double difference() const { return measured() - predicted; }
  double usedBefore() const { return beforeTotal - beforeFree; }
  double usedNow() const;  // by others, while gpulab holds `held`
  double drop() const { return beforeFree - nowFree; }
};

// A step of the vram plan that can be drawn: it ran (or was refused with its numbers) and read the memory.
std::optional<LiveStep> liveStep(const gpulab::Result& r);
// A result of the vram plan that says why nothing could be held here (no GPU, not offered on this backend).
std::optional<std::string> unavailableReason(const gpulab::Result& r);

using Recorded = SourcedResult;  // models/sourced_result.h
// The newest step a recording holds that shows memory in use (a refusal counts; "freed again" does not).
struct RecordedStep {
  LiveStep step;
  int source = -1;
};
std::optional<RecordedStep> newestRecorded(const std::vector<Recorded>& results);

// One run of the hold as its results came: the steps held, where it stopped, and the reading once freed.
struct HoldRun {
  std::vector<LiveStep> steps;    // holding, in order
  std::optional<LiveStep> stop;   // refused or out of memory
  std::optional<LiveStep> released;
  bool empty() const { return steps.empty() && !stop && !released; }
  const LiveStep* latest() const;  // the newest of all three (null when empty)
};
// Adds a step to the run; a first step (or a stop or release with nothing before it) after a finished run begins a
// new one.
void add(HoldRun& run, const LiveStep& s);
// A recording's newest run of the vram plan (its own source's steps, in order).
struct RecordedRun {
  HoldRun run;
  int source = -1;
};
std::optional<RecordedRun> newestRecordedRun(const std::vector<Recorded>& results);

// One step as two bars side by side: the calculator's prediction and the device's reading.
struct BarPair {
  int step = 0;
  gpulab::HoldPartKind part = gpulab::HoldPartKind::chunk;
  double users = 0;
  double predicted = 0, measured = 0;
  double difference() const { return measured - predicted; }
};
// The newest `most` steps (a class reads a handful of bars at once; the CSV has them all).
std::vector<BarPair> barPairs(const HoldRun& run, int most);
// The line the bars must stay under: free at the start less the margin, or the run's cap when lower.
double fitLimit(const LiveStep& s);

}  // namespace vram_model

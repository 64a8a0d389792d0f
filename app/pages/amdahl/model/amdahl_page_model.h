#pragma once
// What the Amdahl page shows from measurements, without Qt: its own run's thread counts as they arrive (each
// speed-up paired with the one-thread run of the same rounds), the GPU's launch cost, and each open recording's run
// (two recordings are two sources: one run each, never merged, never only one). Read through typed views
// (as_amdahl_step, as_launch_overhead) of the amdahl plan only; a recording from before plans is read as then. The
// law itself is gpulab/models/amdahl_model.hpp.
#include "models/sourced_result.h"
#include "gpulab/results.hpp"
#include "models/guarded_conclusions.h"

#include <string>
#include <vector>

namespace amdahl_page_model {

// One thread count of a run.
struct Point {
  double threads = 0, speedup = 0, seconds = 0, serialSeconds = 0;
  gpulab::models::SpeedupRange range;  // the per-round speed-ups against the 1-thread run of the same round
  std::vector<double> samples;         // seconds per round, paired with the 1-thread run's
  double relSpread = 0;                // (max - min) / median, for the busy-machine check
};

// What one result of the page's own run is.
struct Reading {
  enum class Kind { other, step, stepFailed, launch, launchFailed } kind = Kind::other;
  Point point;             // step
  double serialShare = 0;  // step: the share the job ran with
  double perLaunchS = 0;   // launch
  int threads = 0;         // stepFailed
  std::string error;       // stepFailed, launchFailed
};
Reading read(const gpulab::Result& r);

// Appends a measured thread count to a run, its spread paired with the run's one-thread rounds (which come first).
void addToRun(std::vector<Point>& run, Point p);

using Input = SourcedResult;  // models/sourced_result.h
// One recording's run: the share of its newest run, and every thread count it recorded at that share.
struct RecordedRun {
  int source = -1;    // the recording the run comes from
  double share = -1;  // its serial share
  std::vector<Point> points;
};
struct Recorded {
  std::vector<RecordedRun> runs;  // one per recording that holds a run, in source order
  int launchSource = -1;          // the recording whose launch cost is shown (-1: none)
  double perLaunchS = 0;
};
// Each recording's run, and a recorded launch cost (the last one listed).
Recorded recorded(const std::vector<Input>& results);

}  // namespace amdahl_page_model

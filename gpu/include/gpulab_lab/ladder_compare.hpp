#pragma once
// Which ladder step a traced kernel is most like, from what the trace measured (not from its source): how its
// global loads coalesce, its bytes per FLOP, whether and how much it reuses shared memory, how many cells of C
// each thread computes and how wide its global loads are. The advice is the change the next step made.
#include <gpulab_emu/kernel_trace.hpp>

#include <string>
#include <vector>

namespace gpulab::lab {

struct TraceFeatures {
  double sectors_per_request = 0;  // global loads
  double bytes_per_flop = 0;
  double shared_reuse = 0;
  double cells_per_thread = 0;
  int widest_global_load = 4;  // bytes
  double bank_conflicts_per_request = 0;
};
TraceFeatures features_of(const emu::StepTrace& trace);

struct Closest {
  int index = -1;          // into the ladder's steps
  std::string step;        // "03_shared_tiles"
  double distance = 0;
  std::string next_change; // what the next step does better; empty at the top
};

// `ladder` holds the ladder's steps traced at the student's shape, in order.
Closest closest_step(const emu::StepTrace& student, const std::vector<emu::StepTrace>& ladder);

// The ladder traced at `shape` (computed once per shape and kept: the ladder is the same every run).
const std::vector<emu::StepTrace>& ladder_at(const emu::TraceShape& shape);

}  // namespace gpulab::lab

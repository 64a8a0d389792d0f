#pragma once
// The professor-and-stadium picture (lesson 17.1): how many rounds a pile of independent output cells
// needs when every worker finishes one cell per round, and the "clerk" (memory bandwidth) who hands out
// the worksheets and can leave students idle.
#include <cstdint>

namespace gpulab::models {

// ceil(cells / workers). Lesson: 131,072 cells -> 16,384 rounds for 8 workers, 32 for 4,096; 4,096 cells
// (batch 1) -> 512 / 1. Returns 0 when cells <= 0 or workers <= 0 (nothing to do / nobody to do it).
std::int64_t rounds(std::int64_t cells, std::int64_t workers);

// Share of worker-rounds that produced a cell: cells / (rounds · workers). 1.0 when the last round is full.
double round_utilisation(std::int64_t cells, std::int64_t workers);

// The clerk model. Students could fill workers·cell_rate cells per second between them, but each cell needs a
// worksheet and the clerk delivers only clerk_rate sheets per second, so the stadium runs at the smaller of
// the two. The rest of the students' capacity is idle time.
struct ClerkResult {
  double demand_rate = 0;     // cells/s the workers could do if sheets never ran out: workers · cell_rate
  double effective_rate = 0;  // min(demand_rate, clerk_rate), cells/s
  double idle_share = 0;      // 1 - effective / demand, in [0, 1]
  bool clerk_limited = false; // true when the clerk, not the workers, sets the pace
  double seconds_for(double cells) const { return effective_rate > 0 ? cells / effective_rate : 0.0; }
};
// workers >= 0, cell_rate (cells per second per worker) >= 0, clerk_rate (sheets per second) >= 0.
// A clerk_rate <= 0 means "no clerk limit" (infinitely fast delivery).
ClerkResult clerk_model(double workers, double cell_rate, double clerk_rate);

}  // namespace gpulab::models

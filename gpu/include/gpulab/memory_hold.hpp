#pragma once
// Holding memory on purpose (the VRAM page's live bars): the rule that decides whether a request may even be
// tried, and the experiment that fills the card step by step. Header-only decision logic, so the CUDA module
// (which links only the harness) applies exactly the same rule as the CPU backend and the page.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/units.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace gpulab {

struct HoldDecision {
  bool ok = false;
  double usable_bytes = 0;  // free - margin: the most that may be held
  std::string reason;       // when refused: the numbers, in words ("asks 30 GB; 24 GB free, 1 GB kept back ...")
};

// A request is allowed only when bytes <= free - margin. Refusing up front, with the numbers, is the point: an
// out-of-memory error half-way through would leave the card (shared with other users) in an unknown state.
inline HoldDecision check_hold(double bytes, double safety_margin_bytes, const MemoryInfo& mem,
                               const std::string& where = "the device") {
  HoldDecision d;
  const double margin = safety_margin_bytes > 0 ? safety_margin_bytes : 0;
  d.usable_bytes = mem.free_bytes - margin;
  if (d.usable_bytes < 0) d.usable_bytes = 0;
  if (!(bytes > 0) || !std::isfinite(bytes)) {
    d.reason = "Nothing to hold: the request must be a positive number of bytes";
    return d;
  }
  if (bytes > d.usable_bytes) {
    d.reason = "Refused, never attempted: holding " + format_bytes(bytes) + " on " + where + " needs more than the " +
               format_bytes(d.usable_bytes) + " that may be used (" + format_bytes(mem.free_bytes) + " free of " +
               format_bytes(mem.total_bytes) + ", " + format_bytes(margin) + " kept back as a safety margin); short by " +
               format_bytes(bytes - d.usable_bytes);
    return d;
  }
  d.ok = true;
  return d;
}

// The safety margin the app keeps free: the larger of 5 % of the total and 512 MiB, so the driver, the
// display and other users on a shared card keep room to work.
inline double default_hold_margin(const MemoryInfo& mem) {
  const double pct = 0.05 * mem.total_bytes;
  const double floor_bytes = 512.0 * 1024 * 1024;
  return pct > floor_bytes ? pct : floor_bytes;
}

// One step of a hold: a part of the calculator's estimate (weights, KV cache, …), its bytes.
struct HoldPart {
  HoldPartKind kind = HoldPartKind::chunk;
  double bytes = 0;
};

// What the memory page's Run holds, in order: each part is one step; then, when `more_user_bytes` > 0, one more
// user's KV cache per step (`users_per_step` users) until the next step would not fit. The run stops *before* the
// step that would not fit (free − margin, or the cap) and says so; with `until_refused` it goes on past that,
// allocating without asking, until the device refuses (DeviceOutOfMemory) or the cap is reached. Everything is
// freed at the end, on cancel and on a refusal.
struct HoldRequest {
  std::vector<HoldPart> parts;
  double more_user_bytes = 0;   // one user's KV cache (× scale); 0: no steps after the parts
  double users_per_step = 1;    // users added per extra step (more when one user is a tiny share of the memory)
  int max_more_steps = 64;      // a bound on the extra steps, whatever the device says
  double margin = 0;            // kept free: a step that would eat into it would not fit
  double hold_s = 2;            // the whole hold is kept this long before it is freed (cancel ends it early)
  double step_pause_s = 0.12;   // between steps, so the bars visibly fill: a demonstration, not a benchmark
  bool until_refused = false;   // go past the budget until the device refuses (Backend::hold_memory_past_budget)
  double cap_bytes = 0;         // never hold more than this; 0: no cap (a CPU-type device gets one: it is RAM)
  double scale = 1;             // the parts are the estimate × scale (recorded, so the page can say so)
  double predicted_total() const;
};

// Runs a hold, reporting a Result after every step (experiment "hold_memory", variant "holding"), then the stop
// ("refused": the next step would not fit, never tried; "out_of_memory": the device refused), then "released"
// after freeing. Params on every result: requested (the parts' total), held, predicted, step_bytes, part, users,
// margin, scale, cap, shared_memory, before_free, before_total, now_free, now_total, step, steps. Returns the
// last step held (variant "held"), or the stop when nothing could be held.
Result run_hold(Backend& backend, const HoldRequest& request, const RunContext& ctx);

// A bare byte count in `steps` equal chunks, stopping before the chunk that would not fit (run_hold).
Result run_hold_memory(Backend& backend, double bytes, double safety_margin_bytes, int steps, double hold_s,
                       const RunContext& ctx);

}  // namespace gpulab

#pragma once
// Holding memory on purpose (the VRAM page's live bars): the rule that decides whether a request may even be
// tried, and the experiment that fills the card step by step. Header-only decision logic, so the CUDA module
// (which links only the harness) applies exactly the same rule as the CPU backend and the page.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/units.hpp"

#include <cmath>
#include <string>

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

// Fills the backend's memory with `bytes` in `steps` equal chunks (backend.hold_memory each), reporting a
// Result after every chunk (experiment "hold_memory", variant "holding"), keeps it all for `hold_s` seconds
// (cancel ends the wait early), then frees it and reports variant "released". Params on every result:
// requested, held, margin, before_free, before_total, now_free, now_total, step, steps. A refused request
// returns one Result with variant "refused" and `error` holding the numbers; nothing is allocated.
Result run_hold_memory(Backend& backend, double bytes, double safety_margin_bytes, int steps, double hold_s,
                       const RunContext& ctx);

}  // namespace gpulab

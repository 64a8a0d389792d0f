#include "models/cpu_peak_in_use.h"

#include "gpulab/units.hpp"

namespace cpu_peak_in_use {

std::string machineKey(const std::string& cpuName, int threads, const std::string& simd) {
  return cpuName + " | " + std::to_string(threads) + " threads | " + simd;
}

const char* kindName(Choice::Kind kind) {
  switch (kind) {
    case Choice::Kind::provisional: return "provisional";
    case Choice::Kind::confirmed: return "confirmed";
    case Choice::Kind::lastGood: return "last good";
  }
  return "";
}

Choice choose(const gpulab::CpuPeakState& now, const LastGood& last) {
  Choice c;
  c.gflops_fp32 = now.gflops_fp32;
  c.gflops_fp64 = now.gflops_fp64;
  const std::string when = now.best_taken_at.empty() ? std::string() : ", best at " + now.best_taken_at;
  const bool farBelow = last.known() && now.gflops_fp32 < kFarBelow * last.gflops_fp32;
  if (farBelow && now.sets < kSetsBeforeBelieving) {
    c.kind = Choice::Kind::lastGood;
    c.gflops_fp32 = last.gflops_fp32;
    c.gflops_fp64 = last.gflops_fp64 > 0 ? last.gflops_fp64 : now.gflops_fp64;
    c.source = "measured on this machine " + last.date + " (this start's bursts read " +
               gpulab::format_si(now.gflops_fp32 * 1e9, "FLOP/s") + ": the machine was busy; re-measuring)";
    c.keepMeasuring = true;
    return c;
  }
  if (now.settled) {
    c.kind = Choice::Kind::confirmed;
    c.source = now.source_fp32 + when + ", confirmed by a later set";
    c.keepMeasuring = false;
    return c;
  }
  c.kind = Choice::Kind::provisional;
  c.source = now.source_fp32 + when + " (start-up; re-measuring to confirm)";
  c.keepMeasuring = true;
  return c;
}

}  // namespace cpu_peak_in_use

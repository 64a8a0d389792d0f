#pragma once
// Which CPU FMA peak the pages divide by (issue 40). The start-up bursts can all run while the machine is busy: on a
// 2-vCPU cloud VM one GUI start in seven read 118 GFLOP/s where the other six read 234, and every "share of the
// measured peak" on every page doubled. So a start-up figure is provisional until a later set of bursts confirms
// it (gpulab::CpuPeakState::settled), and one far below the last confirmed figure on this machine (an earlier session's,
// remembered with its date) never stands as "measured here": the last good figure stands, named as such, while
// the app re-measures in the background. Qt-free; tests/models/test_cpu_peak_in_use.cpp.
#include "gpulab/cpu_peak_state.hpp"

#include <string>

namespace cpu_peak_in_use {

// A start-up figure below this share of the last good one is a busy machine's, not this CPU's.
inline constexpr double kFarBelow = 0.75;
// After this many sets of bursts that agree below the last good figure, the machine has changed (another VM size,
// a slower power mode): the new figure stands.
inline constexpr int kSetsBeforeBelieving = 8;

// The last confirmed peak on this machine (same CPU, threads and SIMD), from an earlier session.
struct LastGood {
  double gflops_fp32 = 0, gflops_fp64 = 0;
  std::string date;  // "2026-12-05"
  bool known() const { return gflops_fp32 > 0; }
};

struct Choice {
  enum class Kind {
    provisional,  // this start's bursts, not yet confirmed by a later set
    confirmed,    // this session's, confirmed: the one to remember
    lastGood,     // this start's bursts were far below the last good figure: that one stands meanwhile
  } kind = Kind::provisional;
  double gflops_fp32 = 0, gflops_fp64 = 0;
  std::string source;          // one line for labels and the device details
  bool keepMeasuring = true;   // more sets of bursts are wanted
};
// "provisional", "confirmed", "last good": for the watch's state and messages.
const char* kindName(Choice::Kind kind);

// The key a machine's last good peak is remembered under: CPU name, threads and SIMD extensions.
std::string machineKey(const std::string& cpuName, int threads, const std::string& simd);

Choice choose(const gpulab::CpuPeakState& now, const LastGood& last);

}  // namespace cpu_peak_in_use

#pragma once
// Whether the CPU's FMA peak (gpulab::cpu_peak) can be trusted yet, and more bursts to make it so (issue 40). Every
// burst of a busy start-up can read low and alike (118 GFLOP/s where a quiet start reads 234, on a 2-vCPU cloud VM),
// so the start-up set proves nothing by agreeing with itself: the peak is settled once a later set of bursts agrees
// with any set before it. The app takes such sets in the background after start-up (app/runner/cpu_peak_watch.h).
#include <string>

namespace gpulab {

struct CpuPeakState {
  double gflops_fp32 = 0, gflops_fp64 = 0;  // the peak in use, as cpu_peak() gives it
  std::string source_fp32;                  // cpu_peak()'s line: "measured: best of 8 register-FMA bursts on 2 threads"
  bool settled = false;                     // a set after the start-up one agreed with a set before it
  int sets = 0;                             // sets of bursts taken (the start-up set is the first)
  std::string best_taken_at;                // when the best FP32 burst was taken: "16:47:03 UTC"
};

// The state now (takes the start-up set at first use, as cpu_peak() does).
CpuPeakState cpu_peak_state();
// One more set of bursts now (at most 40 sets in all); the state after it.
CpuPeakState settle_cpu_peak();

}  // namespace gpulab

#pragma once
// What the batch page shows, without Qt: its own sweep's points as they arrive (the triad first, then one GEMM per
// batch size), the recorded sweeps of the same layer shape, and the crossover the points support. Read through
// typed views (gpulab/result_views.hpp) of the batch plan only — a recording from before plans: its library GEMMs
// on every thread, as the batch suite ran them — so another suite's naive loop or one-thread GEMM of the same
// shape never becomes a point of the sweep. The arithmetic (the model's crossover) is in batch_sweep.h.
#include "models/sourced_result.h"
#include "gpulab/results.hpp"
#include "pages/batch/model/batch_sweep.h"
#include "models/device_words.h"
#include "models/guarded_conclusions.h"
#include "models/measured_spread.h"

#include <string>
#include <vector>

namespace batch_model {

// One batch size of a sweep.
struct SweepPoint {
  long long batch = 0;
  double seconds = 0;    // median
  double flopsPerS = 0;
  double bytes = 0;      // the lesson's count: bpe · (B·d_in + d_in·d_out + B·d_out)
  double intensity = 0;  // FLOPs per byte
  double gbps = 0;       // achieved, bytes / median
  double flops = 0;
  double lowFlopsPerS = 0, highFlopsPerS = 0;  // from the slowest and the fastest sample
  int samples = 0;
  double relSpread = 0;  // the samples' (max - min) / median, for the busy-machine check
};

// The set-up a sweep runs with, as the views need it.
struct SweepSetup {
  gpulab::Precision precision = gpulab::Precision::fp32;
  int dIn = 0, dOut = 0;
  bool onGpu = false;  // the GPU slot's device: its datasheet roof applies
  bool isGpu = false;  // ...and that device is a GPU (device_words): its colour and word
  std::string device;  // device_words' label: "Vulkan on the CPU (llvmpipe) — not a GPU"
};

// What the page shows of its own run: the sweep's points and the set-up they were run with. Before a sweep has a
// point the page shows what is set (the controls), after it what was run: the state says which, so the page
// keeps no copies of its controls to tell the two apart.
struct SweepState {
  SweepSetup ran;
  std::vector<SweepPoint> points;  // as they came
  double measuredPeakGflops = 0;   // the roofs suite's FMA peak of the sweep's device and precision, measured
                                   // here (models/measured_peak.h); 0: none, and no share is shown
  SweepSetup shown(const SweepSetup& controls) const { return points.empty() ? controls : ran; }
};
// A sweep about to run with `ran`: no points yet.
SweepState startSweep(SweepSetup ran);
// One more point of the sweep, with the measured peak known when it came.
void apply(SweepState& state, const SweepPoint& point, double measuredPeakGflops);

// What one result of the page's own run is to the sweep.
struct Reading {
  enum class Kind {
    other,            // not this plan's, or not a sweep result
    bandwidth,        // the triad: `bandwidth` bytes/s
    bandwidthFailed,  // the triad did not run: `error`
    point,            // a batch size: `point`
    pointFailed,      // a batch size did not run: `batch`, `error`
  } kind = Kind::other;
  SweepPoint point;
  double bandwidth = 0;  // bytes/s
  long long batch = 0;
  std::string error;
};
Reading read(const gpulab::Result& r);

using Input = SourcedResult;  // models/sourced_result.h

// A memory bandwidth measured earlier in this session on the CPU (the roofline page's triad, say) to give the model
// a start: the largest arrays measured, the fastest kind among them (cache-sized arrays overstate DRAM). 0: none.
double sessionCpuBandwidth(const std::vector<Input>& results);

// A recorded sweep of the d_in × d_out layer: one per (device, precision, recording), at least three batch sizes,
// with the roofs it is read against on the roofline: the recording's own, never this machine's.
struct RecordedSweep {
  int source = 0;
  gpulab::DeviceWords device;  // who ran it: never "GPU" for a CPU-type Vulkan device
  std::string deviceName;      // short: "AMD EPYC 7R13", "llvmpipe"
  gpulab::Precision precision = gpulab::Precision::fp32;
  std::vector<double> batches, flopsPerS;  // by batch, one point per batch (the newest)
  std::vector<double> intensities;         // FLOPs per byte of each point, by the lesson's count
  // The memory roof: the sweep's own triad, recorded at its start (the batch plan's); from a recording made before
  // plans were recorded, the triad the plan runs there (all threads, batch_triad_array_bytes) on the same device.
  // 0: the recording has none, and the roofline says so.
  double bandwidth = 0;  // bytes/s
  double bandwidthArrayBytes = 0;
  bool bandwidthOfTheSweep = false;  // the batch plan's own triad (else the matching one of another suite)
  // The compute roof: the device's FMA peak in the sweep's precision where the recording has one (the roofs
  // suite); 0: none recorded (the memory roof is drawn alone).
  double peakFlops = 0;
};
std::vector<RecordedSweep> recordedSweeps(const std::vector<Input>& results, long long dIn, long long dOut);

// The crossover the sweep's points support (guarded_conclusions: a zig-zag is not a crossover).
gpulab::models::GuardedCrossover crossover(const std::vector<SweepPoint>& sweep);

}  // namespace batch_model

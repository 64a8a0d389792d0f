#pragma once
// What the roofline page shows, without Qt: the ceilings each device showed in each source (its memory roof from
// the largest-array streaming run, its compute roof per precision from its best GEMM), the points every GEMM and
// streaming run makes at its FLOPs per byte, and which measured devices have a datasheet to compare with. Read
// through typed views (as_gemm, as_bandwidth) only.
//
// Unlike the other pages' models this one does NOT keep only its own plan's results: the roofline is where the
// whole session meets, so every plan's GEMMs and streaming runs are drawn (the page says "Points from every
// page"). What it takes is exactly: GEMM and bandwidth results that ran (ok, a median time), from any plan; never
// transfers, decode chains or other kinds, and never a failed run (tests/models/test_roofline_model.cpp).
#include "models/sourced_result.h"
#include "gpulab/device_words.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/results.hpp"

#include <map>
#include <string>
#include <vector>

namespace roofline_model {

using Input = SourcedResult;  // models/sourced_result.h

// The ceilings one device showed in one source.
struct DeviceCeilings {
  int source = -1;
  std::string device;      // the name the backend gave (may be empty: the view then names the backend's noun)
  gpulab::DeviceWords words;
  bool hasBandwidth = false;
  double bandwidth = 0;    // bytes/s of the streaming run with the largest arrays (ties: the faster)
  double bandwidthArrayBytes = 0;
  std::string bandwidthKind;  // the stream's variant ("triad", "copy"), for the label only
  std::map<gpulab::Precision, double> peak;  // best GEMM FLOP/s per precision
  // The roofs measured as such (experiments "peak" and "overhead", gpulab/roofs.hpp): FMA chains in registers per
  // precision (FLOP/s), and the overhead floor: one empty launch + wait (seconds; 0 = not measured).
  std::map<gpulab::Precision, double> fmaPeak;
  double overheadFloorS = 0;
  double graphFloorS = 0;  // the same launch through a CUDA graph (0 = not measured)
  // Launches issued back to back with no wait, one wait at the end (experiment "launch_overhead", issue 36): seconds per
  // launch (0 = not measured). A stream of ops pays this pace, not the launch + wait, once each op runs longer.
  double issueS = 0;
  // The floor a 1 MFLOP op in a stream of such ops sees: the back-to-back pace when measured, else the launch + wait.
  double streamFloorS() const { return issueS > 0 ? issueS : overheadFloorS; }
  // The elementwise sweep: (elements, seconds per op), smallest first.
  std::vector<std::pair<double, double>> sweep;
  bool hasMeasuredRoofs() const { return !fmaPeak.empty() || overheadFloorS > 0 || issueS > 0; }
};

// One GEMM or streaming run at its arithmetic intensity.
struct Point {
  int source = -1;
  bool stream = false;
  double intensity = 0;  // FLOPs per byte
  double flopsPerS = 0;
  double gbps = 0;
  gpulab::Precision precision = gpulab::Precision::fp32;
  std::string variant;   // for the label and tooltip only
  std::string device;    // as the backend gave it ("" when not recorded)
  gpulab::DeviceWords words;
  double bytesPerArray = 0;          // stream
  long long m = 0, n = 0, k = 0;     // GEMM
  std::string date;                  // provenance "date", when there is one
};

struct Model {
  std::vector<DeviceCeilings> devices;  // in the order their first result came
  std::vector<Point> points;
};
// includeRecorded = false: results of recordings (source >= 0) are left out entirely.
Model build(const std::vector<Input>& results, bool includeRecorded);

// The streaming run that stands for a device's DRAM bandwidth: the larger arrays win (small ones run in cache),
// then the higher rate. True when `candidate` should replace the current one.
bool betterDramBandwidth(double candidateArrayBytes, double candidateGbps, double currentArrayBytes,
                         double currentGbps);

// Names whose datasheet roofs are drawn beside the measured ones: real GPUs only (device_words), never a CPU, the
// CUDA emulator or a CPU-type Vulkan device such as lavapipe, even if its name matched the catalogue.
std::vector<std::string> measuredGpuNames(const Model& m);

// The CPU measured here: its memory roof (0: none) and its best GEMM in `p` (0: none).
double measuredCpuBandwidth(const Model& m);
double measuredCpuPeak(const Model& m, gpulab::Precision p);

}  // namespace roofline_model

#pragma once
// What the matrix-multiply page shows, without Qt: its rows (the ways of computing C = A·B, from the plan
// builder's list, plus a recording's GPU ways this machine lacks), the newest measured GEMM and each recording's
// best of each row at the current size, the reference rates the shares are taken against, the sizes a recording
// offers, and the lesson's n = 60 ratio. Reads typed GEMM views (gpulab/result_views.hpp) of the matmul page's plans only
// (gpulab::is_matmul_page_plan), so a recording's batch sweep or stadium never becomes a bar here.
#include "models/sourced_result.h"
#include "gpulab/device_words.hpp"
#include "gpulab/gemm_ladder.hpp"
#include "plans/matmul.hpp"
#include "gpulab/roofs.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/results.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace matmul_model {

using Input = SourcedResult;  // models/sourced_result.h

struct Shape {
  long long m = 60, k = 60, n = 60;
  bool operator==(const Shape&) const = default;
  bool square() const { return m == k && k == n; }
  double flops() const { return 2.0 * double(m) * double(k) * double(n); }
};


struct Row {
  std::string key;  // gpulab::matmul_way_key: "cpu/naive/-1", "cuda/cublas/-1", "vulkan/smem/-1"
  gpulab::MatmulWay way;
  std::optional<gpulab::LadderStep> step;  // a GPU ladder's step (gpulab/gemm_ladder.hpp); none: CPU or unknown
  int number = 0;              // its place on the ladder, from 1 (0: a library, or unknown for a recorded step)
  std::string variant;         // shown as is only for a step the page has no words for
  bool gpu_side = false;       // any backend but the CPU
  gpulab::DeviceWords device;  // gpu_side: who ran it (device_words) — lavapipe is "Vulkan on the CPU", not a GPU
  bool live = true;            // can run here (false: only in a recording)
};

// The GEMM results the page may draw: FP32, of the matmul page's plans.
const gpulab::Result* gemmOf(const Input& in, gpulab::GemmPoint* point = nullptr);
// The row key a result belongs to ("" when it is not one of the page's).
std::string rowKeyOf(const gpulab::Result& r);

// The CPU's ways and the live GPU's (matmul_ways, named with `liveGpu`'s words), then each GPU way a recording
// brings that is not there yet (named with the recording's device).
std::vector<Row> buildRows(const gpulab::Backends& backends, const gpulab::DeviceWords& liveGpu,
                           const std::vector<Input>& results);
int rowIndex(const std::vector<Row>& rows, const std::string& key);

// The newest result measured here for the row at `shape` (any outcome), or null.
const gpulab::Result* measuredFor(const std::vector<Input>& results, const Row& row, const Shape& shape);
// The fastest passed result of recording `source` for the row at `shape`, or null. Each recording is a source of
// its own: a faster run in another recording never hides this one's.
const gpulab::Result* recordedFor(const std::vector<Input>& results, const Row& row, const Shape& shape, int source);
// A row's recorded bars: one per recording with a passed result at `shape`, in source order.
using Recorded = SourcedResult;  // models/sourced_result.h
std::vector<Recorded> recordedBars(const std::vector<Input>& results, const Row& row, const Shape& shape);
// The recordings with at least one bar at `shape`, in source order (one badge each).
std::vector<int> recordedSources(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape);

struct Counts {
  int measuredBars = 0, passed = 0, wrong = 0;
  int recordedBars = 0;  // every recording's bars: two recordings with the row count twice
};
Counts counts(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape);

// The rates the bars' shares are taken against, measured here at `shape` (0: none).
struct Refs {
  double naive = 0;     // the professor
  double blasAll = 0;   // BLAS on every core
  double blasBest = 0;  // the faster BLAS run ("% of BLAS": on a busy machine all threads can lose to one)
  double gpuLib = 0;    // the GPU's library (cuBLAS)
};
Refs refs(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape);

// A measured row's share of its library (BLAS or cuBLAS), of the peak the chart draws (a GPU's datasheet or clock
// model, the CPU's FMA burst at start-up) and of its device's FMA peak measured by the roofs suite (measured_peak.h).
struct Shares {
  double ofLibrary = 0;  // 0: no library rate, or the row is the library
  bool libraryIsGpu = false;
  double ofPeak = 0;      // 0: no peak known
  bool abovePeak = false;  // above the peak by over 2 %: the peak itself was measured low
  double ofMeasuredPeak = 0;  // 0: no FMA peak measured on this device in this source
  bool aboveMeasuredPeak = false;  // above it by more than the noise (bench --check would refuse it)
};
Shares shares(const Row& row, double gflops, const Refs& refs, double cpuPeak, double gpuPeak,
              double measuredPeak = 0);

// The FP32 FMA peak (GFLOP/s) measured on the device `gemm` ran on, in the same source (-1 here, else that
// recording); 0 when that source has none for it (say so, never borrow another device's or a datasheet's).
double measuredPeakGflops(const std::vector<Input>& results, const gpulab::Result& gemm, int source);

// A GPU ladder's best step at `shape` in one source (-1: measured here, on the live GPU slot; else that recording):
// the fastest passed hand-written kernel (not the library), with its share of the FMA peak measured on its device
// in the same source (0: no peak measured there).
struct BestStep {
  const gpulab::Result* result = nullptr;  // null: no step measured at this size
  int row = -1;
  double measuredPeak = 0;  // GFLOP/s
  double ofMeasuredPeak = 0;
};
BestStep bestGpuStep(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape,
                     int source = -1);
// A recorded row's share of the same recording's library run (the CPU: the faster of its two BLAS runs); 0: none.
double recordedLibraryShare(const std::vector<Input>& results, const std::vector<Row>& rows, const Row& row,
                            const Shape& shape, int source, double gflops);

// The m×k×n sizes the opened recordings have passed FP32 GEMMs at, smallest first.
std::vector<Shape> recordedSizes(const std::vector<Input>& results);
// The size with the most recorded bars (ties: the smaller, where the naive loop is more likely to be).
Shape busiestRecordedSize(const std::vector<Input>& results);

// The newest naive-loop rate measured here at this k×n (the caches see only k and n), or null.
const gpulab::Result* naiveMeasuredAt(const std::vector<Input>& results, long long k, long long n);

// The lesson's exercise: BLAS on all cores against the naive loop at 60³, from the fastest sample of each (at this
// size a run lasts microseconds; the minimum is the least disturbed). 0 when either has not been measured here.
double practiceRatio(const std::vector<Input>& results);

}  // namespace matmul_model

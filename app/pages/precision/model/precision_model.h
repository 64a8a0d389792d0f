#pragma once
// What the precision page shows, without Qt: one row per number format (can it run here and through what, how fast
// it ran here or in a recording, its error against FP64, the chosen card's datasheet figure) and the verdicts the
// results strip states (the fastest format, the FP32 guard). Built from typed results (result_views.hpp) of the
// precision plan only, so a recording's other GEMMs never become a format's bar.
#include "models/sourced_result.h"
#include "gpulab/backend.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpulab::models {
struct GpuSpec;
}

namespace precision_model {

// One opened recording's rate for a format: each recording is a source of its own, drawn as its own bar.
struct Recorded {
  int source = -1;     // the recording's index in the result store (it decides the bar's look)
  double flops = 0;    // its fastest GEMM of the format, FLOP/s (INT8: OP/s)
  bool onGpu = false;  // ran on a GPU, not a CPU-type device (the bar's colour says CPU or GPU)
};

struct Row {
  gpulab::Precision precision = gpulab::Precision::fp32;
  bool supported = false;
  std::string reason;         // why not, from Backend::supports
  std::string variant;        // the GEMM that times it here
  double flopsPerS = 0;       // measured here (0 = not yet)
  double checkMaxAbs = -1;    // the measured kernel's own check against FP64 (-1 = none)
  double relFro = -1;         // emulated GEMM: ||C - C_fp64||_F / ||C_fp64||_F (-1 = not computed)
  double emuMaxAbs = -1;      // emulated GEMM: max |C - C_fp64|
  std::vector<Recorded> recorded;  // one per opened recording that ran the format, in source order
  double datasheetFlops = 0;  // the chosen card's dense datasheet peak (0 = the card has no such path)
};

// One row per format, in gpulab::all_precisions order.
std::vector<Row> initialRows();
Row& rowOf(std::vector<Row>& rows, gpulab::Precision p);
const Row& rowOf(const std::vector<Row>& rows, gpulab::Precision p);

// Which formats `backend` runs, and through which GEMM (the plan builder's choice, precision_gemm_variant).
void applySupport(std::vector<Row>& rows, gpulab::Backend& backend);
void applyDatasheet(std::vector<Row>& rows, const gpulab::models::GpuSpec* card);
// Forgets what was measured here (a new run starts).
void clearMeasured(std::vector<Row>& rows);
// A result of this page's own run. Returns the error to show when it is a GEMM that did not run.
std::optional<std::string> applyMeasured(std::vector<Row>& rows, const gpulab::Result& r);
// The recordings' results: for each recording, the fastest GEMM of each format among those its precision plan made
// (a recording from before plans were recorded: its library GEMMs, as then); a faster recording never hides a
// slower one's bar. Returns the sources that contributed, in source order.
using RecordedResult = SourcedResult;  // models/sourced_result.h
std::vector<int> applyRecorded(std::vector<Row>& rows, const std::vector<RecordedResult>& recorded);
// A row's rate in recording `source` (0: that recording did not run the format).
double recordedFlops(const Row& row, int source);

// The results strip's speed verdict.
struct SpeedVerdict {
  enum class Kind { nothing, fasterThanFp32, fp32WithFp64, fastestOnly } kind = Kind::nothing;
  gpulab::Precision best = gpulab::Precision::fp32;
  double bestFlops = 0, fp32Flops = 0, fp64Flops = 0;
};
SpeedVerdict speedVerdict(const std::vector<Row>& rows);

// "FP32 means FP32": an FP32 GEMM faster than the FP32 peak did not run in FP32 (TF32 behind its back).
struct Fp32Guard {
  enum class Kind { unknown, abovePeak, withinPeak } kind = Kind::unknown;
  double flops = 0, peak = 0;
};
Fp32Guard fp32Guard(const std::vector<Row>& rows, double fp32PeakFlops);

// A row's status column.
enum class Status { notHere, ran, runsHere };
Status statusOf(const Row& r);

}  // namespace precision_model

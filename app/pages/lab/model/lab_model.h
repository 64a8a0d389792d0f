#pragma once
// The lab page's model, without Qt: the guided tasks (what each starts from and when it is done), the rows of the
// Why table (the seven ladder steps and the student's kernel, from their traces), and where the kernel sits on a
// card's roofline (a model from the datasheet: the emulator measures no speed).
#include <gpulab_emu/kernel_trace.hpp>
#include <gpulab_lab/gpu_timing.hpp>
#include <gpulab_lab/lab.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lab_model {

enum class Task {
  free,            // your own kernel, from a blank launcher or any step
  coalesce,        // make step 2 from step 1 (one index swapped)
  add_tiles,       // add shared-memory tiles to step 2
  fix_barrier,     // find the bug: step 3 with a __syncthreads() missing
  fix_edge,        // find the bug: step 2 with its edge guard gone
  beat_step3,      // fewer bytes per FLOP than step 3
};
const std::vector<Task>& tasks();
// The file the task opens in the editor.
std::string task_source(Task task);

enum class Verdict { not_checked, not_right, not_yet, done };
struct TaskResult {
  Verdict verdict = Verdict::not_checked;
  double student_bytes_per_flop = 0, target_bytes_per_flop = 0;  // beat_step3
  std::string closest;  // the step the kernel is most like
};
// `ladder`: the ladder traced at the report's trace shape (gpulab::lab::ladder_at).
TaskResult judge(Task task, const gpulab::lab::LabReport& report, const std::vector<gpulab::emu::StepTrace>& ladder);

struct WhyRow {
  std::string name;    // "01_naive" or "your kernel"
  std::string kernel;  // what the launcher launched
  double sectors_per_request = 0, load_bytes_used_share = 0, bytes_per_flop = 0, shared_reuse = 0,
         conflicts_per_request = 0, cells_per_thread = 0;
  bool student = false;
  bool closest = false;  // the step the student's kernel is most like
  bool check_passed = false;
};
std::vector<WhyRow> why_rows(const std::vector<gpulab::emu::StepTrace>& ladder, const gpulab::lab::LabReport& report);

struct RooflinePlace {
  double intensity = 0;          // FLOP per byte requested from memory (1 / bytes per FLOP)
  double attainable_tflops = 0;  // min(peak, intensity × bandwidth)
  double peak_tflops = 0, bandwidth_gbs = 0;
  bool memory_bound = false;
};
// Where a traced kernel sits under a card's FP32 roof (datasheet figures); nullopt without a trace or figures.
std::optional<RooflinePlace> roofline_place(const gpulab::emu::StepTrace& trace, double peak_tflops, double bandwidth_gbs);

// Every ladder step and the student's kernel under one card's roofline (the datasheet model: each at the least of its
// traced intensity × bandwidth and the peak, never a measured speed). Steps without traffic are left out.
struct RoofPoint {
  std::string name;  // "03_shared_tiles" or "your kernel"
  RooflinePlace place;
  bool student = false;
};
std::vector<RoofPoint> roof_points(const std::vector<gpulab::emu::StepTrace>& ladder,
                                   const gpulab::lab::LabReport& report, double peak_tflops, double bandwidth_gbs);

// ---- Who computes what, one warp's load (drawn with the "Inside the kernel" page's views) ----------------------
// The cells of C one warp of one block wrote, and their bounding box: a row of C (neighbouring lanes take
// neighbouring columns), a column (neighbouring rows: step 1's pattern) or a patch.
struct WarpCover {
  enum class Shape { none, row, column, patch };
  Shape shape = Shape::none;
  int cells = 0;
  int row0 = 0, row1 = -1, col0 = 0, col1 = -1;  // inclusive
};
WarpCover warp_cover(const gpulab::emu::StepTrace& trace, int block, int warp);

// The first global load of `array` ("A" or "B") that the tracer sampled for warp `warp` of block 0: its index in
// trace.instructions (instructions are numbered in the order the kernel first ran them), or -1.
int first_global_load(const gpulab::emu::StepTrace& trace, const std::string& array, int warp);

// ---- Speed on a real GPU ("Time on GPU": the file compiled with nvcc and timed beside cuBLAS) --------------------
// What the page shows of a GPU timing. Numbers are filled only when the report was timed (checked against cuBLAS and
// measured); every other state carries the reason alone, so nothing unmeasured is ever shown as measured.
struct GpuSpeed {
  bool measured = false;  // timed: the numbers below are measurements
  bool stale = false;     // the editor's text is no longer the file that was timed
  gpulab::lab::GpuStatus status = gpulab::lab::GpuStatus::failed;
  std::string reason;     // when not measured
  std::string device;     // "NVIDIA H100 80GB HBM3"
  int m = 0, n = 0, k = 0;
  std::string resized;    // why the size is below what was asked
  double student_gflops = 0, cublas_gflops = 0, share_of_cublas = 0;
  double student_seconds = 0, cublas_seconds = 0;  // medians
  // The FP32 FMA peak measured here on the same device (the roofs suite), and the kernel's share of it; 0: none
  // measured. `above_peak`: above it by more than the noise (models/measured_peak.h).
  double peak_gflops = 0, share_of_peak = 0;
  bool above_peak = false;
};
// `same_source`: the editor still holds the text that was timed. `measured_peak_gflops`: the best FP32 FMA peak
// measured here on the report's device (measured_peak::bestPeakGflops), 0 when none.
GpuSpeed gpu_speed(const gpulab::lab::GpuTimingReport& report, bool same_source, double measured_peak_gflops);

}  // namespace lab_model

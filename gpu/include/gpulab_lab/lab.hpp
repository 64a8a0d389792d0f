#pragma once
// The lab: a student's own CUDA kernel file (the ladder's launcher convention,
//   void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream)
// launching with <<<grid, block, shared, stream>>>) compiled by clang for the CPU emulator with the tracer's access
// callbacks, run in a child process with a time and memory limit, checked on seeded random inputs at awkward
// shapes and traced like the ladder. `gpulab kernels --file` and the lab page both call run_lab.
#include "ladder_compare.hpp"

#include <gpulab_emu/kernel_trace.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpulab::lab {

enum class Outcome {
  passed,          // every shape right
  wrong,           // ran to the end with wrong cells
  fault,           // the emulator or the lab's watcher stopped the kernel (race, access past an array, barrier...)
  crashed,         // the child process died (a signal)
  timed_out,       // ran past the time limit (an endless loop?)
  compile_error,   // did not compile or link (diagnostics)
  no_compiler,     // clang is not installed
  cancelled,
  internal_error,  // the lab itself failed (the runner is missing, ...)
};
const char* outcome_name(Outcome o);  // "passed", "wrong", ... (JSON)

struct Diagnostic {
  int line = 0;  // in the student's file; 0 = not at a line
  int column = 0;
  bool error = true;  // else a warning
  std::string message;
};

struct WrongCell {
  int row = 0, col = 0;
  double expected = 0;
  std::string got;  // the value, or "NaN"
  bool written = false;  // a thread stored to the cell
  std::array<unsigned, 3> block{}, thread{};  // the last writer, when written
};

struct ShapeCheck {
  int m = 0, n = 0, k = 0;
  bool passed = false;
};

struct LabRequest {
  std::string source;        // the file's text
  std::string display_path;  // what diagnostics call it (the file's path, or "untitled.cu")
  emu::TraceShape trace_shape{128, 128, 128};
  std::optional<std::uint64_t> seed;  // default: a fresh seed every run
  double time_limit_seconds = 20;     // CPU time for the child (checks and trace together)
  long long memory_limit_mib = 2048;
  bool trace = true;
};

struct LabReport {
  Outcome outcome = Outcome::internal_error;
  std::string reason;  // one sentence, for stderr and check.reason; empty when passed
  int line = 0;        // the kernel line the reason points at (0 = none)
  std::vector<Diagnostic> diagnostics;  // compile errors and warnings
  std::string compiler_output;          // clang's own words, whole
  std::string compiler;                 // the clang++ used
  std::uint64_t seed = 0;
  std::vector<ShapeCheck> shapes;  // the shapes checked, in order, up to the first failing one
  std::vector<WrongCell> wrong_cells;  // the first wrong cells of the failing shape
  long long wrong_count = 0;
  std::optional<emu::StepTrace> trace;  // at trace_shape, when the kernel ran to the end
  std::string trace_error;
  std::optional<Closest> closest;  // the ladder step the trace is most like
  double compile_seconds = 0, run_seconds = 0;
  bool passed() const { return outcome == Outcome::passed; }
};

struct LabProgress {
  double fraction = 0;  // 0…1
  std::string what;     // "compiling", "checking 33x33x33", "tracing 128x128x128"
};

// The shapes every check runs, in order: tiny first (fast, and where edge bugs show), then shapes that are no
// multiple of any tile with m ≠ n ≠ k.
const std::vector<ShapeCheck>& check_shapes();

// Blocking; call from a worker thread. `stop` is asked often; `progress` is called from this thread.
LabReport run_lab(const LabRequest& request, const std::function<void(const LabProgress&)>& progress = {},
                  const std::function<bool()>& stop = {});

// What to install when clang is missing (one line).
std::string compiler_install_hint();
// The clang++ the lab will use, or empty.
std::string find_clang();

}  // namespace gpulab::lab

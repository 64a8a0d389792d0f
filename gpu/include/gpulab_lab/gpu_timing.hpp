#pragma once
// The lab on a real NVIDIA GPU (issue 37): the student's file, as it is, compiled at run time with the toolkit's
// nvcc together with a timing harness that gpulab ships (gpu/lab/gpu_timing/student_timing_main.cu), and the
// executable run as a child process with a time limit: checked against cuBLAS SGEMM, then timed beside it the way
// the ladder is timed (warm-up by time, CUDA events, samples until they agree). `gpulab kernels --file F.cu --gpu`
// and the lab page's "Time on GPU" both call time_on_gpu.
//
// Why nvcc and not NVRTC: NVRTC compiles device code only. The student's file is a whole CUDA translation unit
// whose host launcher, sgemm_student, launches with <<<grid, block, shared, stream>>>; only nvcc splits such a file
// into its host and device halves and builds the launch stubs. Splitting the file ourselves (the kernels to NVRTC, the
// launcher to a host compiler with the launches rewritten) would time something other than the file the student
// wrote and would compile unchanged with nvcc anywhere.
#include "lab.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpulab::lab {

enum class GpuStatus {
  timed,          // right (checked against cuBLAS) and timed beside it
  wrong,          // ran, and C differs from cuBLAS's: not timed
  no_nvcc,        // the CUDA toolkit's nvcc was not found
  no_device,      // compiled, but the executable found no CUDA device (the reason says what CUDA answered)
  compile_error,  // nvcc refused the file (diagnostics at the student's lines) or the link failed
  crashed,        // the student's code raised a CUDA error (an illegal address, a bad launch) or the process died
  timed_out,      // ran past the time limit (an endless loop on the GPU?)
  cancelled,
  failed,         // anything else: a CUDA or cuBLAS call of the harness failed, the output was unreadable
};
const char* gpu_status_name(GpuStatus s);  // "timed", "no_device", ... (JSON)

// One side of the comparison, as the harness timed it at the report's m×n×k.
struct GpuTiming {
  double median_s = 0, min_s = 0, max_s = 0, rel_spread = 0;
  int samples = 0;
  int settling_dropped = 0;  // leading samples slower than all the agreeing ones (still warming), dropped
  int warmup_runs = 0;
  double warmup_s = 0;
  double gflops = 0;  // 2·m·n·k / median
};

struct GpuDevice {
  std::string name;                // "NVIDIA H100 80GB HBM3"
  std::string compute_capability;  // "9.0"
  int sms = 0;
  long long l2_bytes = 0;
  double memory_bytes = 0;
  int runtime_version = 0, driver_version = 0;  // 13000
};

struct GpuCheck {
  bool done = false;    // the check ran (false: the run stopped before it)
  bool passed = false;
  double max_abs_error = 0;
  double atol = 0, rtol = 0;  // |C - ref| <= atol + rtol·|ref|, atol growing with k
  long long wrong_cells = 0, nonfinite_cells = 0;
  long long first_wrong_row = -1, first_wrong_col = -1;
  double first_wrong_got = 0, first_wrong_expected = 0;
  std::string reference;  // "cuBLAS SGEMM (FP32, no TF32)"
};

struct GpuTimingRequest {
  std::string source;        // the file's text
  std::string display_path;  // what diagnostics call it
  int size = 4096;           // m = n = k asked for; the harness sizes it down when one run would be slow
  std::uint64_t seed = 42;
  double time_limit_seconds = 120;  // the executable's wall time (compiling has its own limit)
  // The device's compute capability ("9.0") when the caller knows it (the app's CUDA backend): the architecture
  // tried after -arch=native.
  std::string compute_capability_hint;
};

struct GpuTimingReport {
  GpuStatus status = GpuStatus::failed;
  std::string reason;  // one sentence; empty when timed
  int line = 0;        // a compile error's line in the student's file (0 = none)
  std::vector<Diagnostic> diagnostics;
  std::string compiler_output;  // nvcc's own words, whole
  std::string nvcc;             // the nvcc used
  std::string nvcc_version;     // "13.0.88"
  std::string nvcc_flags;       // "-O3 -arch=native -lcublas"
  std::string arch;             // "native (sm_90)", "sm_75"
  std::string arch_note;        // why not native, when not
  double compile_seconds = 0, run_seconds = 0;
  int exit_code = -1;  // the executable's (see student_timing_main.cu)
  int signal = 0;
  std::optional<GpuDevice> device;
  int m = 0, n = 0, k = 0;  // the size timed (or checked)
  std::string resized;      // why it is smaller than asked; empty when it is not
  std::uint64_t seed = 0;
  GpuCheck check;
  std::optional<GpuTiming> student, cublas;  // only when timed
  std::string method;                        // the measurement, in words
  std::string stderr_text;                   // what the executable wrote on stderr (first 4 KB)

  bool timed() const { return status == GpuStatus::timed && student && cublas; }
  // The student's GFLOP/s over cuBLAS's at the same size on the same device; 0 when not timed.
  double share_of_cublas() const;
};

// The CUDA toolkit's nvcc: GPULAB_LAB_NVCC (names it outright; tests hide it), $CUDA_PATH/bin, $CUDA_HOME/bin, PATH,
// /usr/local/cuda/bin. Empty when none.
std::string find_nvcc();
// What to do when nvcc is missing (one line).
std::string nvcc_install_hint();

// Blocking; call from a worker thread. `stop` is asked often; `progress` is called from this thread.
GpuTimingReport time_on_gpu(const GpuTimingRequest& request,
                            const std::function<void(const LabProgress&)>& progress = {},
                            const std::function<bool()>& stop = {});

// ---- The pieces, for tests -------------------------------------------------------------------------------------
// The executable's exit codes (student_timing_main.cu).
inline constexpr int kTimingExitTimed = 0, kTimingExitUsage = 2, kTimingExitNoDevice = 3, kTimingExitWrong = 4,
                     kTimingExitStudentError = 5, kTimingExitCudaError = 6;

// Reads the executable's stdout (its last line starting {"gpulab_student_timing") and how it ended into `report`:
// status, reason, device, size, check and timings. A missing line with a signal is a crash; with a timeout, out of
// time; otherwise a failure naming the exit code.
void read_timing_output(const std::string& stdout_text, int exit_code, int signal, bool timed_out,
                        GpuTimingReport& report);

// nvcc's "path(12): error: message" (its front end), "path:12:5: error: message" (the host compiler), ptxas's and
// the linker's complaints: kept when about `source_path` (reported at their line) or about no line at all (ptxas,
// the link); an undefined sgemm_student becomes "the file must define ...".
std::vector<Diagnostic> parse_nvcc_diagnostics(const std::string& output, const std::string& source_path);

// The architecture nvcc resolved -arch=native to, from a --dryrun's commands ("sm_90"); empty when none is named.
std::string arch_in_dryrun(const std::string& dryrun_output);

}  // namespace gpulab::lab

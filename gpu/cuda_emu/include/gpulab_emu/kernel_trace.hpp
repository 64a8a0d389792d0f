#pragma once
// Inside the kernel: the SGEMM ladder's own kernels run on the CPU emulator with every memory access traced
// (the kernel files compiled by clang with -fsanitize-coverage=trace-loads,trace-stores; see trace/). A warp
// request is the k-th execution of one load or store instruction by the threads of one warp (the warp is assumed
// converged there, as the ladder's kernels are at every memory instruction). Counts are exact for the emulated
// run; times are not a GPU's and none are reported.
#include "errors.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct CUstream_st;

namespace gpulab::emu {

struct TraceShape {
  int m = 128, n = 128, k = 128;  // C (m×n) = A (m×k) · B (k×n)
};

// One load or store instruction of the kernel, as seen by every warp that executed it.
struct InstructionTrace {
  std::string name;        // "load A", "load As", "store C", "store Bs #2"
  std::string array;       // "A", "B", "C" (global) or the __shared__ array's name
  bool shared = false;     // shared memory (else global)
  bool store = false;
  int access_bytes = 4;    // per thread: 4 (float), 16 (float4)
  long long requests = 0;  // warp requests
  long long thread_accesses = 0;
  long long sectors = 0;       // global: 32-byte sectors the requests touched
  long long bytes_used = 0;    // distinct bytes the requests touched
  long long wavefronts = 0;    // shared: bank wavefronts the requests needed
  long long ideal_wavefronts = 0;  // shared: what they would need without bank conflicts
  double sectors_per_request() const { return requests ? double(sectors) / requests : 0; }
  // Share of the fetched sector bytes that a thread asked for (global).
  double sector_efficiency() const { return sectors ? double(bytes_used) / (32.0 * sectors) : 0; }
  // Extra wavefronts per request caused by bank conflicts (shared; 0 = conflict-free).
  double conflicts_per_request() const { return requests ? double(wavefronts - ideal_wavefronts) / requests : 0; }
};

// For block (0,0,0): the elements the lanes of one warp touched at the first execution of one instruction.
struct WarpSample {
  int instruction = 0;  // index into StepTrace::instructions
  int warp = 0;
  std::array<std::int32_t, 32> element{};  // float index into the instruction's array; -1 = lane did not take part
};

// One event of block (0,0,0), for stepping through its k-loop: which element of which array a thread touched,
// in which barrier phase.
struct BlockEvent {
  std::uint32_t phase = 0;     // barriers passed before it
  std::uint16_t thread = 0;    // linear thread index in the block
  std::uint8_t instruction = 0;
  std::int32_t element = 0;    // float index into the instruction's array
};

struct StepTrace {
  std::string step;    // "01_naive"
  std::string kernel;  // the kernel the launcher chose, e.g. "vectorized_kernel<true>"
  TraceShape shape;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  bool check_passed = false;
  std::string check_message;
  std::vector<InstructionTrace> instructions;

  // Who computes what: for every cell of C, the block (linear index), the warp within it and the lane that wrote it.
  std::vector<std::int32_t> owner_block, owner_warp, owner_lane;
  std::vector<WarpSample> samples;
  std::vector<BlockEvent> block0_events;  // capped (see trace/ladder_trace.cpp); block0_events_dropped says how many
  long long block0_events_dropped = 0;
  long long block0_barriers = 0;

  // Totals over the instructions.
  double flops() const { return 2.0 * shape.m * shape.n * double(shape.k); }
  long long global_load_requests() const;
  long long global_load_sectors() const;
  long long global_bytes() const;         // sectors × 32, loads and stores: what the memory system is asked for
  long long shared_bytes_stored() const;  // staged into shared memory
  long long shared_bytes_loaded() const;
  long long shared_requests() const;
  long long shared_extra_wavefronts() const;
  double bytes_per_flop() const { return flops() > 0 ? double(global_bytes()) / flops() : 0; }
  // Each staged element is read this many times from shared memory (0 when nothing is staged).
  double shared_reuse() const {
    return shared_bytes_stored() ? double(shared_bytes_loaded()) / double(shared_bytes_stored()) : 0;
  }
};

// The ladder steps the tracer can run: "01_naive" … "07_warptile".
const std::vector<std::string>& traced_ladder_steps();
// The CUDA module's GEMM variant that runs the same kernel ("01_naive" → "naive", "03_shared_tiles" → "smem"): a
// GPU recording's result for that variant is this step measured on a real GPU. Empty for an unknown step.
std::string module_variant_of(const std::string& step);
// False when this build has no traced kernels (clang was not found at configure time).
bool kernel_tracing_available();
// Runs one step on random inputs of `shape`, traced, and checks C against FP64 dot products. Throws
// std::invalid_argument for an unknown step or a shape outside 1…512, KernelError for a kernel fault, and
// LaunchStopped (launch.hpp) when `stop` says so: it is asked before every block, so a cancel is answered within
// one block's time.
StepTrace trace_ladder_step(const std::string& step, const TraceShape& shape,
                            const std::function<bool()>& stop = {});

// The ladder's launcher convention: row-major C (m×n) = A (m×k) · B (k×n), device pointers.
using SgemmLauncher = void (*)(int m, int n, int k, const float* A, const float* B, float* C, CUstream_st* stream);
// trace_ladder_step for any launcher built with the access callbacks (a student's kernel, compiled at run time by
// the lab): A is filled from `seed`, B from `seed + 1` (the ladder uses 11), and `name` becomes StepTrace::step.
// Throws as trace_ladder_step does.
StepTrace trace_launcher(const std::string& name, SgemmLauncher launcher, const TraceShape& shape,
                         std::uint64_t seed, const std::function<bool()>& stop = {});

// Sees every access of a traced build before the recorder does, recorder or not (the lab's checker of a student's
// kernel: an access just past an array, a read of shared memory nobody wrote, the line a timed-out kernel was
// at). `pc` is the kernel's instruction. Per thread; returns the previous hook; nullptr removes it.
using AccessHook = void (*)(const void* address, int bytes, bool store, const void* pc);
AccessHook set_access_hook(AccessHook hook);

}  // namespace gpulab::emu

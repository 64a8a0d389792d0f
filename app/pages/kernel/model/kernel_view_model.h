#pragma once
// "Inside the kernel": what the page draws, computed from a StepTrace without Qt (tested in
// tests/app/test_kernel_view_model.cpp). The tracer (gpu/cuda_emu, kernel_trace.hpp) counts every memory access of
// the ladder's own kernels on the CPU emulator; this file turns its counts into rows of the per-step table, the owner
// of a cell, one warp request laid over its matrix (elements, 32-byte sectors, banks), a point on a roofline and
// block 0's k-loop as frames for the animation. kernel_trace.hpp includes no CUDA header, so the app may include it.
#include <gpulab_emu/kernel_trace.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::kernelview {

using emu::InstructionTrace;
using emu::StepTrace;
using emu::WarpSample;

// "01_naive" -> "01 naive", "03_shared_tiles" -> "03 shared tiles".
std::string step_label(const std::string& step);

// One row of the per-step table.
struct StepRow {
  std::string step, kernel;
  int m = 0, n = 0, k = 0;
  long long load_requests = 0;        // global load warp requests
  long long load_sectors = 0;         // 32-byte sectors those requests touched
  double sectors_per_request = 0;     // global loads
  double used_share = 0;              // global loads: bytes asked for / bytes fetched (sectors × 32)
  long long global_bytes = 0;         // sectors × 32, loads and stores
  double flops = 0;                   // 2·m·n·k
  double bytes_per_flop = 0;
  double intensity = 0;               // FLOP per byte = 1 / bytes_per_flop
  long long shared_stored = 0, shared_loaded = 0;  // bytes staged into / read out of shared memory
  double shared_reuse = 0;            // each staged byte is read this many times (0: nothing staged)
  long long shared_requests = 0, shared_extra_wavefronts = 0;
  double conflicts_per_request = 0;   // extra bank wavefronts per shared request (0 = conflict-free)
  bool check_passed = false;
  std::string check_message;
};
StepRow summarize(const StepTrace& t);
// The table as CSV (header row with units), one row per step.
std::string steps_csv(const std::vector<StepRow>& rows);

// ---- Who computes what --------------------------------------------------------------------------------------------
struct Owner {
  int block = -1;            // linear block index; -1: no thread wrote this cell
  int block_x = 0, block_y = 0;
  int warp = -1, lane = -1;  // within the block
  int thread = -1;           // linear thread index in the block (warp·32 + lane)
};
Owner owner_at(const StepTrace& t, int row, int col);
int warps_per_block(const StepTrace& t);
int block_count(const StepTrace& t);
// The cells a block wrote, as their bounding box (the block's tile of C).
struct BlockTile {
  int block = 0, block_x = 0, block_y = 0;
  int row0 = 0, col0 = 0, rows = 0, cols = 0;
};
std::vector<BlockTile> block_tiles(const StepTrace& t);
// A colour index per block (0…5) such that blocks side by side or one above the other differ.
int block_colour_index(int block_x, int block_y);

// ---- One warp's load ----------------------------------------------------------------------------------------------
// How an instruction's array is drawn: a global matrix (A m×k, B k×n, C m×n), or a shared array as rows of 32
// 4-byte words (one column per bank).
struct ArrayShape {
  std::string name;
  int rows = 0, cols = 0;
  bool shared = false;
};
ArrayShape array_shape(const StepTrace& t, const InstructionTrace& ins);

struct LaneCell {
  int lane = 0;
  int element = 0;  // the first float the lane touched
  int words = 1;    // floats it touched (4 for a 16-byte access)
  int row = 0, col = 0;
};
// A 32-byte sector as a run of cells in one row of the matrix (a sector that wraps a row gives two runs).
struct SectorRun {
  long long sector = 0;
  int row = 0, col0 = 0, cols = 0;
};
struct RequestView {
  ArrayShape shape;
  std::vector<LaneCell> lanes;     // the lanes that took part
  int access_bytes = 4;
  // global
  std::vector<SectorRun> sectors;  // every sector the request touched
  int sector_count = 0;
  long long bytes_used = 0;        // distinct bytes the lanes asked for
  double used_share = 0;           // bytes_used / (32 · sector_count)
  // shared (32 banks of 4 bytes; the bank numbers are relative to the array's start, the counts are not)
  int wavefronts = 0, ideal_wavefronts = 0;
  std::array<int, 32> words_per_bank{};  // distinct words asked of each bank (worst phase)
  // The part of the array worth drawing: the touched cells with their sectors, a little context around them.
  int row_lo = 0, row_hi = 0, col_lo = 0, col_hi = 0;  // inclusive
};
RequestView request_view(const StepTrace& t, const WarpSample& s);
// The warps of block 0 that have a sample for this instruction, in order.
std::vector<int> sample_warps(const StepTrace& t, int instruction);
const WarpSample* find_sample(const StepTrace& t, int instruction, int warp);

// ---- What it adds up to ---------------------------------------------------------------------------------------------
struct RooflinePlacement {
  double intensity = 0;        // FLOP per byte
  double attainable = 0;       // FLOP/s: min(peak, intensity × bandwidth)
  double ridge = 0;            // FLOP per byte where the two roofs meet
  bool memory_bound = false;   // left of the ridge
  double share_of_peak = 0;    // attainable / peak
};
RooflinePlacement place_on_roofline(double intensity, double peak_flops, double bandwidth_bytes_s);

// ---- Step through time: block 0's k-loop -------------------------------------------------------------------------
// Events of one barrier phase are put on a common clock: the j-th execution of an instruction by a thread happens at
// (j + 1) / (executions of it per thread in the phase) — lockstep, as a warp runs — and split into sub-steps.
struct TimelineFrame {
  int phase = 0, sub = 0, subs = 1;
  bool ends_with_barrier = false;  // the phase's last sub-step, followed by __syncthreads
  // Index ranges into BlockTimeline::touches: the touches of this frame.
  int begin = 0, end = 0;
};
enum class TouchArray : std::uint8_t { A, B, C, SharedA, SharedB, SharedOther };
struct Touch {
  TouchArray array = TouchArray::A;
  bool store = false;
  std::int32_t element = 0;  // float index; a 16-byte access is four touches
};
struct BlockTimeline {
  std::vector<TimelineFrame> frames;
  std::vector<Touch> touches;      // frame by frame, deduplicated within a frame
  std::vector<std::int32_t> c_tile;  // C cells block 0 writes (its accumulators)
  int phases = 0;
  long long barriers = 0;
  int shared_a_words = 0, shared_b_words = 0;  // the shared arrays' extent seen in the trace (floats)
  bool truncated = false;          // the tracer capped block 0's events
  // k covered when the frame has run (0…k): how far the block's accumulators have come.
  std::vector<float> k_done;       // per frame, fraction 0…1
};
// Which shared array holds A's tile and which B's ("As"/"Bs" and the like); others are SharedOther.
TouchArray shared_role(const std::string& array);
BlockTimeline block0_timeline(const StepTrace& t, int max_subs_per_phase = 8);

}  // namespace gpulab::kernelview

#pragma once
// Pieces of the CPU backend shared between its files (private: not part of gpulab's public headers).
#include "gpulab/backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gpulab::cpu {

// ---- GEMM kernels (row-major, C = A·B, A m×k, B k×n) -------------------------------------------------------------
// gemm_loops.cpp: the textbook loops.
void gemm_naive(const float* A, const float* B, float* C, long long m, long long n, long long k);
void gemm_naive(const double* A, const double* B, double* C, long long m, long long n, long long k);
void gemm_reordered(const float* A, const float* B, float* C, long long m, long long n, long long k);
void gemm_reordered(const double* A, const double* B, double* C, long long m, long long n, long long k);

// gemm_blas.cpp: OpenBLAS, when the build has it.
bool blas_available();
std::string blas_version();  // "0.3.21", or "" without OpenBLAS
std::string blas_config();   // openblas_get_config(), or ""
std::string blas_core();     // openblas_get_corename(), or ""
// threads: 0 = all cores. Throws std::runtime_error without OpenBLAS.
void gemm_blas(const float* A, const float* B, float* C, long long m, long long n, long long k, int threads);
void gemm_blas(const double* A, const double* B, double* C, long long m, long long n, long long k, int threads);

// gemm_op.cpp
std::unique_ptr<TimedOp> make_gemm_op(const GemmSpec& spec);
// bandwidth.cpp
std::unique_ptr<TimedOp> make_bandwidth_op(const BandwidthSpec& spec);
// transfer.cpp
std::unique_ptr<TimedOp> make_h2h_op(const TransferSpec& spec);

// ---- The machine (cpu_info.cpp) ----------------------------------------------------------------------------------
int logical_cores();  // cores this process may run on (affinity mask), at least 1
int resolve_threads(int requested);  // 0 -> logical_cores(); throws std::invalid_argument when negative/absurd
MemoryInfo read_meminfo();
// Throws std::invalid_argument naming `what` and the sizes when `bytes` would not fit comfortably in RAM.
void require_fits_in_memory(double bytes, const std::string& what);
DeviceInfo read_device_info();  // everything except the measured peaks
Provenance cpu_provenance();
// The datasheet-style model: cores x clock x SIMD lanes x 2 FLOPs per FMA x 2 FMA pipes per core.
struct PeakModel {
  double gflops_fp32 = 0;
  double gflops_fp64 = 0;
  std::string formula;  // spelled out for the details list
};
PeakModel peak_model(double clock_mhz, int cores);

// ---- FMA peak (fma_peak.cpp) -------------------------------------------------------------------------------------
struct FmaPeak {
  double gflops_fp32 = 0;  // the peak in use: best burst, or a faster rate the app measured (floor)
  double gflops_fp64 = 0;
  int threads = 0;
  std::string isa;  // which code path ran: "AVX2+FMA (x86-64-v3)" or "baseline x86-64 (SSE2, no FMA)"
  std::vector<double> bursts_fp32, bursts_fp64;  // every burst's GFLOP/s, in the order taken
  int retakes = 0;                               // times more bursts were taken on a quiet machine
  double floor_fp32 = 0, floor_fp64 = 0;         // a rate measured here above every burst (0 = none)
  std::string floor_source_fp32, floor_source_fp64;
  // A busy start-up reads every burst low and alike, so agreement within the start-up set proves nothing: the peak
  // is settled once a later set of bursts agrees with any set before it (settle_fma_peak).
  bool settled = false;
  int sets = 0;                // sets of bursts taken (the start-up set is the first)
  std::string best_taken_at;   // when the best FP32 burst was taken: "16:47:03 UTC"
  double best_taken_s = 0;     // ...seconds after the start-up set
};
// The best of several short all-thread bursts (five at first use, ~0.2 s), each rated per CPU-second of its threads
// so a busy moment cannot halve it; a copy, safe from any thread.
FmaPeak measured_fma_peak();
// Takes `bursts` more bursts when the machine is quiet (other programs under a quarter of a core for 100 ms), at
// most every 20 s; returns whether it did. The peak only ever rises.
bool retake_fma_peak_if_quiet(int bursts = 3);
// One more set of `bursts` bursts now (at most 40 sets in all); returns the peak after it. For a caller that
// re-measures in the background until two sets agree (and, past that, until it believes what they say).
FmaPeak settle_fma_peak(int bursts = 3);
// A rate the app measured (a BLAS GEMM) above the bursts' best becomes the peak, with `what` saying so.
void raise_fma_peak_floor(double gflops, bool fp64, const std::string& what);
// The same bursts as one checked, timed op (roofs_ops.cpp, experiment "peak"): iterations for about `target_s`
// of one thread's CPU time, and one all-thread burst with the chains' sum beside the host's closed form.
struct FmaBurstResult {
  double flops = 0;           // all threads together
  double wall_s = 0;
  double cpu_rate_flops = 0;  // FLOP/s counted in each thread's own CPU time (fma_peak.cpp: timed_parallel)
  double sum = 0, expected = 0;
  long long iters = 0;
  int threads = 0, chains = 0, lanes = 0;
  std::string isa;
};
long long fma_iterations_for(bool fp64, double target_s);
FmaBurstResult fma_burst(bool fp64, long long iters, int threads);

// ---- The overhead floor (roofs_ops.cpp) --------------------------------------------------------------------------
std::unique_ptr<TimedOp> make_fma_peak_op(const PeakSpec& spec);
std::unique_ptr<TimedOp> make_overhead_op(const OverheadSpec& spec);
// The issue rate (launch_rate.cpp): tiny tasks issued back to back into a worker's queue, one wait at the end.
std::unique_ptr<TimedOp> make_launch_overhead_op(const LaunchOverheadSpec& spec);

}  // namespace gpulab::cpu

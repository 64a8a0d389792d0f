#pragma once
// `gpulab bench --suite matmul`: the matrix-multiply page's default (every way at the lesson's 60³) and, on a real
// GPU, its kernel ladder and library at sizes where the GPU's work, not the launch, is what is timed. Its
// suite is registered in plans/matmul.cpp; the page itself keeps building matmul_plan.
#include "plans/matmul.hpp"

#include <string>
#include <vector>

namespace gpulab {

// The size the suite runs each GPU way at: kMatmulGpuN³, halved (not below kMatmulGpuMinN) while the way's
// guessed single run would take longer than kMatmulGpuMaxRunS, so the naive steps stay seconds, not minutes.
inline constexpr long long kMatmulGpuN = 4096;
inline constexpr long long kMatmulGpuMinN = 1024;
inline constexpr double kMatmulGpuMaxRunS = 0.25;
// The library (cuBLAS) also runs at this size: the FP32 figure the roofline and the lesson quote.
inline constexpr long long kMatmulGpuLibraryN = 8192;

struct MatmulGpuJob {
  MatmulWay way;
  long long n = 0;          // the square size chosen
  double guessed_run_s = 0; // at that size, from the way's guessed rate
};
// The GPU jobs the suite adds on `backends.gpu` (none without a GPU, or when the GPU slot holds a CPU-type
// device such as lavapipe: those keep the page's sizes).
std::vector<MatmulGpuJob> matmul_gpu_suite_jobs(const Backends& backends);
Plan matmul_suite_plan(const Backends& backends);

// A rough single-run rate for ways not measured yet (plans/matmul.cpp), in GFLOP/s.
double matmul_guess_gflops(const MatmulWay& w, double naive_gflops);

}  // namespace gpulab

#pragma once
// The CSV behind the matrix-multiply bars: one row per bar (measured here or recorded), with its source, its
// rate's spread over the samples, the speed-up over the naive loop measured here, and its check. Qt-free.
#include "gpulab/results.hpp"

#include <string>
#include <vector>

namespace gpulab::models {

struct GemmBarRow {
  std::string name;    // the row's label ("CPU BLAS, 2 threads")
  int threads = -1;    // CPU BLAS: 1 or 0 (all); -1 otherwise
  std::string source;  // "measured here" or the recording's label
  const Result* result = nullptr;
};

// `naive_gflops`: the naive loop measured here at this size (0: none), for the speed-up column of measured rows.
std::string gemm_bars_csv(const std::vector<GemmBarRow>& rows, double naive_gflops);

}  // namespace gpulab::models

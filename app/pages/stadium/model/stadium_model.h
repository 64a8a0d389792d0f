#pragma once
// Where the stadium's pace comes from, without Qt: for each source (measured here, then each recording) the
// professor is the CPU's naive loop and the stadium the best parallel run — BLAS on every CPU core, and the
// chosen GPU's best GEMM (cuBLAS on CUDA, the top shader of the Vulkan ladder). Read through typed GEMM views of
// the stadium plan only (a recording from before plans: its naive loop, all-core BLAS and cuBLAS, as then).
#include "models/sourced_result.h"
#include "gpulab/results.hpp"

#include <string>
#include <vector>

namespace stadium_model {

inline constexpr double kDIn = 4096;               // every cell is a dot product of this length (the lesson's layer)
inline constexpr double kFlopsPerCell = 2 * kDIn;  // one multiply and one add per term
inline constexpr double kReferenceStudents = 4096;  // a measured parallel rate = this many students working at once

enum class Api { cpu, cuda, vulkan, other };
struct Run {
  Api api = Api::cpu;
  bool library = false;  // a vendor library (OpenBLAS, cuBLAS), not one of gpulab's own loops or shaders
  long long n = 0;  // the GEMM was n³ (or m×n×k; n is what the label shows)
  double gflops = 0;
  std::string backend, variant, device;
  bool cpuDevice = false;  // a CPU-type device behind a GPU API (lavapipe): never called a GPU
};

struct Pace {
  int source = -1;  // -1 measured here, else the recording's index
  enum class Stadium { cpuBlas, gpu } stadium = Stadium::cpuBlas;
  Run professor, crowd;
  double professorCellS() const { return kFlopsPerCell / (professor.gflops * 1e9); }
  double studentCellS() const { return kReferenceStudents * kFlopsPerCell / (crowd.gflops * 1e9); }
};

using Input = SourcedResult;  // models/sourced_result.h
// Per source in order (-1, then 0 … recordings-1): the CPU stadium, then the GPU one, each where measured.
std::vector<Pace> paces(const std::vector<Input>& results, int recordings);

}  // namespace stadium_model

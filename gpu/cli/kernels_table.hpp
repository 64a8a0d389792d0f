#pragma once
// `gpulab kernels`' table, shared by the ladder's rows (kernels.cpp) and a student's file (kernels_file.cpp).
#include <gpulab_emu/kernel_trace.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gpulab {

void print_kernels_header(const emu::TraceShape& shape);
void print_kernels_row(const std::string& name, const emu::StepTrace& trace);

struct KernelsFileOptions {
  std::string file;
  std::optional<std::uint64_t> seed;
  double time_limit_seconds = 20;
  bool gpu = false;      // --gpu: also compiled with nvcc and timed beside cuBLAS on the GPU
  int gpu_size = 4096;   // --gpu-size: m = n = k asked of the GPU timing
};
// `kernels --file`: exit 0 right, 1 wrong / crashed / out of time, 2 does not compile; with --gpu also 1 when the
// GPU run is wrong or fails, 2 when nvcc refuses the file, 3 when there is no nvcc or no CUDA device.
int cli_kernels_file(const KernelsFileOptions& options, const emu::TraceShape& shape, bool json_out);

}  // namespace gpulab

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
};
// `kernels --file`: exit 0 right, 1 wrong / crashed / out of time, 2 does not compile.
int cli_kernels_file(const KernelsFileOptions& options, const emu::TraceShape& shape, bool json_out);

}  // namespace gpulab

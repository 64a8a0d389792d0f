#pragma once
// Each verb's option table, from the file of its parser (internal to gpu/cli; cli.hpp's cli_option_tables joins them).
#include "gpulab/cli.hpp"

#include <vector>

namespace gpulab {

std::vector<VerbOptions> calc_option_tables();  // calc.cpp: one table per calculation
VerbOptions bench_option_table();               // bench.cpp
VerbOptions kernels_option_table();             // kernels.cpp
VerbOptions devices_option_table();             // devices.cpp

}  // namespace gpulab

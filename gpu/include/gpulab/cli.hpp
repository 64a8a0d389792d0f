#pragma once
// The command-line verbs shared by `gpulab` (the Qt app) and `gpulab-bench` (Qt-free). Each takes the words
// after the verb, prints to stdout/stderr, and returns the process exit code (0 ok, 2 bad usage, 1 failure).
// None of them throws: bad input becomes a message and a non-zero code.
#include "gpulab/harness.hpp"

#include <string>
#include <vector>

namespace gpulab {

using Args = std::vector<std::string>;

// gpulab bench [--suite NAME] --out FILE.json [--list] [--quiet]: runs a suite headless, progress on stderr.
int cli_bench(const Args& args);
// gpulab devices [--json]: the CPU, the GPU (or why there is none) and the module that was tried.
int cli_devices(const Args& args);
// gpulab calc vram|decode|amdahl ...: the models, from the command line.
int cli_calc(const Args& args);
// The ladder's kernels traced on the CPU emulator: per-step sectors, bytes per FLOP, bank conflicts.
int cli_kernels(const Args& args);
// gpulab plan --card NAME: each suite's estimated time on a catalogue card (plan_estimate.hpp); runs nothing.
int cli_plan(const Args& args);

// The version line printed by --version is gpulab::version_string(), in gpulab/harness.hpp (provenance).

}  // namespace gpulab

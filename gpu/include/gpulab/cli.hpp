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

// Every option a verb takes, from the verb's own parser table: the option walk (tests/unit/
// test_cli_option_walk.cpp) runs each of them, so an option added later is walked without anyone listing it there.
struct VerbOptions {
  Args verb;                          // the words before the options: {"calc", "vram"}, {"kernels"}
  std::vector<std::string> valued;    // --name VALUE
  std::vector<std::string> switches;  // --name
  std::string usage;                  // the verb's help text (it names the values an option takes: qv|qkvo|all)
};
std::vector<VerbOptions> cli_option_tables();
// Runs a verb from its words ({"calc", "vram", "--model", "llama-3-8b"}), as `gpulab calc vram ...` does.
int cli_run(const Args& words);

// The version line printed by --version is gpulab::version_string(), in gpulab/harness.hpp (provenance).

}  // namespace gpulab

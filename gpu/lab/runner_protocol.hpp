#pragma once
// Reads what the runner (runner/runner_main.cpp) writes, line by line, into what the lab reports.
#include "gpulab_lab/lab.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpulab::lab {

struct FatalLine {
  std::string what;  // SIGSEGV, ..., "timeout"
  std::uintptr_t pc = 0, last = 0, address = 0;  // pc, last: offsets in the student's library (0 = not in it)
  int shape = -1, launch_line = 0;
  std::array<unsigned, 3> block{}, thread{};
};

struct RunnerOutput {
  std::vector<nlohmann::json> checks;  // "@gpulab check" bodies, in order
  std::optional<nlohmann::json> trace;
  std::optional<nlohmann::json> trace_error;
  std::optional<std::string> load_error;
  std::optional<FatalLine> fatal;
  bool done = false;
  std::string other_output;  // what the student's code printed (capped)
};

// Takes one line; returns a progress fraction when the line was a progress report.
std::optional<std::pair<double, std::string>> take_runner_line(const std::string& line, RunnerOutput& out);

}  // namespace gpulab::lab

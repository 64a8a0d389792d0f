#pragma once
// Runs a program as a child process and waits for it with a wall-clock limit and a stop request, reading its
// output as it comes: the lab's compiler and the runner that executes a student's kernel. The child gets its own
// process group, so a timeout or a cancel ends it with everything it started (clang's linker).
#include <functional>
#include <string>
#include <vector>

namespace gpulab::lab {

struct ChildLimits {
  double wall_seconds = 30;               // then SIGKILL
  std::function<bool()> stop;             // asked about every 0.1 s; true ends the child
  std::function<void(const std::string&)> on_stdout_line;  // each complete line of stdout, as it arrives
};

struct ChildResult {
  bool started = false;     // false: the program could not be run (error says why)
  std::string error;
  int exit_code = -1;       // when it exited
  int signal = 0;           // when a signal ended it (SIGKILL after a timeout or a stop)
  bool timed_out = false;
  bool stopped = false;
  std::string out, err;     // everything it wrote (stdout also line by line through on_stdout_line)
  double seconds = 0;
};

// argv[0] is the program (a path, or a name looked up on PATH).
ChildResult run_child(const std::vector<std::string>& argv, const ChildLimits& limits);

// The first of `names` found on PATH (or given as an absolute path that exists), else empty.
std::string find_program(const std::vector<std::string>& names);

// The signal's name ("SIGSEGV") for reports.
std::string signal_name(int signal);

}  // namespace gpulab::lab

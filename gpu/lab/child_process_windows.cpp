// Windows: the lab's child process is not built. The kernels it would run need the CPU emulator, whose fibers are
// Linux-only (gpulab/platform.hpp), so `kernels --file` says so instead of starting anything.
#include "child_process.hpp"

namespace gpulab::lab {

ChildResult run_child(const std::vector<std::string>&, const ChildLimits&) {
  ChildResult r;
  r.error = "the lab runs a student's kernel on the CPU emulator, which is built for Linux only (use WSL2 on Windows)";
  return r;
}

// No compiler is looked for: without the emulator there is nothing to compile for.
std::string find_program(const std::vector<std::string>&) { return {}; }

std::string signal_name(int signal) { return "signal " + std::to_string(signal); }

}  // namespace gpulab::lab

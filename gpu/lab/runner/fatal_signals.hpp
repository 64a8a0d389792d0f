#pragma once
// The runner's last words: a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or its own limit of CPU time (SIGPROF)
// writes one line to stdout, with only async-signal-safe calls, and ends the process:
//   fatal <what> pc=<hex offset in the student's library or 0> last=<hex offset of the last traced access or 0>
//         addr=<hex fault address> shape=<index> line=<launch line> block=x,y,z thread=x,y,z
// The parent (lab_engine.cpp) turns the offsets into the kernel's lines.
#include <cstdint>

namespace gpulab::lab {

struct FatalContext {
  std::uintptr_t library_base = 0;  // the student's library: pcs inside it are reported as offsets
  std::uintptr_t library_end = 0;
  volatile int shape = -1;          // which check is running (-1 before the first, the trace after them)
  volatile int launch_line = 0;     // the line of the launch that is running
};
extern FatalContext g_fatal;

// Installs the handlers on an alternate stack (a fiber's stack may be what overflowed) and arms the time limit.
void install_fatal_handlers(double time_limit_seconds);

}  // namespace gpulab::lab

#include "fatal_signals.hpp"

#include "access_watch.hpp"

#include <gpulab_emu/builtins.hpp>

#include <signal.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdlib>

namespace gpulab::lab {

FatalContext g_fatal;

namespace {

// Async-signal-safe output: a fixed buffer, no allocation.
struct Line {
  char text[512];
  int used = 0;
  void put(const char* s) {
    while (*s && used < static_cast<int>(sizeof text) - 2) text[used++] = *s++;
  }
  void put_hex(std::uintptr_t v) {
    char digits[20];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v && n < 20);
    put("0x");
    while (n > 0 && used < static_cast<int>(sizeof text) - 2) text[used++] = digits[--n];
  }
  void put_int(long long v) {
    if (v < 0) {
      put("-");
      v = -v;
    }
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v && n < 24);
    while (n > 0 && used < static_cast<int>(sizeof text) - 2) text[used++] = digits[--n];
  }
  void put_triple(unsigned x, unsigned y, unsigned z) {
    put_int(x);
    put(",");
    put_int(y);
    put(",");
    put_int(z);
  }
  void finish() {
    text[used++] = '\n';
    ssize_t left = used;
    const char* p = text;
    while (left > 0) {
      const ssize_t n = ::write(1, p, static_cast<std::size_t>(left));
      if (n <= 0) break;
      p += n;
      left -= n;
    }
  }
};

std::uintptr_t offset_in_library(std::uintptr_t pc) {
  return pc >= g_fatal.library_base && pc < g_fatal.library_end ? pc - g_fatal.library_base : 0;
}

void on_fatal(int signal, siginfo_t* info, void* context) {
  Line line;
  line.put("fatal ");
  switch (signal) {
    case SIGSEGV: line.put("SIGSEGV"); break;
    case SIGBUS: line.put("SIGBUS"); break;
    case SIGFPE: line.put("SIGFPE"); break;
    case SIGILL: line.put("SIGILL"); break;
    case SIGABRT: line.put("SIGABRT"); break;
    case SIGPROF: line.put("timeout"); break;
    case SIGXCPU: line.put("timeout"); break;
    default: line.put("signal"); break;
  }
  std::uintptr_t pc = 0;
#if defined(__x86_64__)
  if (context) pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  if (context) pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
#endif
  line.put(" pc=");
  line.put_hex(offset_in_library(pc));
  line.put(" last=");
  line.put_hex(offset_in_library(reinterpret_cast<std::uintptr_t>(g_last_access.pc)));
  line.put(" addr=");
  line.put_hex(signal == SIGPROF || signal == SIGXCPU || !info ? 0 : reinterpret_cast<std::uintptr_t>(info->si_addr));
  line.put(" shape=");
  line.put_int(g_fatal.shape);
  line.put(" line=");
  line.put_int(g_fatal.launch_line);
  line.put(" block=");
  line.put_triple(blockIdx.x, blockIdx.y, blockIdx.z);
  line.put(" thread=");
  line.put_triple(threadIdx.x, threadIdx.y, threadIdx.z);
  line.finish();
  ::_exit(3);
}

}  // namespace

void install_fatal_handlers(double time_limit_seconds) {
  static char alternate_stack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = alternate_stack;
  ss.ss_size = sizeof alternate_stack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction action {};
  action.sa_sigaction = &on_fatal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPROF, SIGXCPU}) ::sigaction(s, &action, nullptr);
  itimerval timer{};
  timer.it_value.tv_sec = static_cast<long>(time_limit_seconds);
  timer.it_value.tv_usec = static_cast<long>((time_limit_seconds - static_cast<double>(timer.it_value.tv_sec)) * 1e6);
  // CPU time, not wall time: on a busy machine (a class's shared server, a laptop compiling) a right kernel is
  // not cut short; an endless loop burns CPU and is stopped all the same.
  ::setitimer(ITIMER_PROF, &timer, nullptr);
}

}  // namespace gpulab::lab

// Stop signals on Linux (gpulab/platform.hpp): SIGINT (Ctrl+C) and SIGTERM (`timeout`, a batch system, a shutdown).
#include "gpulab/platform.hpp"

#include <csignal>
#include <unistd.h>

#include <atomic>

namespace gpulab::platform {
namespace {

std::atomic<StopHandler> g_handler{nullptr};
static_assert(std::atomic<StopHandler>::is_always_lock_free, "read inside a signal handler");

extern "C" void forward_stop_signal(int signo) {
  if (StopHandler h = g_handler.load()) h(signo == SIGINT ? StopSignal::interrupt : StopSignal::terminate);
}

}  // namespace

struct StopSignalScope::Previous {
  struct sigaction on_int {}, on_term {};
  StopHandler handler = nullptr;
};

StopSignalScope::StopSignalScope(StopHandler handler) : m_previous(std::make_unique<Previous>()) {
  m_previous->handler = g_handler.exchange(handler);
  struct sigaction action {};
  action.sa_handler = forward_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a signal must not turn a read, write or fsync into a spurious failure
  ::sigaction(SIGINT, &action, &m_previous->on_int);
  ::sigaction(SIGTERM, &action, &m_previous->on_term);
}

StopSignalScope::~StopSignalScope() {
  ::sigaction(SIGINT, &m_previous->on_int, nullptr);
  ::sigaction(SIGTERM, &m_previous->on_term, nullptr);
  g_handler.store(m_previous->handler);
}

std::string stop_signal_name(StopSignal signal) {
  switch (signal) {
    case StopSignal::interrupt: return "SIGINT";
    case StopSignal::terminate: return "SIGTERM";
    case StopSignal::none: break;
  }
  return "no signal";
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace gpulab::platform

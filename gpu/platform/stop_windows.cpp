// Stop signals on Windows (gpulab/platform.hpp): the console's control handler. Windows calls it on a thread of its
// own for Ctrl+C, Ctrl+Break and closing the console window; returning TRUE keeps the process alive, so the run
// stops at its next check and saves what it measured (a console being closed gives it about 5 s for that).
#include "gpulab/platform.hpp"
#include "windows_text.hpp"

#include <io.h>

#include <atomic>
#include <cstdio>

namespace gpulab::platform {
namespace {

std::atomic<StopHandler> g_handler{nullptr};

BOOL WINAPI forward_console_control(DWORD event) {
  StopHandler h = g_handler.load();
  if (!h) return FALSE;  // the next handler (by default: end the process)
  h(event == CTRL_C_EVENT ? StopSignal::interrupt : StopSignal::terminate);
  return TRUE;
}

}  // namespace

struct StopSignalScope::Previous {
  StopHandler handler = nullptr;
};

StopSignalScope::StopSignalScope(StopHandler handler) : m_previous(std::make_unique<Previous>()) {
  m_previous->handler = g_handler.exchange(handler);
  // A process started with Ctrl+C ignored (CREATE_NEW_PROCESS_GROUP) must get it back to be stoppable.
  ::SetConsoleCtrlHandler(nullptr, FALSE);
  ::SetConsoleCtrlHandler(forward_console_control, TRUE);
}

StopSignalScope::~StopSignalScope() {
  ::SetConsoleCtrlHandler(forward_console_control, FALSE);
  g_handler.store(m_previous->handler);
}

std::string stop_signal_name(StopSignal signal) {
  switch (signal) {
    case StopSignal::interrupt: return "Ctrl+C";
    case StopSignal::terminate: return "Ctrl+Break or closing the console";
    case StopSignal::none: break;
  }
  return "no signal";
}

bool stderr_is_terminal() { return ::_isatty(::_fileno(stderr)) != 0; }

}  // namespace gpulab::platform

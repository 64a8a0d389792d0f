#pragma once
// What differs between operating systems, in one place: loading a library, CPU and memory facts, the clock,
// thread affinity, stop signals, durable file replacement. Linux (gpu/platform/*_linux.cpp) and Windows
// (gpu/platform/*_windows.cpp) implement these same functions side by side; CMake compiles one set. Nothing else in
// gpu/ or app/ includes a POSIX or Windows header: tests/platform/check_platform_includes.py fails CI when one does.
//
// Linux-only by design, and the one exception that check allows: the CUDA emulator (gpu/cuda_emu/), whose blocks
// run their threads as ucontext fibers and whose kernel tracer finds symbols through the ELF program headers. It
// serves the tests and the "inside the kernel" page; a Windows build leaves it out (kernel tracing then says it is
// not in this build). Porting it means Windows fibers (CreateFiber/SwitchToFiber) behind the same scheduler.
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <ctime>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpulab::platform {

// ---- Run-time libraries (the CUDA and Vulkan modules, the Vulkan loader) ------------------------------------------
extern const char* const vulkan_loader_library;  // "libvulkan.so.1" on Linux, "vulkan-1.dll" on Windows
// The file a module called `stem` is built as: "libgpulab_vulkan.so" on Linux, "libgpulab_vulkan.dll" on Windows.
std::string module_file_name(const std::string& stem);
// Opens a library now, resolving every symbol (a missing dependency fails here, with a message, not at a call).
// share_symbols: its symbols may satisfy libraries opened later (Linux RTLD_GLOBAL; on Windows a DLL loaded once is
// found by name by every later import of it anyway). nullptr on failure: library_error() says why.
void* open_library(const std::string& path, bool share_symbols);
void* library_symbol(void* library, const char* name);  // nullptr when missing: library_error() says why
void close_library(void* library);
std::string library_error();  // the last failure of open_library / library_symbol on this thread
// nullopt when `path` looks like a complete shared library for this machine (ELF on Linux, PE on Windows);
// otherwise what is wrong. Checked before opening: a library cut short crashes the Linux loader (SIGBUS).
std::optional<std::string> library_file_problem(const std::string& path);
// The folder holding the running executable, with '/' separators; "" when it cannot be found.
std::string executable_folder();
// WSL2 keeps the Windows driver's libcuda.so.1 (and nvidia-smi) in /usr/lib/wsl/lib ($GPULAB_WSL_LIB_DIR overrides
// it, for tests), which the dynamic linker does not always search. When libcuda.so.1 cannot be opened by name but
// is there, it is opened from there with its symbols shared, so the CUDA runtime inside the module finds it already
// loaded. Returns the path opened that way, or "" (not WSL, or the driver was found by name; always "" on Windows).
std::string open_cuda_driver_from_wsl();

// ---- The machine: CPU, memory, this process ------------------------------------------------------------------------
std::string cpu_model_name();  // "" when unknown
double cpu_clock_mhz();        // the rated maximum where the OS says it, else the current clock; 0 when unknown
// Intel's AMX-BF16 matrix tiles (CPUID leaf 7, EDX bit 22); false off x86. Here, not beside the other SIMD flags'
// __builtin_cpu_supports: clang 14 and 15 reject "amx-bf16" there at compile time, and reading CPUID takes a
// compiler's or an OS's header (<cpuid.h>, MSVC's <intrin.h>).
bool cpu_has_amx_bf16();
// One entry per cache of the first CPU, ("L1d cache", "48K (shared by CPUs 0,8)"); empty when unknown.
std::vector<std::pair<std::string, std::string>> cpu_caches();
// The logical CPUs this process may run on (its affinity mask: a container, taskset or a Windows job may give it
// fewer than the machine has); 0 when unknown.
int usable_logical_cores();
struct MemoryFacts {
  double total_bytes = 0;
  double available_bytes = 0;  // what can be had without swapping (MemAvailable / ullAvailPhys)
};
MemoryFacts memory_facts();
double process_resident_bytes();  // 0 when unknown
// Gives a large block's pages back to the OS a piece at a time, just before the block is freed. Freeing a block of
// hundreds of MB unmaps it in one system call that holds the process's address-space lock for its whole length
// (~0.25 ms per MiB on a busy VM): any other thread that maps memory meanwhile, such as the GUI thread painting,
// waits (the decode page froze for 150-270 ms after each chain run). Pieces of 16 MiB keep each wait short, and
// the free that follows has nothing left to unmap. Blocks under 64 MiB are left alone. Linux: madvise
// (MADV_DONTNEED); Windows: nothing yet. The block's contents are gone afterwards.
void release_pages_before_free(void* data, std::size_t bytes);
double process_cpu_seconds();     // user + system time of this process so far; -1 when unknown
// The calling thread's own CPU time (CLOCK_THREAD_CPUTIME_ID on Linux, nanoseconds; GetThreadTimes on Windows,
// which advances by scheduler ticks of about 15.6 ms: good for bursts of a second, not for short ones); 0 if unknown.
double thread_cpu_seconds();
double cpu_time_ticks_per_second();  // the unit of /proc/stat's counters on Linux; 0 where there are none
std::string host_name();          // "unknown" when it cannot be read
std::string os_description();     // "Linux 6.1.0-18-amd64 x86_64", "Windows 10.0.19045 x86_64"
std::tm utc_calendar(std::time_t t);

// ---- The clock ----------------------------------------------------------------------------------------------------
// Every measurement is timed with std::chrono::steady_clock: monotonic, and high-resolution on both systems
// (clock_gettime(CLOCK_MONOTONIC) on Linux; QueryPerformanceCounter on Windows, through MinGW's winpthreads or
// MSVC's library). This names what backs it, for provenance.
using Clock = std::chrono::steady_clock;
static_assert(Clock::is_steady, "measurements need a clock that never steps back");
std::string clock_description();

// ---- Threads ------------------------------------------------------------------------------------------------------
// A barrier for a fixed team of threads (arrive_and_wait only). std::barrier on Linux, where libstdc++ waits on a
// futex. MinGW's libstdc++ 12 has no futex and its fallback for atomic waits loses wake-ups: std::barrier there hung
// the CPU bandwidth pool under Wine within seconds (2 of 3 quick suites). A mutex and a condition variable instead.
#ifdef _WIN32
class ThreadBarrier {
 public:
  explicit ThreadBarrier(std::ptrdiff_t count) : m_count(count), m_waiting(0) {}
  void arrive_and_wait() {
    std::unique_lock lock(m_mutex);
    const unsigned long long phase = m_phase;
    if (++m_waiting == m_count) {
      m_waiting = 0;
      ++m_phase;
      m_all_arrived.notify_all();
      return;
    }
    m_all_arrived.wait(lock, [&] { return m_phase != phase; });
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_all_arrived;
  const std::ptrdiff_t m_count;
  std::ptrdiff_t m_waiting;
  unsigned long long m_phase = 0;
};
#else
using ThreadBarrier = std::barrier<>;
#endif

// ---- Stop signals -------------------------------------------------------------------------------------------------
enum class StopSignal : int { none = 0, interrupt = 1, terminate = 2 };
// Runs inside a signal handler (Linux) or on a thread the console creates (Windows): it may only touch lock-free
// atomics and call std::_Exit.
using StopHandler = void (*)(StopSignal);
// Sends Ctrl+C and termination requests (SIGINT, SIGTERM on Linux; Ctrl+C, Ctrl+Break and closing the console on
// Windows) to `handler` for its lifetime, instead of ending the process; restores what was there before when it
// ends. System calls interrupted by a signal are restarted.
class StopSignalScope {
 public:
  explicit StopSignalScope(StopHandler handler);
  ~StopSignalScope();
  StopSignalScope(const StopSignalScope&) = delete;
  StopSignalScope& operator=(const StopSignalScope&) = delete;

 private:
  struct Previous;
  std::unique_ptr<Previous> m_previous;
};
// "SIGINT" / "SIGTERM" on Linux; "Ctrl+C" / "Ctrl+Break or closing the console" on Windows.
std::string stop_signal_name(StopSignal signal);
bool stderr_is_terminal();

// ---- Files --------------------------------------------------------------------------------------------------------
// Writes `bytes` to a new temporary file beside `path`, flushes it to disk, and renames it over `path` (atomic within
// one file system), so a reader, a crash or a full disk never sees half a file. Throws std::runtime_error
// "cannot write <path>: <what failed>: <the system's reason>"; leaves no temporary file behind.
void replace_file_durably(const std::string& path, const std::string& bytes);
// Creates and removes a file beside `path`, as replace_file_durably will; the reason when that is impossible.
std::optional<std::string> cannot_create_file_beside(const std::string& path);

}  // namespace gpulab::platform

// The simulated device behaviour (device_behaviour.hpp): a clock that ramps from idle to boost, first-launch costs,
// a sticky fault, and the host memory the module sees. The work itself runs at the emulator's own speed; the ramp
// makes it take longer by sleeping the difference inside the launch, so a host clock around the launch and the
// emulated events (host timestamps) both see the slower device, as they would on a GPU.
#include "device_behaviour.hpp"
#include <gpulab_emu/simulated_clock.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace gpulab::emu {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kModuleLoadS = 0.030;  // context creation and module load at the first launch
constexpr double kKernelLoadS = 0.002;  // lazy loading (CUDA_MODULE_LOADING=LAZY) of each kernel at its first launch
constexpr int kStickyError = 700;       // cudaErrorIllegalAddress

struct Settings {
  bool ramp = false;
  long long fault_at = 0;  // 0: never
  std::optional<double> host_bytes;
};

void warn(const char* name, const char* value, const char* meaning) {
  std::fprintf(stderr, "gpulab emulator: %s=\"%s\" is not understood (%s); ignored\n", name, value, meaning);
}

Settings read_settings() {
  Settings s;
  if (const char* v = std::getenv("GPULAB_EMU_CLOCK"); v && *v) {
    if (std::strcmp(v, "ramp") == 0) s.ramp = true;
    else if (std::strcmp(v, "steady") != 0) warn("GPULAB_EMU_CLOCK", v, "ramp or steady");
  }
  if (const char* v = std::getenv("GPULAB_EMU_FAULT"); v && *v) {
    constexpr const char* prefix = "sticky-after:";
    char* end = nullptr;
    const long long n = std::strncmp(v, prefix, std::strlen(prefix)) == 0
                            ? std::strtoll(v + std::strlen(prefix), &end, 10) : 0;
    if (n >= 1 && end && *end == '\0') s.fault_at = n;
    else warn("GPULAB_EMU_FAULT", v, "sticky-after:N, N >= 1");
  }
  if (const char* v = std::getenv("GPULAB_EMU_HOST_MEM_MB"); v && *v) {
    char* end = nullptr;
    const double mb = std::strtod(v, &end);
    if (end && *end == '\0' && std::isfinite(mb) && mb >= 0) s.host_bytes = mb * 1024.0 * 1024.0;
    else warn("GPULAB_EMU_HOST_MEM_MB", v, "a number of MiB");
  }
  return s;
}

const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

std::atomic<long long> g_launches{0};
std::atomic<int> g_sticky{0};

// The clock (simulated_clock.hpp, driven by the host's steady clock) and what has been loaded.
struct ClockState {
  std::mutex mutex;
  SimulatedClock clock;
  bool loaded = false;
  std::set<const void*> loaded_kernels;
};
ClockState& clock_state() {
  static ClockState s;
  return s;
}

// Sleeps most of a wait and spins the rest: a plain sleep overshoots by tens of microseconds, as much as a small
// kernel's whole time.
void wait_for(double seconds) {
  if (!(seconds > 0)) return;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  if (seconds > 0.002) std::this_thread::sleep_until(until - std::chrono::microseconds(500));
  while (Clock::now() < until) {
  }
}

}  // namespace

int begin_launch() {
  if (const int e = g_sticky.load()) return e;
  const long long n = ++g_launches;
  const long long at = settings().fault_at;
  if (at > 0 && n >= at) {
    int none = 0;
    g_sticky.compare_exchange_strong(none, kStickyError);
    return g_sticky.load();
  }
  return 0;
}

int sticky_fault() { return g_sticky.load(); }

DeviceWork::DeviceWork(const void* key) {
  if (!settings().ramp) return;
  m_active = true;
  ClockState& s = clock_state();
  double load_s = 0;
  {
    const std::lock_guard lock(s.mutex);
    if (!s.loaded) {
      s.loaded = true;
      load_s += kModuleLoadS;
    }
    if (s.loaded_kernels.insert(key).second) load_s += kKernelLoadS;
  }
  wait_for(load_s);  // host-side delay before the work starts: a GPU's clock does not ramp on it
  m_start = Clock::now();
}

DeviceWork::~DeviceWork() {
  if (!m_active) return;
  const double work_s = std::chrono::duration<double>(Clock::now() - m_start).count();
  ClockState& s = clock_state();
  double extra = 0;
  {
    const std::lock_guard lock(s.mutex);
    const double start_s = std::chrono::duration<double>(m_start.time_since_epoch()).count();
    extra = s.clock.run(work_s, start_s) - work_s;
  }
  wait_for(extra);
}

std::optional<double> simulated_host_available_bytes() { return settings().host_bytes; }

}  // namespace gpulab::emu

// The simulated device behaviour (device_behaviour.hpp): a clock that ramps from idle to boost, first-launch costs,
// a sticky fault, and the host memory the module sees. The work itself runs at the emulator's own speed; the ramp
// makes it take longer by sleeping the difference inside the launch, so a host clock around the launch and the
// emulated events (host timestamps) both see the slower device, as they would on a GPU.
#include "device_behaviour.hpp"

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

// The lent H100/H200 idle at 345 MHz and boost to 1980 MHz. The driver raises the clock in steps as it sees the
// load, not smoothly: the device holds each clock for a while, so a few short samples taken on one step agree with
// each other, and a method that stops when three samples agree can time the idle clock. Here the clock steps up at
// fixed amounts of busy time and is at boost after kRampS.
struct ClockStep {
  double from_busy_s;  // busy time at which this clock starts
  double mhz;
};
constexpr ClockStep kSteps[] = {{0.0, 345}, {0.060, 1005}, {0.110, 1500}, {0.150, 1980}};
constexpr double kBoostMhz = 1980;
constexpr double kRampS = 0.150;
// A GPU left idle lowers its clock again, but not at once: the warmth gained by busy time keeps accumulating past
// boost up to kHoldS, and idle time drains it linearly at kRampS per kCoolS. So the clock holds boost through the
// host's short gaps between launches (a sample's bookkeeping, a preempted process), starts stepping down after
// ~1 s without work and is back at idle after ~2 s: short enough that a measurement cannot lean on the warm-up of
// one a suite ran earlier (host work between GPU jobs, a large check's FP64 reference, take that long).
constexpr double kCoolS = 1.0;
constexpr double kHoldS = 2 * kRampS;
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

// The clock's state: busy seconds credited towards boost (0 = idle clock, kRampS = boost), and when the last work
// ended (idle time since then drains the credit).
struct ClockState {
  std::mutex mutex;
  double warmth_s = 0;
  Clock::time_point last_end{};
  bool loaded = false;
  std::set<const void*> loaded_kernels;
};
ClockState& clock_state() {
  static ClockState s;
  return s;
}

// Wall time for `work_s` seconds of full-speed work on a device warmed by `warmth_s`: each clock step in turn does
// work at its share of boost until its busy time is used up, then the next one.
double stretched(double work_s, double warmth_s) {
  double wall = 0, busy = warmth_s, left = work_s;
  const std::size_t steps = sizeof kSteps / sizeof kSteps[0];
  for (std::size_t i = 0; i < steps && left > 0; ++i) {
    const double until = i + 1 < steps ? kSteps[i + 1].from_busy_s : 1e300;
    if (busy >= until) continue;
    const double speed = kSteps[i].mhz / kBoostMhz;
    const double t = std::min(until - busy, left / speed);  // wall time spent on this step
    wall += t;
    busy += t;
    left -= t * speed;
  }
  return wall;
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
  const auto end = Clock::now();
  const double work_s = std::chrono::duration<double>(end - m_start).count();
  ClockState& s = clock_state();
  double extra = 0;
  {
    const std::lock_guard lock(s.mutex);
    if (s.last_end != Clock::time_point{}) {
      const double idle = std::max(0.0, std::chrono::duration<double>(m_start - s.last_end).count());
      s.warmth_s = std::max(0.0, s.warmth_s - idle * kRampS / kCoolS);
    }
    const double wall = stretched(work_s, s.warmth_s);
    extra = wall - work_s;
    s.warmth_s = std::min(kHoldS, s.warmth_s + wall);
    s.last_end = end + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(extra));
  }
  wait_for(extra);
}

std::optional<double> simulated_host_available_bytes() { return settings().host_bytes; }

}  // namespace gpulab::emu

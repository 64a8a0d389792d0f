#include "models/busy_machine.h"

#include "gpulab/platform.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

namespace gpulab::models {

namespace {
std::string slurp(const char* path) {
  std::ifstream f(path);
  if (!f) return {};
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
}  // namespace

bool parse_proc_stat(std::string_view text, MachineSnapshot& out) {
  // The aggregate line is "cpu  user nice system idle iowait irq softirq steal guest guest_nice"; guest time is
  // already inside user, so it is not added again.
  const auto at = text.find("cpu ");
  if (at == std::string_view::npos) return false;
  const std::string line(text.substr(at + 4, text.find('\n', at) - at - 4));
  double v[8] = {};
  const int got = std::sscanf(line.c_str(), "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4],
                              &v[5], &v[6], &v[7]);
  if (got < 4) return false;
  out.busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6];
  out.steal_ticks = v[7];
  out.total_ticks = 0;
  for (double x : v) out.total_ticks += x;
  return out.total_ticks > 0;
}

double parse_loadavg(std::string_view text) {
  double load = -1;
  if (std::sscanf(std::string(text).c_str(), "%lf", &load) != 1) return -1;
  return load;
}

MachineSnapshot read_machine_snapshot() {
  MachineSnapshot s;
  s.valid = parse_proc_stat(slurp("/proc/stat"), s);
  s.load1 = parse_loadavg(slurp("/proc/loadavg"));
  s.ticks_per_s = gpulab::platform::cpu_time_ticks_per_second();
  s.cores = std::max(1u, std::thread::hardware_concurrency());
  if (const double own = gpulab::platform::process_cpu_seconds(); own >= 0) s.own_cpu_s = own;
  return s;
}

BusyVerdict assess_busy(const MachineSnapshot& before, const MachineSnapshot& after,
                        const std::vector<double>& rel_spreads, const BusyLimits& limits) {
  BusyVerdict v;
  bool judged = false;  // the window was long enough for the tick counts to speak
  if (before.valid && after.valid && after.total_ticks > before.total_ticks) {
    const double total = after.total_ticks - before.total_ticks;
    // The wall time of the window, in core-seconds per core: total ticks are summed over every core.
    const double wall_s = total / after.ticks_per_s / std::max(1, after.cores);
    const double machine_busy_s = (after.busy_ticks - before.busy_ticks) / after.ticks_per_s;
    const double own_s = std::max(0.0, after.own_cpu_s - before.own_cpu_s);
    // Ticks are coarse (10 ms on each core): below a tenth of a second (20 ticks on 2 cores) they are noise. The
    // own CPU time is exact, so a window that long already tells a core's worth of other work from none.
    if (wall_s >= 0.1) {
      judged = true;
      v.others_cores = std::max(0.0, machine_busy_s - own_s) / wall_s;
      v.steal_share = (after.steal_ticks - before.steal_ticks) / total;
      if (v.others_cores >= limits.others_cores) {
        v.busy = true;
        v.reasons.push_back("other programs used about " + fixed(v.others_cores, 1) + " of " +
                            std::to_string(after.cores) + " cores");
      }
      if (v.steal_share >= limits.steal_share) {
        v.busy = true;
        v.reasons.push_back("the virtual machine's host took " + fixed(100 * v.steal_share, 0) + " % of the time");
      }
    }
  }
  // A run too short for the tick counts (a 60³ product takes microseconds): the load average says whether more
  // threads wanted a core than there were cores over the last minute. Half a thread of slack, as the app's own
  // earlier runs count in it too.
  if (!judged && after.load1 >= after.cores + 0.5) {
    v.busy = true;
    v.reasons.push_back("the load average was " + fixed(after.load1, 1) + " on " + std::to_string(after.cores) + " cores");
  }
  for (double s : rel_spreads) v.worst_spread = std::max(v.worst_spread, s);
  if (v.worst_spread >= limits.rel_spread) {
    v.busy = true;
    v.reasons.push_back("repeated timings differed by up to " + fixed(100 * v.worst_spread, 0) + " %");
  }
  return v;
}

void BusyWatch::start() {
  m_start = read_machine_snapshot();
  m_spreads.clear();
  m_verdict = {};
}

const BusyVerdict& BusyWatch::finish() {
  m_verdict = assess_busy(m_start, read_machine_snapshot(), m_spreads);
  return m_verdict;
}

std::string busy_warning(const BusyVerdict& v) {
  if (!v.busy) return {};
  std::string why;
  for (const std::string& r : v.reasons) why += (why.empty() ? "" : "; ") + r;
  return "The CPU was busy while this ran, so these numbers may be low (" + why + ").";
}

}  // namespace gpulab::models

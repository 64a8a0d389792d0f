#pragma once
// Was the machine busy while a run timed something? A teacher's laptop with a video call open lends the app one
// core out of two, and every CPU number measured then comes out low and scattered. This decides, from
// /proc/stat (the whole machine's CPU time, steal included), the process's own CPU time and the run's own spread,
// whether a page must warn "the CPU was busy while this ran". Qt-free and tested with synthetic snapshots.
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::models {

// The machine's CPU time counters (the first "cpu" line of /proc/stat, in clock ticks) and this process's own CPU
// time (seconds), read together.
struct MachineSnapshot {
  bool valid = false;
  double busy_ticks = 0;   // user + nice + system + irq + softirq (not idle, iowait or steal)
  double steal_ticks = 0;  // time a hypervisor gave our virtual CPUs to someone else
  double total_ticks = 0;  // everything
  double ticks_per_s = 100;
  double own_cpu_s = 0;  // this process, all threads
  double load1 = -1;      // /proc/loadavg's 1-minute figure; -1 when unknown
  int cores = 1;
};

// Parses the "cpu ..." line of /proc/stat into the tick fields of `out`; false when it is not there.
bool parse_proc_stat(std::string_view text, MachineSnapshot& out);
// The 1-minute load average from /proc/loadavg's text; -1 when unreadable.
double parse_loadavg(std::string_view text);
// Reads /proc/stat, /proc/loadavg and the process's CPU clock now (invalid where /proc is missing).
MachineSnapshot read_machine_snapshot();

struct BusyVerdict {
  bool busy = false;          // warn
  double others_cores = 0;    // cores' worth of CPU other programs used during the run
  double steal_share = 0;     // share of the machine's time stolen by the hypervisor
  double worst_spread = 0;    // the widest (max - min) / median among the run's results
  std::vector<std::string> reasons;  // plain sentences, one per piece of evidence
};

// What decides "busy" (shares of one core, so they mean the same on 2 and on 64 cores).
struct BusyLimits {
  double others_cores = 0.3;   // other programs used a third of a core or more
  double steal_share = 0.05;   // 5 % of the time stolen
  double rel_spread = 0.5;     // a result's slowest sample 50 % of the median behind its fastest
};

// `before`/`after` bracket the run; `rel_spreads` are its results' (max - min) / median. Either snapshot may be
// invalid (no /proc): then only the spread speaks.
BusyVerdict assess_busy(const MachineSnapshot& before, const MachineSnapshot& after,
                        const std::vector<double>& rel_spreads, const BusyLimits& limits = {});

// One run's watch: start() as it begins, note() each result's spread, finish() when it ends.
class BusyWatch {
 public:
  void start();  // takes the snapshot and forgets the last run
  // A result's (max - min) / median. Runs under a millisecond are skipped: one interrupt doubles such a sample on
  // a quiet machine, so their spread says nothing about other programs.
  void note(double rel_spread, double median_s) {
    if (median_s >= 1e-3) m_spreads.push_back(rel_spread);
  }
  const BusyVerdict& finish();  // judges the run just ended
  const BusyVerdict& verdict() const { return m_verdict; }
  bool busy() const { return m_verdict.busy; }

 private:
  MachineSnapshot m_start;
  std::vector<double> m_spreads;
  BusyVerdict m_verdict;
};

// The page's warning line (empty when not busy): the sentence and the evidence in brackets.
std::string busy_warning(const BusyVerdict& v);

}  // namespace gpulab::models

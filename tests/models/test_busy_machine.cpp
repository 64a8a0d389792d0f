// The busy-machine check: other programs' CPU time, steal time and the run's own spread, from synthetic
// /proc/stat snapshots (a 2-core machine at 100 ticks a second).
#include "models/busy_machine.h"

#include <gtest/gtest.h>

using namespace gpulab::models;

namespace {
// A 2-core snapshot: `busy`/`steal`/`idle` ticks summed over both cores, and the process's CPU seconds.
MachineSnapshot snap(double busy, double steal, double idle, double own_s) {
  MachineSnapshot s;
  s.valid = true;
  s.cores = 2;
  s.ticks_per_s = 100;
  s.busy_ticks = busy;
  s.steal_ticks = steal;
  s.total_ticks = busy + steal + idle;
  s.own_cpu_s = own_s;
  return s;
}
}  // namespace

TEST(BusyMachine, ParsesTheAggregateCpuLine) {
  MachineSnapshot s;
  ASSERT_TRUE(parse_proc_stat("cpu  100 5 50 800 10 3 2 40 0 0\ncpu0 50 2 25 400 5 1 1 20 0 0\n", s));
  EXPECT_DOUBLE_EQ(s.busy_ticks, 100 + 5 + 50 + 3 + 2);  // user nice system irq softirq
  EXPECT_DOUBLE_EQ(s.steal_ticks, 40);
  EXPECT_DOUBLE_EQ(s.total_ticks, 1010);
  EXPECT_FALSE(parse_proc_stat("intr 12 3 4\n", s));
  EXPECT_DOUBLE_EQ(parse_loadavg("1.52 0.98 0.40 2/345 6789\n"), 1.52);
  EXPECT_DOUBLE_EQ(parse_loadavg(""), -1);
}

TEST(BusyMachine, QuietWhenOnlyThisProcessWorked) {
  // 2 s of wall time (400 ticks over 2 cores): 200 ticks busy, all of them this process's 2 CPU-seconds.
  const BusyVerdict v = assess_busy(snap(1000, 0, 5000, 10), snap(1200, 0, 5200, 12), {0.05, 0.1});
  EXPECT_FALSE(v.busy);
  EXPECT_NEAR(v.others_cores, 0.0, 1e-9);
  EXPECT_EQ(busy_warning(v), "");
}

TEST(BusyMachine, AnotherProgramOnOneCoreIsBusy) {
  // 2 s: the machine was busy 400 ticks (both cores), this process used 2 CPU-seconds: others used one core.
  const BusyVerdict v = assess_busy(snap(1000, 0, 5000, 10), snap(1400, 0, 5000, 12), {0.05});
  EXPECT_TRUE(v.busy);
  EXPECT_NEAR(v.others_cores, 1.0, 1e-9);
  EXPECT_NE(busy_warning(v).find("The CPU was busy while this ran"), std::string::npos);
  EXPECT_NE(busy_warning(v).find("1.0 of 2 cores"), std::string::npos);
}

TEST(BusyMachine, StealTimeIsBusy) {
  // 2 s, 10 % of the machine's time stolen by the hypervisor, nobody else running.
  const BusyVerdict v = assess_busy(snap(1000, 0, 5000, 10), snap(1100, 40, 5260, 11), {});
  EXPECT_TRUE(v.busy);
  EXPECT_NEAR(v.steal_share, 0.1, 1e-9);
  EXPECT_NE(busy_warning(v).find("10 %"), std::string::npos);
}

TEST(BusyMachine, WideSpreadAloneIsBusyEvenWithoutProc) {
  const BusyVerdict v = assess_busy(MachineSnapshot{}, MachineSnapshot{}, {0.1, 0.9});
  EXPECT_TRUE(v.busy);
  EXPECT_NE(busy_warning(v).find("90 %"), std::string::npos);
  EXPECT_FALSE(assess_busy(MachineSnapshot{}, MachineSnapshot{}, {0.1, 0.3}).busy);
}

TEST(BusyMachine, AShortWindowIsNotJudgedByItsTicks) {
  // 0.05 s of wall time (10 ticks on 2 cores), all busy and none of it ours: tick counts that coarse say nothing.
  EXPECT_FALSE(assess_busy(snap(1000, 0, 5000, 10), snap(1010, 0, 5000, 10), {}).busy);
  // ...unless the load average says more threads wanted a core than there were.
  MachineSnapshot loaded = snap(1010, 0, 5000, 10);
  loaded.load1 = 3.2;
  EXPECT_TRUE(assess_busy(snap(1000, 0, 5000, 10), loaded, {}).busy);
  EXPECT_NE(busy_warning(assess_busy(snap(1000, 0, 5000, 10), loaded, {})).find("load average was 3.2 on 2"), std::string::npos);
  loaded.load1 = 2.2;  // the app's own two threads, lately: not evidence
  EXPECT_FALSE(assess_busy(snap(1000, 0, 5000, 10), loaded, {}).busy);
  // 0.15 s (an Amdahl run on a quiet laptop), another program on one core: judged.
  EXPECT_TRUE(assess_busy(snap(1000, 0, 5000, 10), snap(1030, 0, 5000, 10.15), {}).busy);
}

TEST(BusyMachine, ReadsThisMachine) {
  const MachineSnapshot s = read_machine_snapshot();
  if (!s.valid) GTEST_SKIP() << "no /proc/stat here";
  EXPECT_GT(s.total_ticks, 0);
  EXPECT_GE(s.cores, 1);
}

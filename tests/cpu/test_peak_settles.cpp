// A start-up peak taken while the machine is busy settles on the quiet machine's figure (issue 40): the start-up set
// of bursts agrees with itself, low, so it never settles the peak alone; later sets, once the load is gone, raise
// the best and agree with each other. GPULAB_SIMULATE_STEAL=1 times the bursts as a VM's clock does when its host
// takes the core (fma_peak.cpp), so a real load on this machine lowers them as a busy host did on the 2-vCPU VM.
#include "gpulab/cpu_peak_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

TEST(PeakSettles, ALoadedStartUpIsNotSettledAndLaterSetsRaiseIt) {
  ::setenv("GPULAB_SIMULATE_STEAL", "1", 1);  // before the first burst of this process
  gpulab::CpuPeakState startup;
  {
    std::atomic<bool> stop{false};
    std::atomic<unsigned> running{0};
    std::vector<std::thread> load;
    const unsigned threads = 2 * std::max(1u, std::thread::hardware_concurrency());  // two per core
    for (unsigned i = 0; i < threads; ++i)
      load.emplace_back([&stop, &running] {
        running.fetch_add(1);
        volatile double x = 1;
        while (!stop.load(std::memory_order_relaxed)) x = x * 1.0000001 + 1e-9;
      });
    while (running.load() < threads) std::this_thread::yield();  // all spinning before the start-up's bursts
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    startup = gpulab::cpu_peak_state();
    stop = true;
    for (auto& t : load) t.join();
  }
  EXPECT_EQ(startup.sets, 1);
  EXPECT_FALSE(startup.settled);  // five low bursts that agree prove nothing
  EXPECT_FALSE(startup.best_taken_at.empty());
  gpulab::CpuPeakState now = startup;
  for (int i = 0; i < 12 && !now.settled; ++i) now = gpulab::settle_cpu_peak();
  std::printf("loaded start-up %.1f GFLOP/s; settled %.1f after %d sets\n", startup.gflops_fp32, now.gflops_fp32,
              now.sets);
  EXPECT_TRUE(now.settled);
  EXPECT_GE(now.sets, 3);  // two sets after the start-up one
  EXPECT_GT(now.gflops_fp32, 1.15 * startup.gflops_fp32);  // the load halved the start-up; quiet sets do not
}

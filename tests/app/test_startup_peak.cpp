// The CPU's FMA peak taken at start-up can be half the truth when the machine is busy (issue 40): on a 2-vCPU cloud
// VM one GUI start in seven read 118 GFLOP/s where the others read 234, and every "share of the measured peak"
// doubled. Here a core is loaded for the whole start-up, and the figure the pages use must not be the loaded one:
// the app re-measures in the background until a later set of bursts agrees with one before it.
//
// The bursts are rated per CPU-second of their threads, which sees through another program sharing the cores of
// this machine; it cannot see a VM's host taking the core (the guest counts that time as its own). So this test
// runs with GPULAB_SIMULATE_STEAL=1, which times the bursts as such a VM's clock does, and the load is real.
#include "app_test_support.h"
#include "main_window.h"
#include "pages/batch/batch_page.h"

#include "gpulab/cpu_peak_state.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/roofs.hpp"
#include "runner/cpu_peak_watch.h"

#include <QTest>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

// Busy threads on `n` cores until destroyed.
class CoreLoad {
 public:
  explicit CoreLoad(int n) {
    for (int i = 0; i < n; ++i)
      m_threads.emplace_back([this] {
        m_running.fetch_add(1);
        double x = 1;
        while (!m_stop.load(std::memory_order_relaxed)) x = x * 1.0000001 + 1e-9;
        m_sink = x;
      });
    // Every load thread spinning before the start-up's bursts begin (they did not always, and a start-up then read
    // the quiet figure).
    while (m_running.load() < n) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ~CoreLoad() {
    m_stop = true;
    for (auto& t : m_threads) t.join();
  }

 private:
  std::atomic<bool> m_stop{false};
  std::atomic<int> m_running{0};
  std::vector<std::thread> m_threads;
  volatile double m_sink = 0;
};

// The best of a few checked FMA-peak runs on a quiet machine (the roofs suite's experiment, the same kernel).
double quietPeakGflops(gpulab::Backend& cpu) {
  gpulab::RunContext run;
  run.policy.min_samples = 5;
  run.policy.max_samples = 10;
  run.policy.time_budget_s = 0.3;
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    const gpulab::Result r = gpulab::run_peak(cpu, gpulab::PeakSpec{gpulab::Precision::fp32, 0.015}, run);
    if (r.ok()) best = std::max(best, r.gflops);
  }
  return best;
}

}  // namespace

TEST(StartupPeak, ACoreLoadedDuringStartUpIsNotTheFigureThePagesUse) {
  // Before the first burst of this process: the clock is chosen once.
  qputenv("GPULAB_SIMULATE_STEAL", "1");
  qunsetenv("GPULAB_NO_PEAK_SETTLE");  // the background sets are what this test is about (app_test_main turns them off)
  double loadedStartup = 0;
  std::unique_ptr<AppContext> ctx;
  CpuPeakWatch* watch = nullptr;
  {
    // Two busy threads per core: the start-up's burst threads get about a third of a core each. (One per core left
    // the start-up at 0.82 of the quiet figure in one run of six here: a new thread starts ahead in the scheduler.)
    const CoreLoad load(2 * std::max(1, int(std::thread::hardware_concurrency())));
    ctx = std::make_unique<AppContext>(noGpu());
    const gpulab::CpuPeakState startup = gpulab::cpu_peak_state();
    ASSERT_EQ(startup.sets, 1);  // the start-up set alone
    loadedStartup = startup.gflops_fp32;
    EXPECT_FALSE(startup.settled);
    watch = ctx->findChild<CpuPeakWatch*>();
    ASSERT_NE(watch, nullptr);
    // While loaded, the pages have the start-up figure, said to be provisional.
    EXPECT_EQ(watch->peakKind(), QStringLiteral("provisional"));
    EXPECT_NE(ctx->cpuInfo().peak_source.find("re-measuring"), std::string::npos) << ctx->cpuInfo().peak_source;
  }
  MainWindow window(*ctx);
  auto* batch = qobject_cast<BatchPage*>(window.pageById(QStringLiteral("batch")));
  ASSERT_NE(batch, nullptr);

  // The load is gone: the background sets confirm a figure within seconds.
  EXPECT_TRUE(QTest::qWaitFor([&] { return watch->peakKind() == QStringLiteral("confirmed"); }, 60000))
      << watch->peakKind().toStdString() << " after " << watch->setsTaken() << " sets";
  const double inUse = ctx->cpuInfo().peak_gflops_fp32;
  watch->stop();
  // The reference is taken as the background sets were: on another thread while the window's event loop runs (its
  // timers take a share of a core, which the simulated steal clock charges to the bursts; taken with the loop
  // stopped it read 227 GFLOP/s where the sets read 112).
  double quiet = 0;
  std::atomic<bool> quietDone{false};
  std::thread reference([&] {
    quiet = quietPeakGflops(ctx->cpu());
    quietDone = true;
  });
  EXPECT_TRUE(QTest::qWaitFor([&] { return quietDone.load(); }, 60000)) << "the quiet reference took over a minute";
  reference.join();
  std::printf("loaded start-up %.1f GFLOP/s, in use %.1f, quiet reference %.1f (%d sets)\n", loadedStartup, inUse,
              quiet, gpulab::cpu_peak_state().sets);
  ASSERT_GT(quiet, 0);
  // The load did what a busy start-up does (else this test shows nothing) ...
  ASSERT_LT(loadedStartup, 0.5 * quiet);
  // ... and the pages do not use that figure: they use one near the quiet machine's.
  EXPECT_GT(inUse, 1.15 * loadedStartup);
  // Above 60 % of the quiet figure: on the simulated steal clock (wall time) this shared VM's bursts wander by a
  // third from one set to the next (147 to 231 GFLOP/s in six runs here, the reference 195 to 222), while two busy
  // threads per core hold the start-up under 40 % of it (57 to 76).
  EXPECT_GT(inUse, 0.6 * quiet);
  EXPECT_DOUBLE_EQ(batch->peakFlops(), inUse * 1e9);  // the batch page's CPU roof, on a fresh page (FP32)
  EXPECT_NE(ctx->cpuInfo().peak_source.find("confirmed"), std::string::npos) << ctx->cpuInfo().peak_source;
}

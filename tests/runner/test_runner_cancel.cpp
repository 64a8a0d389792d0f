// Cancel through the runner as the GUI does it (issue 13): a real naive 2048³ GEMM on the worker thread, cancelled
// once it has started. cancelling() comes at once, on the calling thread, so the run bar can say "Cancelling…"
// before the worker notices; finished(cancelled = true) follows within 0.5 s (median of 3: the one timing bound of
// these tests, ten times what an idle machine needs, so only a machine too busy to schedule the worker for half a
// second fails it); the result the job delivered says it was cancelled and in which phase.
#include "runner/experiment_runner.h"

#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

TEST(RunnerCancel, NaiveGemmStopsWithinHalfASecond) {
  auto backend = gpulab::make_cpu_backend();
  (void)backend->device_info();  // the peak bursts, taken once per process, before anything is timed
  std::vector<double> latencies;
  for (int attempt = 0; attempt < 3; ++attempt) {
    ExperimentRunner runner;
    QSignalSpy cancelling(&runner, &ExperimentRunner::cancelling);
    QSignalSpy finished(&runner, &ExperimentRunner::finished);
    QSignalSpy results(&runner, &ExperimentRunner::resultReady);
    QSignalSpy progress(&runner, &ExperimentRunner::progress);
    gpulab::Backend* b = backend.get();
    ASSERT_TRUE(runner.start(QStringLiteral("matmul"), QStringLiteral("naive 2048³"), [b](const gpulab::RunContext& ctx) {
      gpulab::GemmSpec s;
      s.m = s.n = s.k = 2048;
      s.variant = "naive";
      gpulab::run_gemm(*b, s, ctx);
    }));
    // Well inside the run: its check alone is a whole naive 2048³ product (a minute or more).
    QTest::qWait(700);
    ASSERT_TRUE(finished.isEmpty()) << "the naive 2048³ run ended before it could be cancelled";
    QElapsedTimer t;
    t.start();
    runner.cancel();
    EXPECT_EQ(cancelling.count(), 1);  // at once, before any event is processed
    runner.cancel();                   // a second Esc: no second "Cancelling…"
    EXPECT_EQ(cancelling.count(), 1);
    ASSERT_TRUE(finished.wait(10000));
    latencies.push_back(t.elapsed() / 1000.0);
    EXPECT_TRUE(finished.at(0).at(1).toBool());  // cancelled
    ASSERT_EQ(results.count(), 1);
    const auto r = results.at(0).at(1).value<gpulab::Result>();
    EXPECT_NE(r.error.find("cancelled"), std::string::npos) << r.error;
    EXPECT_TRUE(r.provenance.count("cancelled"));
  }
  std::sort(latencies.begin(), latencies.end());
  std::printf("cancel latencies through the runner: %.3f %.3f %.3f s\n", latencies[0], latencies[1], latencies[2]);
  EXPECT_LT(latencies[1], 0.5) << "cancel latencies " << latencies[0] << ", " << latencies[1] << ", " << latencies[2];
}

// The runner: results arrive on the GUI thread in order, errors become failed(), cancel stops a job promptly.
#include "runner/experiment_runner.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QThread>
#include <QTest>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

TEST(Runner, DeliversResultsOnGuiThread) {
  ExperimentRunner runner;
  std::vector<double> got;
  QThread* guiThread = QThread::currentThread();
  bool onGui = true;
  // A receiver context on the GUI thread, as every page connects: the runner's signals are then queued.
  QObject receiver;
  QObject::connect(&runner, &ExperimentRunner::resultReady, &receiver, [&](const QString& owner, const gpulab::Result& r) {
    EXPECT_EQ(owner, QStringLiteral("t"));
    onGui = onGui && QThread::currentThread() == guiThread;
    got.push_back(r.flops);
  });
  QSignalSpy finished(&runner, &ExperimentRunner::finished);
  ASSERT_TRUE(runner.start(QStringLiteral("t"), QStringLiteral("job"), [](const gpulab::RunContext& ctx) {
    for (int i = 0; i < 5; ++i) {
      gpulab::Result r;
      r.flops = i;
      ctx.on_result(r);
    }
  }));
  EXPECT_FALSE(runner.start(QStringLiteral("u"), QStringLiteral("second"), [](const gpulab::RunContext&) {}));
  ASSERT_TRUE(finished.wait(5000));
  EXPECT_TRUE(onGui);
  EXPECT_EQ(got, (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(finished.at(0).at(1).toBool());
}

TEST(Runner, ExceptionBecomesFailedSignal) {
  ExperimentRunner runner;
  QSignalSpy failed(&runner, &ExperimentRunner::failed);
  QSignalSpy finished(&runner, &ExperimentRunner::finished);
  runner.start(QStringLiteral("t"), QStringLiteral("job"),
               [](const gpulab::RunContext&) { throw std::runtime_error("out of device memory"); });
  ASSERT_TRUE(finished.wait(5000));
  ASSERT_EQ(failed.size(), 1);
  EXPECT_TRUE(failed.at(0).at(1).toString().contains(QStringLiteral("out of device memory")));
  EXPECT_FALSE(runner.isBusy());
}

TEST(Runner, CancelStopsPromptly) {
  ExperimentRunner runner;
  QSignalSpy finished(&runner, &ExperimentRunner::finished);
  std::atomic<bool> entered{false};
  runner.start(QStringLiteral("t"), QStringLiteral("long"), [&](const gpulab::RunContext& ctx) {
    entered = true;
    for (int i = 0; i < 600 && !ctx.cancelled(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  while (!entered) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  const auto t0 = std::chrono::steady_clock::now();
  runner.cancel();
  ASSERT_TRUE(finished.wait(3000));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(waited, 1.0);
  EXPECT_TRUE(finished.at(0).at(1).toBool());
}

TEST(Runner, DestroyingMidRunDoesNotHang) {
  auto* runner = new ExperimentRunner;
  runner->start(QStringLiteral("t"), QStringLiteral("long"), [](const gpulab::RunContext& ctx) {
    for (int i = 0; i < 1000 && !ctx.cancelled(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  QTest::qWait(20);
  const auto t0 = std::chrono::steady_clock::now();
  delete runner;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
}

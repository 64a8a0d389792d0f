#include "runner/experiment_runner.h"

#include "runner/result_store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>

#include <exception>

// Lives on the worker thread; executes one job at a time.
class RunnerWorker : public QObject {
  Q_OBJECT
 public:
  explicit RunnerWorker(ExperimentRunner* runner) : m_runner(runner) {}

  void execute(const QString& owner, ExperimentRunner::Job job, gpulab::MeasurePolicy policy,
               std::stop_token stop) {
    gpulab::RunContext ctx;
    ctx.policy = policy;
    ctx.stop = stop;
    QElapsedTimer lastProgress;
    lastProgress.start();
    ExperimentRunner* runner = m_runner;
    // Progress is throttled to ~20 updates a second so a fast stream of samples cannot flood the event loop.
    ctx.on_progress = [runner, owner, lastProgress](const gpulab::Progress& p) mutable {
      if (p.fraction < 1.0 && lastProgress.isValid() && lastProgress.elapsed() < 50) return;
      lastProgress.restart();
      Q_EMIT runner->progress(owner, p.fraction, QString::fromStdString(p.message));
    };
    ctx.on_result = [runner, owner](const gpulab::Result& r) { Q_EMIT runner->resultReady(owner, r); };
    QString error;
    try {
      job(ctx);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    } catch (...) {
      error = QStringLiteral("the experiment failed with an unknown error");
    }
    const bool cancelled = stop.stop_requested();
    QMetaObject::invokeMethod(
        runner, [runner, owner, cancelled, error] { runner->onWorkerDone(owner, cancelled, error); },
        Qt::QueuedConnection);
    // The CPU is ours again: if nothing else is using it either, a few more peak bursts (at most every 20 s,
    // ~0.2 s), so a peak first taken in a busy moment gets corrected. Never after a cancel: the user wants quiet.
    if (!cancelled) {
      try {
        gpulab::retake_cpu_peak_if_quiet();
      } catch (...) {
      }
    }
  }

 private:
  ExperimentRunner* m_runner;
};

ExperimentRunner::ExperimentRunner(QObject* parent) : QObject(parent) {
  static const int registered = [] {
    qRegisterMetaType<gpulab::Result>("gpulab::Result");
    return 0;
  }();
  (void)registered;
  m_worker = new RunnerWorker(this);
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  m_thread.setObjectName(QStringLiteral("gpulab-experiments"));
  // Emitted on the worker thread, delivered here (the GUI thread) queued: the store is only ever touched here.
  connect(this, &ExperimentRunner::resultReady, this, [this](const QString& owner, const gpulab::Result& r) {
    if (m_store) m_store->addMeasured(r, owner);
  });
  m_thread.start();
}

ExperimentRunner::~ExperimentRunner() {
  cancel();
  m_thread.quit();
  m_thread.wait();
}

bool ExperimentRunner::isBusy() const {
  std::lock_guard lock(m_mutex);
  return m_busy;
}

QString ExperimentRunner::currentOwner() const {
  std::lock_guard lock(m_mutex);
  return m_owner;
}

bool ExperimentRunner::start(const QString& owner, const QString& label, Job job, gpulab::MeasurePolicy policy) {
  std::stop_token token;
  {
    std::lock_guard lock(m_mutex);
    if (m_busy) return false;
    m_busy = true;
    m_owner = owner;
    m_stop = std::stop_source();
    token = m_stop.get_token();
  }
  Q_EMIT started(owner, label);
  RunnerWorker* worker = m_worker;
  QMetaObject::invokeMethod(
      worker, [worker, owner, job = std::move(job), policy, token] { worker->execute(owner, job, policy, token); },
      Qt::QueuedConnection);
  return true;
}

bool ExperimentRunner::startPlan(const QString& owner, const QString& label, gpulab::Plan plan,
                                 gpulab::MeasurePolicy policy) {
  return start(owner, label, [plan = std::move(plan)](const gpulab::RunContext& ctx) { gpulab::run_plan(plan, ctx); },
               policy);
}

void ExperimentRunner::cancel() {
  QString owner;
  {
    std::lock_guard lock(m_mutex);
    // request_stop() is true only for the first request: one "Cancelling…" per job, however often Esc is pressed.
    if (!m_busy || !m_stop.request_stop()) return;
    owner = m_owner;
  }
  Q_EMIT cancelling(owner);
}

bool ExperimentRunner::waitForIdle(int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (isBusy()) {
    if (t.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

void ExperimentRunner::onWorkerDone(const QString& owner, bool cancelled, const QString& error) {
  {
    std::lock_guard lock(m_mutex);
    m_busy = false;
    m_owner.clear();
  }
  if (!error.isEmpty()) Q_EMIT failed(owner, error);
  Q_EMIT finished(owner, cancelled);
}

#include "experiment_runner.moc"

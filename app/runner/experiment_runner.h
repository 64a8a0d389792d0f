#pragma once
// Runs experiments on one worker QThread so the GUI never blocks. Results, progress and errors come back as
// queued signals; cancel is a std::stop_source requested from the GUI thread and checked between samples and inside
// long ones. After each job the worker re-takes the CPU's peak if the machine is quiet (gpulab::cpu_peak).
#include "gpulab/experiments.hpp"
#include "gpulab/plan.hpp"
#include "gpulab/results.hpp"

#include <QObject>
#include <QString>
#include <QThread>

#include <functional>
#include <mutex>
#include <stop_token>

Q_DECLARE_METATYPE(gpulab::Result)

class ResultStore;
class RunnerWorker;

class ExperimentRunner : public QObject {
  Q_OBJECT
 public:
  // The job runs on the worker thread. It reports through ctx.report / ctx.on_result and should return
  // promptly once ctx.cancelled(). Exceptions become failed(owner, what()).
  using Job = std::function<void(const gpulab::RunContext& ctx)>;

  explicit ExperimentRunner(QObject* parent = nullptr);
  ~ExperimentRunner() override;  // cancel, quit, wait

  bool isBusy() const;
  QString currentOwner() const;
  // Runs a plan (gpulab/plan.hpp) on the worker: the way pages run. Progress slices, cancel and errors as results
  // are run_plan's; each result carries its plan. Returns false (and starts nothing) while another job runs.
  bool startPlan(const QString& owner, const QString& label, gpulab::Plan plan, gpulab::MeasurePolicy policy = {});
  // A free-form job (kept until every page runs plans). Returns false (and starts nothing) while another runs.
  bool start(const QString& owner, const QString& label, Job job, gpulab::MeasurePolicy policy = {});
  // The one path a result takes to the pages: the runner adds each result to this store (measured here, under the
  // owner that started the run) on the GUI thread; pages listen to the store, never to resultReady.
  void setStore(ResultStore* store) { m_store = store; }
  // Safe to call at any time from the GUI thread.
  void cancel();
  // Blocks until the current job (if any) ends; for tests and shutdown.
  bool waitForIdle(int timeoutMs);

 Q_SIGNALS:
  void started(const QString& owner, const QString& label);
  void progress(const QString& owner, double fraction, const QString& message);
  // For tests and the bench-in-GUI; pages read results from the store (setStore).
  void resultReady(const QString& owner, const gpulab::Result& result);
  // Emitted at once (on the calling thread) when cancel() asks a running job to stop, once per job: the run bar
  // says "Cancelling…" without waiting for the job to notice (it does within 0.5 s; see gpulab::StopScope).
  void cancelling(const QString& owner);
  void finished(const QString& owner, bool cancelled);
  void failed(const QString& owner, const QString& message);

 private:
  friend class RunnerWorker;  // reports the end of a job back on the GUI thread
  void onWorkerDone(const QString& owner, bool cancelled, const QString& error);

  QThread m_thread;
  RunnerWorker* m_worker = nullptr;
  ResultStore* m_store = nullptr;
  mutable std::mutex m_mutex;
  std::stop_source m_stop;
  QString m_owner;
  bool m_busy = false;
};

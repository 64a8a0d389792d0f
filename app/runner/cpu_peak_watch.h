#pragma once
// Re-measures the CPU's FMA peak in the background after start-up (issue 40): one set of bursts at a time
// (gpulab::settle_cpu_peak, ~0.1 s on every core), only while the runner is idle so a set never lands inside an
// experiment's timing, until stopped. The app context owns it (a child found with findChild), decides what the sets
// mean (models/cpu_peak_in_use.h) and says so through peakInUseChanged, which the pages and the device panel
// follow: they read the peak from the context's cpuInfo().
#include "gpulab/cpu_peak_state.hpp"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <thread>

class ExperimentRunner;

class CpuPeakWatch : public QObject {
  Q_OBJECT
 public:
  explicit CpuPeakWatch(ExperimentRunner& runner, QObject* parent = nullptr);
  ~CpuPeakWatch() override;  // waits for a set in flight (~0.1 s)

  // The first set after `firstDelayMs` (the window has drawn by then), the next ones `intervalMs` apart.
  void start(int firstDelayMs = 1000, int intervalMs = 1000);
  void stop();
  bool active() const { return m_active; }
  int setsTaken() const { return m_sets; }

  // What the context made of the sets so far: "provisional", "confirmed" or "last good" (models/cpu_peak_in_use.h).
  QString peakKind() const { return m_kind; }
  // Sets it; with `changed`, the pages are told to redraw with the peak in use.
  void setPeakKind(const QString& kind, bool changed);

 Q_SIGNALS:
  void measured(const gpulab::CpuPeakState& peak);  // after each set, on the GUI thread
  void peakInUseChanged();

 private:
  void tick();
  void joinSet();

  ExperimentRunner& m_runner;
  QTimer m_timer;
  std::thread m_set;  // the set in flight, if any
  std::atomic<bool> m_inFlight{false};
  bool m_active = false;
  int m_interval = 1000;
  int m_sets = 0;
  QString m_kind;
};

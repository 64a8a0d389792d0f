#pragma once
// How late a 10 ms timer fires: the time the event loop could not answer. A healthy GUI stays within a few ms; a
// blocked one shows the whole blocking time. Used by `gpulab bench-gui`.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <vector>

class LatencyProbe : public QObject {
 public:
  explicit LatencyProbe(QObject* parent) : QObject(parent) {
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
      const double now = m_clock.nsecsElapsed() / 1e6;
      if (m_last >= 0) {
        const double late = std::max(0.0, now - m_last - kIntervalMs);
        m_delays.push_back(late);
        // Where a stall sat on the system's monotonic clock, so a profile taken with `perf record -k CLOCK_MONOTONIC`
        // can be cut to the stall's own samples (`gpulab bench-gui --stalls`).
        if (late > kStallMs) m_stalls.push_back({m_startMonotonicMs + m_last, m_startMonotonicMs + now, late});
      }
      m_last = now;
    });
  }
  void start() {
    m_delays.clear();
    m_last = -1;
    m_stalls.clear();
    m_clock.start();
    m_startMonotonicMs = double(m_clock.msecsSinceReference());
    m_timer.start();
  }
  struct Stall {
    double fromMs, toMs;  // the monotonic clock, in ms
    double lateMs;        // how much later than its interval the timer fired
  };
  const std::vector<Stall>& stalls() const { return m_stalls; }

  std::vector<double> stop() {
    m_timer.stop();
    return m_delays;
  }

 private:
  static constexpr int kIntervalMs = 10;
  static constexpr double kStallMs = 12;
  std::vector<Stall> m_stalls;
  double m_startMonotonicMs = 0;
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_last = -1;
  std::vector<double> m_delays;
};

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
      if (m_last >= 0) m_delays.push_back(std::max(0.0, now - m_last - kIntervalMs));
      m_last = now;
    });
  }
  void start() {
    m_delays.clear();
    m_last = -1;
    m_clock.start();
    m_timer.start();
  }
  std::vector<double> stop() {
    m_timer.stop();
    return m_delays;
  }

 private:
  static constexpr int kIntervalMs = 10;
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_last = -1;
  std::vector<double> m_delays;
};

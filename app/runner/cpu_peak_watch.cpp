#include "runner/cpu_peak_watch.h"

#include "runner/experiment_runner.h"

#include <algorithm>

namespace {
constexpr int kMaxSets = 12;
}  // namespace

CpuPeakWatch::CpuPeakWatch(ExperimentRunner& runner, QObject* parent) : QObject(parent), m_runner(runner) {
  m_timer.setSingleShot(true);
  connect(&m_timer, &QTimer::timeout, this, &CpuPeakWatch::tick);
}

CpuPeakWatch::~CpuPeakWatch() {
  m_active = false;
  joinSet();
}

void CpuPeakWatch::start(int firstDelayMs, int intervalMs) {
  m_active = true;
  m_interval = intervalMs;
  m_timer.start(firstDelayMs);
}

void CpuPeakWatch::stop() {
  m_active = false;
  m_timer.stop();
}

void CpuPeakWatch::setPeakKind(const QString& kind, bool changed) {
  m_kind = kind;
  if (changed) Q_EMIT peakInUseChanged();
}

void CpuPeakWatch::joinSet() {
  if (m_set.joinable()) m_set.join();
}

void CpuPeakWatch::tick() {
  if (!m_active) return;
  // An experiment is timing something: its numbers matter more than the peak's; look again later.
  if (m_inFlight.load() || m_runner.isBusy()) {
    m_timer.start(m_interval);
    return;
  }
  joinSet();
  m_inFlight = true;
  m_set = std::thread([this] {
    gpulab::CpuPeakState peak;
    try {
      peak = gpulab::settle_cpu_peak();
    } catch (...) {
      peak = {};  // nothing learned; the next set may do better
    }
    // Delivered on the GUI thread; dropped with this object if it is gone by then.
    QMetaObject::invokeMethod(
        this,
        [this, peak] {
          m_inFlight = false;
          joinSet();
          ++m_sets;
          if (!m_active) return;
          if (peak.gflops_fp32 > 0) Q_EMIT measured(peak);
          // Each set takes every core for ~0.1 s: on a machine that stays busy the sets grow rarer (1, 2, 4 … 30 s
          // apart) and end after kMaxSets, so a slider dragged a minute later does not meet one every second.
          m_interval = std::min(2 * m_interval, 30000);
          if (m_sets >= kMaxSets) stop();
          if (m_active) m_timer.start(m_interval);
        },
        Qt::QueuedConnection);
  });
}

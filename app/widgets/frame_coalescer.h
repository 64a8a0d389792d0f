#pragma once
// Runs a piece of work at most once per 60 Hz frame however often it is asked for: the first request starts the
// frame's clock and later ones within the frame join it (a throttle, not a debounce: a slider dragged without
// pause still moves the plot every frame instead of only when it stops). A reader that needs the current state
// now (a test, an export) calls flush().
#include <QObject>
#include <QTimer>

#include <functional>
#include <set>

class FrameCoalescer : public QObject {
 public:
  static constexpr int kFrameMs = 16;

  FrameCoalescer(std::function<void()> work, QObject* parent) : QObject(parent), m_work(std::move(work)) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(kFrameMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { m_work(); });
    instances().insert(this);
  }
  ~FrameCoalescer() override { instances().erase(this); }
  // Whether any coalescer in the GUI thread has work waiting for its frame: a test waits for the pages to be quiet
  // by this instead of sleeping a fixed time.
  static bool anyPending() {
    for (const FrameCoalescer* c : instances())
      if (c->isPending()) return true;
    return false;
  }
  // Asks for the work in this frame; a request while one is pending joins it.
  void request() {
    if (!m_timer.isActive()) m_timer.start();
  }
  bool isPending() const { return m_timer.isActive(); }
  // The pending work, now (nothing when none is pending).
  void flush() {
    if (!m_timer.isActive()) return;
    m_timer.stop();
    m_work();
  }

 private:
  // Every coalescer lives in the GUI thread (its timer does), so the set needs no lock.
  static std::set<const FrameCoalescer*>& instances() {
    static std::set<const FrameCoalescer*> all;
    return all;
  }
  std::function<void()> m_work;
  QTimer m_timer;
};

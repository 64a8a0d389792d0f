#include "widgets/frame_work_meter.h"

#include "qcustomplot.h"

#include <QApplication>
#include <QChildEvent>
#include <QEvent>
#include <QWidget>

#include <utility>

FrameWorkMeter::Counts& FrameWorkMeter::Counts::operator+=(const Counts& o) {
  replots += o.replots;
  replotMs += o.replotMs;
  layoutPasses += o.layoutPasses;
  layoutMs += o.layoutMs;
  timerRuns += o.timerRuns;
  timerMs += o.timerMs;
  paints += o.paints;
  paintMs += o.paintMs;
  if (o.worstMs > worstMs) worstMs = o.worstMs, worstWhat = o.worstWhat;
  widgetsCreated += o.widgetsCreated;
  plotObjects += o.plotObjects;
  plotResizes += o.plotResizes;
  return *this;
}

FrameWorkMeter::FrameWorkMeter(QWidget* root, QObject* parent) : QObject(parent), m_root(root) {
  for (QCustomPlot* p : root->findChildren<QCustomPlot*>()) watchPlot(p);
  if (auto* p = qobject_cast<QCustomPlot*>(root)) watchPlot(p);
  // The application's filter sees every event of the GUI thread, so widgets created later are seen too, without
  // installing a filter on each.
  qApp->installEventFilter(this);
}

FrameWorkMeter::~FrameWorkMeter() { qApp->removeEventFilter(this); }

bool FrameWorkMeter::isUnderRoot(const QObject* o) const {
  for (; o; o = o->parent())
    if (o == m_root) return true;
  return false;
}

void FrameWorkMeter::watchPlot(QCustomPlot* plot) {
  if (m_replotClocks.contains(plot)) return;
  m_replotClocks.insert(plot, QElapsedTimer());
  connect(plot, &QCustomPlot::beforeReplot, this, [this, plot] { m_replotClocks[plot].start(); });
  connect(plot, &QCustomPlot::afterReplot, this, [this, plot] {
    ++m_counts.replots;
    QElapsedTimer& clock = m_replotClocks[plot];
    if (clock.isValid()) m_counts.replotMs += clock.nsecsElapsed() / 1e6;
    clock.invalidate();
  });
  connect(plot, &QObject::destroyed, this, [this, plot] { m_replotClocks.remove(plot); });
}

void FrameWorkMeter::noteTime(double ms, const char* what) {
  if (ms > m_counts.worstMs) m_counts.worstMs = ms, m_counts.worstWhat = what;
}

bool FrameWorkMeter::eventFilter(QObject* watched, QEvent* event) {
  if (!m_root) return false;
  switch (event->type()) {
    case QEvent::LayoutRequest:
    case QEvent::Timer: {
      const bool layout = event->type() == QEvent::LayoutRequest;
      if (event == m_delivering || (layout && !watched->isWidgetType()) || !isUnderRoot(watched)) break;
      if (m_delivering) {  // inside a pass or a handler timed already: counted, its time is in the outer one's
        ++(layout ? m_counts.layoutPasses : m_counts.timerRuns);
        break;
      }
      // Delivered here, inside a clock, and swallowed: the pass (or the timer's handler) runs exactly once, timed.
      m_delivering = event;
      QElapsedTimer clock;
      clock.start();
      QCoreApplication::sendEvent(watched, event);
      const double ms = clock.nsecsElapsed() / 1e6;
      m_delivering = nullptr;
      if (layout) ++m_counts.layoutPasses, m_counts.layoutMs += ms;
      else ++m_counts.timerRuns, m_counts.timerMs += ms;
      noteTime(ms, layout ? "layout pass" : "timer handler");
      return true;
    }
    case QEvent::UpdateRequest: {
      // The window's repaint (offscreen too): every widget marked dirty is painted here, its text laid out again.
      if (event == m_delivering || watched != m_root->window()) break;
      QEvent* outer = std::exchange(m_delivering, event);
      QElapsedTimer clock;
      clock.start();
      QCoreApplication::sendEvent(watched, event);
      ++m_counts.paints;
      m_counts.paintMs += clock.nsecsElapsed() / 1e6;
      noteTime(clock.nsecsElapsed() / 1e6, "repaint");
      m_delivering = outer;
      return true;
    }
    case QEvent::ChildAdded: {
      QObject* child = static_cast<QChildEvent*>(event)->child();
      if (!isUnderRoot(watched)) break;
      if (child->isWidgetType()) {
        ++m_counts.widgetsCreated;
      } else if (qobject_cast<QCustomPlot*>(watched)) {
        // A plottable, an item or a legend key made for this plot (layers and layout elements too; a data update
        // makes none of them).
        ++m_counts.plotObjects;
      }
      break;
    }
    case QEvent::Resize:
      if (qobject_cast<QCustomPlot*>(watched) && isUnderRoot(watched)) ++m_counts.plotResizes;
      break;
    case QEvent::Polish:
      // A plot created after the meter: watched once it is polished, before it first draws.
      if (auto* plot = qobject_cast<QCustomPlot*>(watched); plot && isUnderRoot(plot)) watchPlot(plot);
      break;
    default:
      break;
  }
  return false;
}

#pragma once
// Counts the work a part of the window does on the GUI thread: replots of its plots (and the time they took), the
// layout passes it asked for (LayoutRequest events delivered to it or its children), and the widgets and plot
// objects (graphs, items, legend keys) created under it. A slider step that does what a frame needs updates data and
// replots once; one that relays out the page, rebuilds its keys or remakes its plots shows here as counts, however
// fast or slow the machine. `gpulab bench-gui` reports these per page and per handler; tests/app/test_frame_work.cpp
// puts a ceiling on them. Include qcustomplot.h only in the .cpp.
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>

class QCustomPlot;
class QEvent;
class QWidget;

class FrameWorkMeter : public QObject {
 public:
  struct Counts {
    int replots = 0;         // QCustomPlot::replot() calls that drew (queued ones count when they run)
    double replotMs = 0;     // the time those replots took
    int layoutPasses = 0;    // LayoutRequest events handled by widgets under the root
    double layoutMs = 0;     // the time those passes took (text measured for word-wrapped labels included)
    int timerRuns = 0;       // timers under the root that fired (coalesced redraws, animations)
    double timerMs = 0;      // the time their handlers took, replots and all
    int paints = 0;          // the window repainted (the root's part of it included)
    double paintMs = 0;      // the time those repaints took
    double worstMs = 0;      // the longest single layout pass, timer handler or repaint
    const char* worstWhat = "";  // which of the three it was
    int widgetsCreated = 0;  // widgets added under the root
    int plotObjects = 0;     // graphs, bars, items and legend keys added to the root's plots
    int plotResizes = 0;     // a plot under the root resized (a relayout moved the chart; its buffers are remade)
    Counts& operator+=(const Counts& o);
  };

  // Watches `root` and everything under it (plots added later too) until destroyed.
  explicit FrameWorkMeter(QWidget* root, QObject* parent = nullptr);
  ~FrameWorkMeter() override;

  void reset() { m_counts = {}; }
  Counts counts() const { return m_counts; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool isUnderRoot(const QObject* o) const;
  void watchPlot(QCustomPlot* plot);
  void noteTime(double ms, const char* what);

  QPointer<QWidget> m_root;
  QEvent* m_delivering = nullptr;  // the LayoutRequest or timer event we are delivering ourselves, to time it
  Counts m_counts;
  QHash<QCustomPlot*, QElapsedTimer> m_replotClocks;  // started at beforeReplot, read at afterReplot
};

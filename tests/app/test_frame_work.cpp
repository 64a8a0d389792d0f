// Every slider answers within one frame: dragging a slider does the frame's work once a frame, not once a value.
// Not timed (the CI machines are noisy): counted with FrameWorkMeter. A drag of kSteps values, each delivered with
// its own pass of the event loop as a mouse drag is, may cost a few frames' work — replots, layout passes — but
// never one per value, and no widget or plot object (graph, bars, legend key moved or made) is created for a value.
// A handler that relays out the page, re-flows its keys or rebuilds a plot on every value fails here.
#include "app_test_support.h"
#include "pages/amdahl_page.h"
#include "pages/batch_page.h"
#include "pages/stadium_page.h"
#include "widgets/frame_work_meter.h"

#include "qcustomplot.h"

#include <QAbstractSlider>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>


namespace {

constexpr int kSteps = 20;

struct Ceiling {
  int replots;       // per drag of kSteps values
  int layoutPasses;  // per drag of kSteps values
};

// Drags every slider of `page` through kSteps values and checks each drag's counts against `ceiling`.
void expectOneFrameWork(Page& page, Ceiling ceiling) {
  page.initialize();
  page.resize(1366, 768);
  page.show();
  QTest::qWait(150);  // first layout, first draws
  FrameWorkMeter meter(&page);
  int sliders = 0;
  for (const auto& [key, control] : page.planControls()) {
    auto* slider = qobject_cast<QAbstractSlider*>(control);
    if (!slider || !slider->isEnabled() || !slider->isVisible()) continue;
    ++sliders;
    QTest::qWait(40);  // what the previous drag left pending is not this one's
    meter.reset();
    QElapsedTimer drag;
    drag.start();
    for (int step = 1; step <= kSteps; ++step) {
      slider->setValue(slider->minimum() + (slider->maximum() - slider->minimum()) * step / kSteps);
      QCoreApplication::processEvents();  // each value its own pass of the loop, as a mouse drag delivers it
    }
    // Once a frame means once per value when each value takes a frame to deliver: on a loaded machine (CI under
    // load, sanitizers) the drag spans more frames than the ceiling allows, and only the object counts can judge.
    const int frames = int(drag.elapsed() / 16) + 1;
    QTest::qWait(40);  // the frame's coalesced work runs
    const FrameWorkMeter::Counts c = meter.counts();
    SCOPED_TRACE(key.toStdString());
    if (frames >= kSteps) std::printf("%s: the drag took %d frames; too slow to judge the per-frame counts\n",
                                      qPrintable(key), frames);
    EXPECT_LE(c.replots, std::max(ceiling.replots, std::min(frames, kSteps) + 1)) << "replots for " << kSteps << " values";
    EXPECT_LE(c.layoutPasses, std::max(ceiling.layoutPasses, std::min(frames, kSteps) + 1))
        << "layout passes for " << kSteps << " values";
    EXPECT_EQ(c.widgetsCreated, 0) << "a value made widgets";
    EXPECT_EQ(c.plotObjects, 0) << "a value made (or moved) graphs, items or legend keys";
  }
  EXPECT_GT(sliders, 0);
}

}  // namespace

// The meter sees what it counts: a replot, a layout pass, a plot object.
TEST(FrameWork, MeterCountsWhatHappens) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  page.initialize();
  page.resize(1366, 768);
  page.show();
  QTest::qWait(100);
  FrameWorkMeter meter(&page);
  page.resize(1300, 760);
  QTest::qWait(100);
  EXPECT_GT(meter.counts().layoutPasses, 0);
  meter.reset();
  for (QCustomPlot* p : page.findChildren<QCustomPlot*>()) p->replot();
  EXPECT_EQ(meter.counts().replots, page.findChildren<QCustomPlot*>().size());
}

// Amdahl: three plots; a value redraws at most the plots it feeds, once a frame.
TEST(FrameWork, AmdahlSlidersWorkOnceAFrame) {
  AppContext ctx(noGpu());
  AmdahlPage page(ctx);
  expectOneFrameWork(page, {kSteps / 2, kSteps - 1});
}

// The stadium: an animation and a strip of counters; the counters' texts are set once a frame.
TEST(FrameWork, StadiumSlidersWorkOnceAFrame) {
  AppContext ctx(noGpu());
  StadiumPage page(ctx);
  expectOneFrameWork(page, {0, kSteps - 1});
}

// The batch sweep: a value moves the model's curve and the planned sizes' sentence once a frame; the plot keeps its
// graphs and items (a value moves their data), and the small roofline is not rebuilt for roofs it already shows.
TEST(FrameWork, BatchSlidersWorkOnceAFrame) {
  AppContext ctx(noGpu());
  BatchPage page(ctx);
  expectOneFrameWork(page, {kSteps / 2, kSteps - 1});
}

// Results arriving during a sweep: the sweep plot is redrawn with the objects it has. Only what the picture gains
// once (the model's curve and its keys when the bandwidth arrives, the spread bars, the labels' items) is made;
// a redraw that clears and remakes its graphs, keys and items makes that many again for every result.
TEST(FrameWork, BatchResultsReuseThePlot) {
  AppContext ctx(noGpu());
  BatchPage page(ctx);
  page.initialize();
  page.resize(1366, 768);
  page.show();
  QTest::qWait(150);
  page.setDims(256, 256);
  page.setMaxBatch(64);  // seven sizes and the bandwidth: eight results
  QTest::qWait(40);
  FrameWorkMeter meter(page.sweepPlot());
  page.run();
  QElapsedTimer t;
  t.start();
  while (ctx.runner().isBusy() && t.elapsed() < 60000) {
    ctx.runner().waitForIdle(20);
    QCoreApplication::processEvents();
  }
  QTest::qWait(60);
  ASSERT_GE(page.sweep().size(), 2);
  const FrameWorkMeter::Counts c = meter.counts();
  EXPECT_GE(c.replots, 2) << "the sweep drew as it went";
  // At most one redraw per result, the run's end, and a few from progress and layout when the machine is loaded.
  EXPECT_LE(c.replots, int(page.sweep().size()) + 5) << "at most one redraw per result (and the run's end)";
  EXPECT_LE(c.plotObjects, 8) << "plot objects made over " << page.sweep().size() << " results and " << c.replots
                              << " redraws";
}

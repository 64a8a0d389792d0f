// The Roofline page's measured roofs (issue 27): every device of a recording gets its FMA roof (solid: a recorded
// measurement, not a datasheet) and its overhead floor (a flat line for a 1 MFLOP op), a device without a datasheet
// (lavapipe) included; the summary names the floor and the work below which an op is overhead-bound. And the chart
// keeps its graphs across redraws (issue 24): redrawing the same picture, or a smaller one, makes no new graph.
#include "app_context.h"
#include "gpulab/recording.hpp"
#include "pages/roofline/roofline_page.h"
#include "qcustomplot.h"
#include "widgets/roofline_plot.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

const std::string k_lavapipe = "Vulkan on the CPU (llvmpipe) — not a GPU";

gpulab::Result roof(const char* experiment, const std::string& backend, const std::string& device,
                    gpulab::Precision p, double gflops, double elements, double seconds) {
  gpulab::Result r;
  r.experiment = experiment;
  r.backend = backend;
  r.variant = std::string(experiment) == "peak" ? "fma" : elements == 0 ? "empty" : "elementwise";
  r.precision = p;
  r.check.passed = true;
  r.check.checked = 64;
  r.provenance = {{"device", device}, {"date", "2026-12-03T12:00:00Z"}};
  if (backend == "vulkan") r.provenance["device_type"] = "CPU (not a GPU)";
  if (std::string(experiment) == "peak") {
    r.params = {{"chains", 8}, {"lanes", 4}, {"iterations", 1000}, {"invocations", 16384}};
    r.flops = gflops * 1e9 * 0.02;
    r.bytes = 65536;
    r.stats.median_s = r.stats.min_s = r.stats.max_s = r.stats.mean_s = 0.02;
  } else {
    r.params = {{"elements", elements}, {"graph", 0}, {"per_op_s", seconds}};
    r.flops = 2 * elements;
    r.bytes = 12 * elements;
    r.stats.median_s = r.stats.min_s = r.stats.max_s = r.stats.mean_s = seconds;
  }
  r.stats.n = 3;
  r.samples_s.assign(3, r.stats.median_s);
  gpulab::finalize_rates(r);
  return r;
}

void settle() {
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

}  // namespace

TEST(RooflineRoofs, EveryRecordedDeviceGetsItsMeasuredRoofsAndFloor) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  gpulab::Recording rec;
  rec.context = {{"cpu", "AMD EPYC 9B14"}, {"gpu", k_lavapipe}, {"date", "2026-12-03T12:00:00Z"}, {"suite", "roofs"}};
  using gpulab::Precision;
  rec.results.push_back(roof("peak", "cpu", "AMD EPYC 9B14", Precision::fp32, 230, 0, 0));
  rec.results.push_back(roof("overhead", "cpu", "AMD EPYC 9B14", Precision::fp32, 0, 0, 2e-6));
  rec.results.push_back(roof("peak", "vulkan", k_lavapipe, Precision::fp32, 60, 0, 0));
  rec.results.push_back(roof("overhead", "vulkan", k_lavapipe, Precision::fp32, 0, 0, 25e-6));
  rec.results.push_back(roof("overhead", "vulkan", k_lavapipe, Precision::fp32, 0, 4096, 30e-6));
  const QString path = QDir(dir.path()).filePath(QStringLiteral("roofs.json"));
  gpulab::save_recording(rec, path.toStdString());

  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  RooflinePage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  QString error;
  ASSERT_TRUE(ctx.openRecording(path, &error)) << error.toStdString();
  settle();
  page.refreshNow();

  int fmaRoofs = 0, floors = 0;
  for (const auto& r : page.roofline()->roofs()) {
    if (r.label.contains(QStringLiteral("FMA peak")) && r.kind == SeriesKind::Recorded) {
      ++fmaRoofs;
      // The CPU's roof is not said to be "recorded on" lavapipe (the recording's label names the Vulkan device).
      if (r.label.startsWith(QStringLiteral("AMD EPYC")))
        EXPECT_FALSE(r.label.contains(QStringLiteral("llvmpipe"))) << r.label.toStdString();
      // The CPU's roofs name it; lavapipe's are named by the recording's label ("recorded on Vulkan on the CPU").
      EXPECT_NEAR(r.peakFlops, r.label.startsWith(QStringLiteral("AMD EPYC")) ? 230e9 : 60e9, 1e8)
          << r.label.toStdString();
    }
    if (r.label.contains(QStringLiteral("overhead"))) {
      ++floors;
      EXPECT_EQ(r.kind, SeriesKind::Model);  // worked out from the measured floor for one size of op
      EXPECT_EQ(r.bandwidth, 0);             // flat: the floor binds whatever the intensity
      EXPECT_NEAR(r.peakFlops, r.label.startsWith(QStringLiteral("AMD EPYC")) ? 1e6 / 2e-6 : 1e6 / 25e-6, 1e6)
          << r.label.toStdString();
    }
    // lavapipe is no GPU: never a GPU's datasheet roof in its name.
    if (r.kind == SeriesKind::Datasheet) EXPECT_FALSE(r.label.contains(QStringLiteral("llvmpipe"))) << r.label.toStdString();
  }
  EXPECT_EQ(fmaRoofs, 2);  // the CPU's and lavapipe's, from the recording
  EXPECT_EQ(floors, 2);
  const QString summary = page.summaryText();
  EXPECT_TRUE(summary.contains(QStringLiteral("overhead floor"))) << summary.toStdString();
  // lavapipe: 25 µs × 60 GFLOP/s = 1.5 MFLOP below which an op is overhead-bound; the CPU: 2 µs × 230 GFLOP/s.
  EXPECT_TRUE(summary.contains(QStringLiteral("1.50 MFLOP"))) << summary.toStdString();
  EXPECT_TRUE(summary.contains(QStringLiteral("460 kFLOP"))) << summary.toStdString();
  // The start-up FMA estimate is not drawn for a CPU measured in a recording only when it is this CPU's; here
  // the measured-here CPU has no peak result, so the dotted one may stay: only its kind is checked.
  for (const auto& r : page.roofline()->roofs())
    if (r.label.contains(QStringLiteral("register FMA loop"))) EXPECT_EQ(r.kind, SeriesKind::Model);
}

TEST(RooflineRoofs, RedrawsReuseTheirGraphs) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  RooflinePlot plot;
  plot.resize(900, 600);
  QVector<RooflinePlot::Roof> roofs;
  for (int i = 0; i < 4; ++i) {
    RooflinePlot::Roof r;
    r.label = QStringLiteral("roof %1").arg(i);
    r.peakFlops = 1e11 * (i + 1);
    r.bandwidth = 1e10;
    r.color = Qt::blue;
    roofs << r;
  }
  QVector<RooflinePlot::Point> points;
  for (int i = 0; i < 6; ++i) {
    RooflinePlot::Point p;
    p.intensity = 0.5 * (i + 1);
    p.flops = 1e9 * (i + 1);
    p.group = i % 2 ? QStringLiteral("a") : QStringLiteral("b");
    points << p;
  }
  plot.setRoofs(roofs);
  plot.setPoints(points);
  plot.rebuildNow();
  const int made = plot.graphsCreated();
  EXPECT_GT(made, 0);
  for (int i = 0; i < 5; ++i) plot.rebuildNow();
  EXPECT_EQ(plot.graphsCreated(), made);  // the same picture: no graph made again
  roofs.removeLast();
  plot.setRoofs(roofs);
  plot.rebuildNow();
  EXPECT_EQ(plot.graphsCreated(), made);  // a smaller picture: spare graphs hidden, none made
  int visible = 0;
  for (int i = 0; i < plot.plot()->graphCount(); ++i) visible += plot.plot()->graph(i)->visible();
  EXPECT_LT(visible, plot.plot()->graphCount());
  // The legend lists only what is drawn: three roofs and two point groups.
  EXPECT_EQ(plot.plot()->legend->itemCount(), 5);
}

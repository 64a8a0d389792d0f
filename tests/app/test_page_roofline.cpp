// The Roofline page offscreen: datasheet roofs from the catalogue, a recording's points and measured ceilings
// labelled "recorded on …", tooltips with provenance, CSV export.
#include "app_context.h"
#include "gpulab/page_plans.hpp"
#include "gpulab/recording.hpp"
#include "pages/roofline/roofline_page.h"
#include "qcustomplot.h"
#include "widgets/roofline_plot.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <set>

namespace {

gpulab::Result recordedGemm(gpulab::Precision p, long long m, double tflops) {
  gpulab::Result r;
  r.experiment = "gemm";
  r.backend = "cuda";
  r.variant = "cublas";
  r.precision = p;
  r.params = {{"m", double(m)}, {"n", 8192}, {"k", 8192}};
  r.flops = 2.0 * m * 8192 * 8192;
  r.bytes = (double(m) * 8192 + 8192.0 * 8192 + double(m) * 8192) * gpulab::bytes_per_element(p);
  r.stats.median_s = r.flops / (tflops * 1e12);
  r.stats.min_s = r.stats.max_s = r.stats.mean_s = r.stats.median_s;
  r.stats.n = 5;
  r.samples_s.assign(5, r.stats.median_s);
  r.check.passed = true;
  r.check.checked = 4096;
  r.provenance = {{"device", "NVIDIA H200"}, {"date", "2026-11-30T10:00:00Z"}, {"backend", "cuda"}};
  gpulab::finalize_rates(r);
  return r;
}

void settle() {
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

}  // namespace

TEST(RooflinePage, DatasheetRoofsFollowTheCatalogueAndPrecision) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  RooflinePage page(ctx);
  page.initialize();
  page.setPrecision(gpulab::Precision::fp16);
  page.setCatalogueGpu(QStringLiteral("H100 SXM"));
  bool found = false;
  for (const auto& r : page.roofline()->roofs())
    if (r.label.contains(QStringLiteral("H100 SXM")) && r.kind == SeriesKind::Datasheet) {
      found = true;
      EXPECT_NEAR(r.ridge(), 989.4e12 / 3350e9, 0.5);  // the lesson's "roughly 300"
    }
  EXPECT_TRUE(found);
  EXPECT_TRUE(page.summaryText().contains(QStringLiteral("295"))) << page.summaryText().toStdString();
  page.setCatalogueGpu(QString());
  for (const auto& r : page.roofline()->roofs()) EXPECT_FALSE(r.label.contains(QStringLiteral("H100 SXM")));
  ASSERT_EQ(page.plots().size(), 1);
  EXPECT_TRUE(page.plots().front().csv().startsWith(QStringLiteral("type,label")));
  EXPECT_FALSE(page.lesson().questions.isEmpty());
  EXPECT_NEAR(page.lesson().exercises.front().compute(), 295.3, 0.5);
}

TEST(RooflinePage, RecordingPointsAndCeilingsAppear) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  gpulab::Recording rec;
  rec.context = {{"gpu", "NVIDIA H200"}, {"date", "2026-11-30T10:00:00Z"}, {"suite", "test"}};
  rec.results.push_back(recordedGemm(gpulab::Precision::bf16, 8192, 780));
  rec.results.push_back(recordedGemm(gpulab::Precision::bf16, 1, 2.1));
  rec.results.push_back(recordedGemm(gpulab::Precision::fp32, 8192, 50));
  gpulab::Result bw;
  bw.experiment = "bandwidth";
  bw.backend = "cuda";
  bw.variant = "triad";
  bw.precision = gpulab::Precision::fp64;
  bw.params = {{"bytes", double(1 << 30)}};
  bw.bytes = 3.0 * (1 << 30);
  bw.flops = 2.0 * (1 << 27);
  bw.stats.median_s = bw.bytes / 4.3e12;
  bw.stats.min_s = bw.stats.max_s = bw.stats.mean_s = bw.stats.median_s;
  bw.stats.n = 3;
  bw.samples_s.assign(3, bw.stats.median_s);
  bw.check.passed = true;
  bw.provenance = {{"device", "NVIDIA H200"}, {"date", "2026-11-30T10:01:00Z"}};
  gpulab::finalize_rates(bw);
  rec.results.push_back(bw);
  // The same triad on arrays that fit in L2 runs faster; the memory roof must still be the 1 GiB one.
  gpulab::Result cached = bw;
  cached.params = {{"bytes", double(4 << 20)}};
  cached.bytes = 3.0 * (4 << 20);
  cached.flops = 2.0 * (1 << 20);
  cached.stats.median_s = cached.bytes / 9e12;
  cached.stats.min_s = cached.stats.max_s = cached.stats.mean_s = cached.stats.median_s;
  cached.samples_s.assign(3, cached.stats.median_s);
  gpulab::finalize_rates(cached);
  rec.results.push_back(cached);
  const QString path = QDir(dir.path()).filePath(QStringLiteral("h200.json"));
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
  page.setPrecision(gpulab::Precision::bf16);

  int recordedPoints = 0;
  for (const auto& p : page.roofline()->points()) {
    if (!p.recorded) continue;
    ++recordedPoints;
    EXPECT_TRUE(p.tooltip.contains(QStringLiteral("H200"))) << p.tooltip.toStdString();
    EXPECT_TRUE(p.tooltip.contains(QStringLiteral("2026-11-30"))) << p.tooltip.toStdString();
    EXPECT_TRUE(p.group.contains(QStringLiteral("recorded"))) << p.group.toStdString();
  }
  EXPECT_EQ(recordedPoints, 5);  // three GEMMs and the two triads

  bool measuredRoof = false, datasheetRoof = false;
  for (const auto& r : page.roofline()->roofs()) {
    if (r.kind == SeriesKind::Recorded && r.label.contains(QStringLiteral("BF16")) &&
        r.label.contains(QStringLiteral("recorded"))) {
      measuredRoof = true;
      EXPECT_NEAR(r.peakFlops, 780e12, 1e12);
      EXPECT_NEAR(r.bandwidth, 4.3e12, 1e10);  // the DRAM-sized triad, not the faster L2-sized one
    }
    if (r.kind == SeriesKind::Datasheet && r.label.contains(QStringLiteral("H200 SXM"))) datasheetRoof = true;
  }
  EXPECT_TRUE(measuredRoof);
  EXPECT_TRUE(datasheetRoof);  // the recorded GPU's own datasheet, found by name

  // The tooltip of the BF16 8192 point, looked up at its pixel.
  page.roofline()->rebuildNow();
  QCustomPlot* plot = page.roofline()->plot();
  const double I = 8192.0 * 8192 * 8192 * 2 / ((3.0 * 8192 * 8192) * 2);
  const QPoint px(int(plot->xAxis->coordToPixel(I)), int(plot->yAxis->coordToPixel(780e12)));
  const QString tip = page.roofline()->tooltipAt(px);
  EXPECT_TRUE(tip.contains(QStringLiteral("BF16"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("8,192"))) << tip.toStdString();

  // Hiding recordings takes them off again.
  ctx.results().clearRecordings();
  settle();
  page.refreshNow();
  for (const auto& p : page.roofline()->points()) EXPECT_FALSE(p.recorded);
}

// The bench's roofline suite is the page's "Measure ceilings": the same jobs, so the same set of results.
TEST(RooflinePage, DefaultPlanIsTheBenchSuite) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  RooflinePage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("roofline", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  // A triad and at least the CPU's FP32 and FP64 GEMMs.
  EXPECT_GE(fromPage.size(), 3u);
  for (const auto& j : page.plan().jobs) EXPECT_EQ(j.plan, "roofline");
}

// The Precision page offscreen: unsupported formats greyed with the backend's reason, a run fills throughput and
// error for the CPU's formats, the underflow tab counts lost updates, two recordings are two sources.
#include "app/badge_probe.h"
#include "app_context.h"
#include "pages/precision/precision_page.h"
#include "qcustomplot.h"
#include "widgets/source_badge.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMap>
#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

#include <set>

using gpulab::Precision;

namespace {
void waitIdle(AppContext& ctx, int ms) {
  QElapsedTimer t;
  t.start();
  while (ctx.runner().isBusy() && t.elapsed() < ms) {
    ctx.runner().waitForIdle(50);
    QCoreApplication::processEvents();
  }
  for (int i = 0; i < 10; ++i) QCoreApplication::processEvents();
}
}  // namespace

TEST(PrecisionPage, CpuFormatsAndReasons) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  PrecisionPage page(ctx);
  page.initialize();
  ASSERT_EQ(page.rows().size(), 7);
  EXPECT_TRUE(page.row(Precision::fp32).supported);
  EXPECT_TRUE(page.row(Precision::fp64).supported);
  for (Precision p : {Precision::tf32, Precision::fp16, Precision::bf16, Precision::int8, Precision::fp8}) {
    gpulab::GemmSpec s;
    s.precision = p;
    const auto sup = ctx.cpu().supports(s);
    EXPECT_EQ(page.row(p).supported, sup.ok);
    if (!sup.ok) EXPECT_EQ(page.row(p).reason, sup.reason);
  }
}

TEST(PrecisionPage, RunFillsThroughputAndError) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  PrecisionPage page(ctx);
  page.initialize();
  page.setSize(256);
  page.run();
  waitIdle(ctx, 120000);
  ASSERT_FALSE(ctx.runner().isBusy());
  EXPECT_GT(page.row(Precision::fp32).flopsPerS, 0);
  EXPECT_GT(page.row(Precision::fp64).flopsPerS, 0);
  EXPECT_GE(page.row(Precision::fp32).checkMaxAbs, 0);
  EXPECT_EQ(page.row(Precision::fp8).flopsPerS, 0);  // not on a CPU
  // Errors for all seven, ordered as the formats' mantissas say.
  for (const auto& r : page.rows()) EXPECT_GE(r.relFro, 0) << gpulab::display_name(r.precision);
  EXPECT_LT(page.row(Precision::fp64).relFro, 1e-13);
  EXPECT_LT(page.row(Precision::fp32).relFro, page.row(Precision::fp16).relFro);
  EXPECT_LT(page.row(Precision::fp16).relFro, page.row(Precision::bf16).relFro);
  EXPECT_LT(page.row(Precision::bf16).relFro, page.row(Precision::fp8).relFro);
  const QString csv = page.plots().front().csv();
  EXPECT_EQ(csv.count(QLatin1Char('\n')), 8);
}

TEST(PrecisionPage, UnderflowDemoCountsLostUpdates) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  PrecisionPage page(ctx);
  page.initialize();
  const auto* plain = page.underflow().find(gpulab::UnderflowMethod::fp16_plain);
  const auto* bf16 = page.underflow().find(gpulab::UnderflowMethod::bf16_plain);
  const auto* scaled = page.underflow().find(gpulab::UnderflowMethod::fp16_static_scale);
  ASSERT_TRUE(plain && bf16 && scaled);
  EXPECT_GT(plain->total_lost, page.underflow().spec.count / 20);
  EXPECT_EQ(bf16->total_lost, 0);
  EXPECT_EQ(scaled->total_lost, 0);
  EXPECT_TRUE(page.underflowSummary().contains(QStringLiteral("FP16 without loss scaling")));
  // A too-small loss scale with tinier gradients loses some again.
  page.setGradientRange(-12, -6);
  page.setLossScale(8);
  page.recomputeUnderflow();
  EXPECT_GT(page.underflow().find(gpulab::UnderflowMethod::fp16_static_scale)->total_lost, 0);
  EXPECT_EQ(page.underflow().find(gpulab::UnderflowMethod::bf16_plain)->total_lost, 0);
  ASSERT_EQ(page.plots().size(), 2);
  EXPECT_TRUE(page.plots()[1].csv().startsWith(QStringLiteral("bin_lo")));
}

// The bench's precision suite is the page's default plan: the same jobs, so the same set of results.
TEST(PrecisionPage, DefaultPlanIsTheBenchSuite) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  PrecisionPage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("precision", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  page.setSize(256);  // another size is another plan
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_NE(fromPage, fromSuite);
}

// Two recordings open at once are two sources: each format's row has a hollow bar per recording that ran it (the
// slower machine's too), in a bar set named by its recording, with its own look and its own badge.
TEST(PrecisionPage, TwoRecordingsAreTwoSourcesEachWithItsBarsLookAndBadge) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  PrecisionPage page(ctx);
  page.initialize();
  page.resize(1600, 1000);
  page.show();
  auto recording = [](const std::string& device, double scale) {
    gpulab::Recording rec;
    rec.context["cpu"] = device;
    rec.context["gpu"] = "none";
    rec.context["date"] = "2026-11-30";
    for (auto [p, gflops] : {std::pair{Precision::fp64, 104.0}, std::pair{Precision::fp32, 208.0}}) {
      gpulab::Result r;
      r.experiment = "gemm";
      r.plan = gpulab::plan_name::precision;
      r.backend = "cpu";
      r.variant = "blas";
      r.precision = p;
      r.params = {{"m", 1024}, {"n", 1024}, {"k", 1024}};
      r.check.passed = true;
      r.check.checked = 10;
      r.gflops = gflops * scale;
      rec.results.push_back(r);
    }
    return rec;
  };
  ctx.results().addRecording(QStringLiteral("/tmp/fast.json"), recording("Fast Box", 1.0));
  ctx.results().addRecording(QStringLiteral("/tmp/slow.json"), recording("Slow Box", 0.5));
  for (int i = 0; i < 10; ++i) QCoreApplication::processEvents();
  const auto& fp64 = page.row(Precision::fp64).recorded;
  ASSERT_EQ(fp64.size(), 2u);
  EXPECT_DOUBLE_EQ(fp64[0].flops, 104e9);
  EXPECT_DOUBLE_EQ(fp64[1].flops, 52e9);  // not hidden behind the faster machine's
  page.showView(PrecisionPage::View::speed);
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < 200) QCoreApplication::processEvents();
  const QString fast = ctx.results().sourceLabel(0), slow = ctx.results().sourceLabel(1);
  QMap<QString, int> barsByName;
  QMap<QString, Qt::PenStyle> outline;
  for (int i = 0; i < page.summaryPlot()->plottableCount(); ++i)
    if (auto* bars = qobject_cast<QCPBars*>(page.summaryPlot()->plottable(i)); bars && bars->name().contains(QStringLiteral("recorded on"))) {
      barsByName[bars->name()] += bars->data()->size();
      outline[bars->name()] = bars->pen().style();
    }
  EXPECT_EQ(barsByName.value(fast), 2);  // FP64 and FP32
  EXPECT_EQ(barsByName.value(slow), 2);
  EXPECT_EQ(barsByName.size(), 2);
  EXPECT_EQ(outline.value(fast), Qt::SolidLine);
  EXPECT_EQ(outline.value(slow), Qt::DashLine);
  const QStringList recordedBadges = recordedBadgeTexts(&page);
  ASSERT_EQ(recordedBadges.size(), 2) << recordedBadges.join(QStringLiteral(" | ")).toStdString();
  EXPECT_EQ(recordedBadges.filter(QStringLiteral("Fast Box")).size(), 1);
  EXPECT_EQ(recordedBadges.filter(QStringLiteral("Slow Box")).size(), 1);
  // The export: a column per recording, named by it.
  const QString header = page.plots().front().csv().section(QLatin1Char('\n'), 0, 0);
  EXPECT_TRUE(header.contains(QStringLiteral("flop_per_s ") + fast)) << header.toStdString();
  EXPECT_TRUE(header.contains(QStringLiteral("flop_per_s ") + slow)) << header.toStdString();
}

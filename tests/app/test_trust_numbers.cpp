// Issue 13, "numbers a class can trust": the CSV behind a plot holds every series it draws with its source, the
// decode page names what really ran and reads its verdict off the curve it draws, "measured here" badges only
// over things measured here, and the host memcpy headline from a DRAM-sized copy.
#include "app_test_support.h"
#include "widgets/plot_csv.h"
#include "pages/amdahl/amdahl_page.h"
#include "pages/batch/batch_page.h"
#include "pages/decode/decode_page.h"
#include "pages/matmul/matmul_page.h"
#include "pages/pcie/pcie_page.h"
#include "widgets/source_badge.h"

#include "qcustomplot.h"

#include <QDir>
#include <QTest>
#include <gtest/gtest.h>

namespace {
// Cleaned before use: tests/data need not exist for ".." to lead back to the repository.
const QString k_bundled =
    QDir::cleanPath(QStringLiteral(GPULAB_TEST_DATA_DIR "/../../resources/recordings/cpu-amd-epyc-2vcpu-vm-2026-12-01.json"));

void openBundled(AppContext& ctx) {
  QString error;
  ASSERT_TRUE(ctx.openRecording(k_bundled, &error)) << error.toStdString();
  QTest::qWait(100);  // pages redraw 30 ms after the last change
}

// Badges that would be on screen once the page is shown (the page itself is not shown in these tests).
int shownMeasuredHereBadges(const QWidget& page) {
  int n = 0;
  for (const SourceBadge* b : page.findChildren<SourceBadge*>())
    n += !b->isHidden() && b->kind() == SourceBadge::Kind::MeasuredHere;
  return n;
}
}  // namespace

TEST(TrustNumbers, BatchCsvHoldsTheRecordedSweepItDraws) {
  AppContext ctx(noGpu());
  BatchPage page(ctx);
  page.initialize();
  openBundled(ctx);
  const QString csv = page.plots().front().csv();
  const QStringList missing = seriesMissingFromCsv(page.sweepPlot(), csv);
  EXPECT_TRUE(missing.isEmpty()) << missing.join(QStringLiteral(" | ")).toStdString() << "\n" << csv.toStdString();
  // B = 1 … 1024 of the recorded sweep, each row saying where it came from (a quoted field: the label has a comma).
  EXPECT_GE(csv.count(QStringLiteral(",\"recorded on AMD EPYC, 2026-12-01\",")), 11) << csv.toStdString();
  EXPECT_FALSE(csv.contains(QStringLiteral("untagged"))) << csv.toStdString();
  // Nothing was measured here: no "measured here" badge, one for the recording.
  EXPECT_EQ(shownMeasuredHereBadges(page), 0);
}

TEST(TrustNumbers, DecodeSaysWhatRanAndItsVerdictFollowsTheCurve) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  openBundled(ctx);
  QCustomPlot* plot = page.batchPlot();
  // The bundled chain ran 2 of 32 layers: the plot says so.
  bool scaleNamed = false;
  const QCPGraph* perUser = nullptr;
  for (int i = 0; i < plot->graphCount(); ++i) {
    scaleNamed = scaleNamed || plot->graph(i)->name().contains(QStringLiteral("2 of 32 layers run, time scaled ×16"));
    if (plot->graph(i)->name().startsWith(QStringLiteral("per user"))) perUser = plot->graph(i);
  }
  EXPECT_TRUE(scaleNamed);
  ASSERT_NE(perUser, nullptr);
  // The verdict agrees with the per-user curve: "memory-bound" only while each user keeps 80 % of batch 1's speed.
  const double first = perUser->data()->constBegin()->value, last = (perUser->data()->constEnd() - 1)->value;
  const QString text = page.chainText();
  if (last < 0.8 * first) EXPECT_FALSE(text.contains(QStringLiteral("memory-bound"))) << text.toStdString();
  else EXPECT_TRUE(text.contains(QStringLiteral("memory-bound"))) << text.toStdString();
  // The chain ran in FP32: the ceiling bars have an FP32 group named as the chain's, beside FP16/INT8/INT4.
  EXPECT_TRUE(page.plots()[0].csv().contains(QStringLiteral("FP32 (the chain's)"))) << page.plots()[0].csv().toStdString();
  const QString csv = page.plots()[1].csv();
  EXPECT_TRUE(seriesMissingFromCsv(plot, csv).isEmpty()) << csv.toStdString();
  EXPECT_EQ(shownMeasuredHereBadges(page), 0);
}

TEST(TrustNumbers, NoMeasuredHereBadgeBeforeAnythingIsMeasured) {
  AppContext ctx(noGpu());
  MatmulPage matmul(ctx);
  AmdahlPage amdahl(ctx);
  BatchPage batch(ctx);
  for (Page* p : std::initializer_list<Page*>{&matmul, &amdahl, &batch}) p->initialize();
  QTest::qWait(100);
  EXPECT_EQ(shownMeasuredHereBadges(matmul), 0);
  EXPECT_EQ(shownMeasuredHereBadges(amdahl), 0);
  EXPECT_EQ(shownMeasuredHereBadges(batch), 0);
  openBundled(ctx);  // a recording is not "measured here" either
  EXPECT_EQ(shownMeasuredHereBadges(matmul), 0);
  EXPECT_EQ(shownMeasuredHereBadges(amdahl), 0);
}

TEST(TrustNumbers, BadgeNeverStacksMeasuredHere) {
  EXPECT_EQ(SourceBadge::textFor(SourceBadge::Kind::MeasuredHere, QStringLiteral("measured here")),
            QStringLiteral("measured here"));
  EXPECT_EQ(SourceBadge::textFor(SourceBadge::Kind::MeasuredHere, QStringLiteral("chain (solid)")),
            QStringLiteral("measured here · chain (solid)"));
}

TEST(TrustNumbers, HostMemcpyHeadlineComesFromTheDramSizedCopy) {
  AppContext ctx(noGpu());
  PciePage page(ctx);
  page.initialize();
  // A 64 KiB copy stays in cache (122 GB/s); a 1 GiB one goes RAM to RAM (9.5 GB/s).
  for (auto [bytes, gbs] : {std::pair{65536.0, 122.0}, std::pair{double(1 << 30), 9.5}}) {
    gpulab::Result r;
    r.experiment = "transfer";
    r.backend = "cpu";
    r.variant = "h2h";
    r.params = {{"bytes", bytes}};
    r.check.passed = true;
    r.stats.median_s = bytes / (gbs * 1e9);
    r.stats.n = 3;
    r.bytes = bytes;
    r.gbps = gbs;
    ctx.results().addMeasured(r);
  }
  page.recordingsChanged();  // results added outside a run: redraw as after a run
  QTest::qWait(100);
  const QString text = page.summaryText();
  EXPECT_TRUE(text.contains(QStringLiteral("9.5"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("122"))) << text.toStdString();
}

TEST(TrustNumbers, EveryPlotsCsvHoldsEverySeriesItDraws) {
  AppContext ctx(noGpu());
  MatmulPage matmul(ctx);
  BatchPage batch(ctx);
  DecodePage decode(ctx);
  AmdahlPage amdahl(ctx);
  const std::initializer_list<Page*> pages{&matmul, &batch, &decode, &amdahl};
  for (Page* p : pages) p->initialize();
  openBundled(ctx);
  for (Page* p : pages)
    for (const PlotExport& e : p->plots()) {
      if (!e.plot || !e.csv) continue;
      const QStringList missing = seriesMissingFromCsv(e.plot, e.csv());
      EXPECT_TRUE(missing.isEmpty()) << p->pageId().toStdString() << "/" << e.id.toStdString() << " leaves out: "
                                     << missing.join(QStringLiteral(" | ")).toStdString();
    }
}

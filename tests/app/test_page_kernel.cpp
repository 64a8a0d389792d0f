// "Inside the kernel": the page traces the ladder on the CPU emulator through the shared runner, shows the check,
// fills the per-step table with all seven steps, names the block that computed a cell when it is hovered, and offers
// its plots for export. Without a tracer in the build it says why instead of running.
#include "app_test_support.h"
#include "export/export_cleanup.h"
#include "main_window.h"
#include "pages/kernel/kernel_page.h"
#include "widgets/kernel_views.h"

#include <QTableWidget>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>

namespace {

// Waits for the page's run to end and its results to arrive on the GUI thread.
void waitForRun(KernelPage& page, int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (page.isRunning() && t.elapsed() < timeoutMs) QTest::qWait(20);
  QTest::qWait(80);  // the finished signal and the coalesced redraw
}

}  // namespace

TEST(KernelPage, TracesAllSevenStepsThroughTheRunnerAndChecksThem) {
  AppContext ctx(noGpu());
  KernelPage page(ctx);
  page.initialize();
  page.resize(1366, 700);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  if (!gpulab::emu::kernel_tracing_available()) {
    EXPECT_FALSE(page.canRun());
    page.run();  // says why; never crashes
    EXPECT_EQ(page.tracedStepCount(), 0);
    GTEST_SKIP() << "this build has no traced kernels (no clang++)";
  }
  // 64×64×32: the naive and coalesced kernels (32×32 threads per block) have 2×2 blocks.
  page.setShape(64, 64, 32);
  page.setTraceAll(true);
  page.setStep(QStringLiteral("01_naive"));
  page.run();
  EXPECT_TRUE(page.isRunning());
  waitForRun(page, 120000);
  ASSERT_FALSE(page.isRunning());
  EXPECT_EQ(page.tracedStepCount(), 7);
  EXPECT_TRUE(page.checkText().contains(QStringLiteral("passed"))) << page.checkText().toStdString();
  EXPECT_TRUE(page.checkText().contains(QStringLiteral("7 of 7"))) << page.checkText().toStdString();
  ASSERT_EQ(page.table()->rowCount(), 7);
  for (int r = 0; r < 7; ++r) EXPECT_EQ(page.table()->item(r, 1)->text(), QStringLiteral("passed"));
  // The ladder's trend: each later step asks for fewer bytes per FLOP than naive.
  const auto rows = page.stepRows();
  ASSERT_EQ(rows.size(), 7u);
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_LT(rows[i].bytes_per_flop, rows[0].bytes_per_flop) << rows[i].step;
  EXPECT_DOUBLE_EQ(rows[0].sectors_per_request > 0 ? 1.0 : 0.0, 1.0);

  // Who computes what: naive numbers threadIdx.x along rows, so C[40, 10] is block (1, 0), thread x 8, y 10 →
  // thread 8 + 32·10 = 328: warp 10, lane 8.
  page.views()->setCurrentWidget(page.ownerView());
  QTest::qWait(50);
  OwnerView* view = page.ownerView();
  const QRectF cell = view->cellRect(40, 10);
  ASSERT_FALSE(cell.isEmpty());
  QTest::mouseMove(view, cell.center().toPoint());
  QTest::qWait(30);
  EXPECT_EQ(view->hoveredCell(), QPoint(40, 10));
  const QString naive = view->describeCell(40, 10);
  EXPECT_TRUE(naive.contains(QStringLiteral("block (1, 0)"))) << naive.toStdString();
  EXPECT_TRUE(naive.contains(QStringLiteral("warp 10, lane 8"))) << naive.toStdString();
  // Coalesced swaps the roles: blockIdx.x walks columns, so the same cell is block (0, 1), linear 2.
  page.setStep(QStringLiteral("02_coalesced"));
  QTest::qWait(50);
  const QString coalesced = view->describeCell(40, 10);
  EXPECT_TRUE(coalesced.contains(QStringLiteral("block (0, 1)"))) << coalesced.toStdString();
  EXPECT_TRUE(coalesced.contains(QStringLiteral("block 2"))) << coalesced.toStdString();

  // One warp's load: naive's A loads need one sector per lane; coalesced B's four per warp.
  page.setStep(QStringLiteral("01_naive"));
  auto naiveTrace = page.trace(QStringLiteral("01_naive"));
  ASSERT_TRUE(naiveTrace);
  for (std::size_t i = 0; i < naiveTrace->instructions.size(); ++i)
    if (naiveTrace->instructions[i].name == "load A") page.setInstruction(int(i));
  page.setWarp(0);
  EXPECT_EQ(page.warpLoadView()->request().sector_count, 32);
  EXPECT_EQ(page.warpLoadView()->request().lanes.size(), 32u);

  // Step through time: block 0's frames exist and the animation runs only while visible.
  page.setStep(QStringLiteral("03_shared_tiles"));
  QTest::qWait(50);
  EXPECT_GT(page.timelineView()->frameCount(), 1);
  page.views()->setCurrentWidget(page.timelineView()->parentWidget());
  QTest::qWait(100);
  EXPECT_TRUE(page.timelineView()->isAnimating());
  page.views()->setCurrentIndex(0);
  QTest::qWait(30);
  EXPECT_FALSE(page.timelineView()->isAnimating());

  // The CSV behind the table: a header and one row per step.
  QString csv;
  for (const PlotExport& p : page.plots())
    if (p.id == QStringLiteral("steps")) csv = p.csv();
  EXPECT_EQ(csv.count(QLatin1Char('\n')), 8);
  EXPECT_TRUE(csv.contains(QStringLiteral("traced on the CPU emulator")));

  // The table never scrolls sideways: on a wide page it shows every column; on a narrow one it leaves out the
  // columns shown elsewhere on the page (FLOP per byte first) and keeps the step, the bytes per FLOP and the
  // published share of cuBLAS, the columns it shows fitting its width.
  page.views()->setCurrentWidget(page.table()->parentWidget());
  QTableWidget* table = page.table();
  const auto column = [table](const QString& header) {
    for (int c = 0; c < table->columnCount(); ++c)
      if (table->horizontalHeaderItem(c)->text().simplified() == header) return c;
    return -1;
  };
  // The columns shown fit the table's width, and every cell's text fits its column (as the fit test measures it).
  const auto shownWidth = [table] {
    int sum = 0;
    for (int c = 0; c < table->columnCount(); ++c)
      if (!table->isColumnHidden(c)) sum += table->columnWidth(c);
    return sum;
  };
  const auto cutCells = [table] {
    QStringList cut;
    for (int r = 0; r < table->rowCount(); ++r)
      for (int c = 0; c < table->columnCount(); ++c)
        if (QTableWidgetItem* it = table->item(r, c); it && !table->isColumnHidden(c) &&
            QFontMetrics(it->font()).horizontalAdvance(it->text()) + 8 > table->columnWidth(c) + 2)
          cut << it->text();
    return cut.join(QStringLiteral(", ")).toStdString();
  };
  const int step = column(QStringLiteral("step")), bytesPerFlop = column(QStringLiteral("bytes per FLOP")),
            flopPerByte = column(QStringLiteral("FLOP per byte")),
            published = column(QStringLiteral("% of cuBLAS (published)"));
  ASSERT_TRUE(step >= 0 && bytesPerFlop >= 0 && flopPerByte >= 0 && published >= 0);
  page.resize(1600, 700);
  QTest::qWait(50);
  for (int c = 0; c < table->columnCount(); ++c) EXPECT_FALSE(table->isColumnHidden(c)) << c;
  EXPECT_LE(shownWidth(), table->viewport()->width());
  EXPECT_EQ(cutCells(), "");
  page.resize(860, 700);
  QTest::qWait(50);
  EXPECT_TRUE(table->isColumnHidden(flopPerByte));
  for (int c : {step, bytesPerFlop, published}) EXPECT_FALSE(table->isColumnHidden(c)) << c;
  EXPECT_LE(shownWidth(), table->viewport()->width());
  EXPECT_EQ(cutCells(), "");
  page.resize(1366, 700);
}

// Issue 26: the trace is deterministic and takes about a second, so the page shows it without a button press: shown,
// it traces all seven steps by itself, and then every view but the one with nothing for step 1 (bank conflicts:
// it has no shared memory) has something to export. Left while tracing, it gives the runner back at once and,
// shown again, traces only what is missing.
TEST(KernelPage, TracesByItselfWhenShownAndGivesWayWhenLeft) {
  if (!gpulab::emu::kernel_tracing_available()) GTEST_SKIP() << "this build has no traced kernels (no clang++)";
  AppContext ctx(noGpu());
  KernelPage page(ctx);
  page.initialize();
  page.resize(1366, 700);
  page.setShape(64, 64, 32);
  EXPECT_EQ(page.tracedStepCount(), 0);
  EXPECT_FALSE(ctx.runner().isBusy());  // nothing before it is shown
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  EXPECT_TRUE(page.isTracingByItself());
  waitForRun(page, 120000);
  ASSERT_EQ(page.tracedStepCount(), 7);
  EXPECT_EQ(page.table()->rowCount(), 7);
  EXPECT_EQ(page.trace(QStringLiteral("07_warptile"))->shape.k, 32);
  for (const PlotExport& p : page.plots()) {
    if (p.id == QStringLiteral("bank_conflicts")) EXPECT_FALSE(emptyPlotReason(p).isEmpty());
    else EXPECT_TRUE(emptyPlotReason(p).isEmpty()) << p.id.toStdString() << ": " << emptyPlotReason(p).toStdString();
  }

  // Another page, at the default 128³: left at once, its own trace stops (the steps done are kept, no "Cancelled").
  AppContext ctx2(noGpu());
  KernelPage left(ctx2);
  left.initialize();
  left.resize(1366, 700);
  left.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&left));
  ASSERT_TRUE(left.isTracingByItself());
  left.hide();
  QElapsedTimer stopping;
  stopping.start();
  while (ctx2.runner().isBusy() && stopping.elapsed() < 10000) QTest::qWait(20);
  EXPECT_FALSE(ctx2.runner().isBusy()) << "still tracing after it was left";
  QTest::qWait(50);
  EXPECT_LT(left.tracedStepCount(), 7);
  left.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&left));
  waitForRun(left, 120000);
  EXPECT_EQ(left.tracedStepCount(), 7);
  EXPECT_EQ(left.trace(QStringLiteral("01_naive"))->shape.m, 128);
}

TEST(KernelPage, RegisteredAfterMatmulWithItsPlotsForExport) {
  AppContext ctx(noGpu());
  MainWindow w(ctx);
  Page* page = w.pageById(QStringLiteral("kernel"));
  ASSERT_NE(page, nullptr);
  const auto pages = w.pages();
  const int at = int(pages.indexOf(page));
  ASSERT_GT(at, 0);
  EXPECT_EQ(pages[at - 1]->pageId(), QStringLiteral("matmul"));
  QStringList ids;
  for (const PlotExport& p : page->plots()) {
    ids << p.id;
    EXPECT_TRUE(p.plot || p.widget) << p.id.toStdString();
    EXPECT_TRUE(bool(p.csv)) << p.id.toStdString();
  }
  for (const char* id : {"owners", "warp_load", "shared_reuse", "bank_conflicts", "bytes_per_flop", "roofline", "steps",
                         "timeline"})
    EXPECT_TRUE(ids.contains(QLatin1String(id))) << id;
  EXPECT_TRUE(page->lessonPanel() != nullptr);
}

// With a GPU recording open, a step's measured speed is the module's variant of the same kernel (FP32, checked, the
// largest size), labelled with the recording; a failed run or another precision is never taken.
TEST(KernelPage, FindsTheSameStepInAGpuRecording) {
  AppContext ctx(noGpu());
  KernelPage page(ctx);
  page.initialize();
  EXPECT_FALSE(page.recordedSpeed("01_naive").has_value());  // nothing open

  gpulab::Recording rec;
  rec.context["gpu"] = "NVIDIA H200";
  rec.context["date"] = "2026-12-02T10:00:00Z";
  const auto gemm = [](const char* variant, double n, double gflops, gpulab::Precision p, bool passed) {
    gpulab::Result r;
    r.experiment = "gemm";
    r.backend = "cuda";
    r.variant = variant;
    r.precision = p;
    r.params = {{"m", n}, {"n", n}, {"k", n}};
    r.check.passed = passed;
    r.gflops = gflops;
    r.provenance["device"] = "NVIDIA H200";
    return r;
  };
  rec.results.push_back(gemm("naive", 1024, 300, gpulab::Precision::fp32, true));
  rec.results.push_back(gemm("naive", 4096, 500, gpulab::Precision::fp32, true));   // the largest: taken
  rec.results.push_back(gemm("naive", 8192, 900, gpulab::Precision::fp32, false));  // failed its check: never
  rec.results.push_back(gemm("smem", 4096, 7000, gpulab::Precision::fp16, true));   // another precision: never
  ctx.results().addRecording(QStringLiteral("h200.json"), rec);

  const auto naive = page.recordedSpeed("01_naive");
  ASSERT_TRUE(naive.has_value());
  EXPECT_DOUBLE_EQ(naive->flops, 500e9);
  EXPECT_EQ(naive->size, QStringLiteral("4096³"));
  EXPECT_EQ(naive->device, QStringLiteral("NVIDIA H200"));
  EXPECT_TRUE(naive->source.contains(QStringLiteral("H200"))) << naive->source.toStdString();
  EXPECT_FALSE(page.recordedSpeed("03_shared_tiles").has_value());
}

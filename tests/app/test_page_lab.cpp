// The lab page: a guided task's buggy kernel is checked through the runner in a child process, the fault's line is
// marked in the editor and the verdict shown; fixed, the task is done and the Why table holds the ladder and the
// kernel; the table exports as CSV; the Threads and One warp tabs draw the kernel checked with the "Inside the
// kernel" views.
#include "app_test_support.h"
#include "pages/lab/lab_editor.h"
#include "pages/lab/lab_page.h"
#include "pages/lab/lab_recent_files.h"
#include "widgets/kernel_views.h"
#include "widgets/plot_export.h"

#include <gpulab_lab/templates.hpp>

#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <gtest/gtest.h>

namespace {

void waitForCheck(LabPage& page, int ms) {
  QElapsedTimer timer;
  timer.start();
  while (page.isRunning() && timer.elapsed() < ms) QTest::qWait(50);
  QTest::qWait(80);  // the finished signal
}

// The page built and shown at a 1366 px projector's width; false when the window never appears.
bool showLabPage(LabPage& page) {
  page.initialize();
  page.resize(1366, 700);
  page.show();
  return QTest::qWaitForWindowExposed(&page);
}

}  // namespace

TEST(LabPage, FindTheMissingBarrierThenFixIt) {
  AppContext ctx(noGpu());
  LabPage page(ctx);
  ASSERT_TRUE(showLabPage(page));
  if (gpulab::lab::find_clang().empty()) GTEST_SKIP() << gpulab::lab::compiler_install_hint();

  page.setTask(lab_model::Task::fix_barrier);
  const QString buggy = page.editor()->toPlainText();
  page.run();
  EXPECT_TRUE(page.isRunning());  // off the GUI thread: the page answers while the child compiles and runs
  waitForCheck(page, 180000);
  ASSERT_FALSE(page.isRunning());
  ASSERT_TRUE(page.report());
  EXPECT_EQ(page.report()->outcome, gpulab::lab::Outcome::fault) << page.report()->reason;
  const int line = page.report()->line;
  EXPECT_GT(line, 0);
  EXPECT_TRUE(page.editor()->marks().contains(line));
  EXPECT_EQ(page.taskResult().verdict, lab_model::Verdict::not_right);

  // Put the barrier back on the line the lab pointed at (the line left blank by the task).
  QStringList lines = buggy.split(QLatin1Char('\n'));
  ASSERT_GE(lines.size(), line);
  int blank = line - 1;
  while (blank > 0 && !lines[blank].trimmed().isEmpty()) --blank;
  lines[blank] = QStringLiteral("    __syncthreads();");
  page.editor()->setPlainText(lines.join(QLatin1Char('\n')));
  page.run();
  waitForCheck(page, 180000);
  ASSERT_TRUE(page.report());
  EXPECT_EQ(page.report()->outcome, gpulab::lab::Outcome::passed) << page.report()->reason;
  EXPECT_EQ(page.taskResult().verdict, lab_model::Verdict::done);
  EXPECT_TRUE(page.editor()->marks().isEmpty());
  // Why: the seven steps and the kernel, most like step 3.
  const QString csv = page.whyCsv();
  EXPECT_EQ(csv.count(QLatin1Char('\n')), 1 + 7 + 1) << csv.toStdString();
  EXPECT_TRUE(csv.contains(QStringLiteral("your kernel"))) << csv.toStdString();
  ASSERT_TRUE(page.report()->closest);
  EXPECT_EQ(page.report()->closest->step, "03_shared_tiles");
  // The Roofline tab: the seven steps and the kernel under the card's datasheet roof, each said to be a model.
  const QList<PlotExport> plots = page.plots();
  ASSERT_EQ(plots.size(), 2);
  const QString roofCsv = plots[1].csv();
  EXPECT_EQ(roofCsv.count(QStringLiteral("\npoint,")), 7 + 1) << roofCsv.toStdString();
  EXPECT_EQ(roofCsv.count(QStringLiteral(",model,")), 7 + 1) << "a traced kernel's speed is a model, never measured";
  EXPECT_TRUE(roofCsv.contains(QStringLiteral("your kernel"))) << roofCsv.toStdString();
  EXPECT_TRUE(roofCsv.contains(QStringLiteral("roof,RTX 4090 FP32 datasheet"))) << roofCsv.toStdString();
  if (const QByteArray shot = qgetenv("GPULAB_TEST_SHOT"); !shot.isEmpty()) {
    for (QTabWidget* tabs : page.findChildren<QTabWidget*>())
      if (tabs->count() >= 3 && tabs->tabText(2) == QStringLiteral("Roofline")) tabs->setCurrentIndex(2);
    QTest::qWait(100);
    page.grab().save(QString::fromLocal8Bit(shot));
  }
}

// The Threads and One warp tabs draw the student's own kernel with the "Inside the kernel" views: step 1's file
// (the coalescing task) has its warps down the columns of C, step 2's template along the rows, and warp 0's first
// load of A costs 32 sectors in the one and a single broadcast sector in the other.
TEST(LabPage, ThreadsAndOneWarpDrawTheStudentsKernel) {
  AppContext ctx(noGpu());
  LabPage page(ctx);
  ASSERT_TRUE(showLabPage(page));
  ASSERT_TRUE(page.ownerView());
  ASSERT_TRUE(page.warpLoadView());
  EXPECT_TRUE(page.ownerView()->describeCell(0, 0).isEmpty()) << "nothing is drawn before a check";
  if (gpulab::lab::find_clang().empty()) GTEST_SKIP() << gpulab::lab::compiler_install_hint();

  page.setTask(lab_model::Task::coalesce);  // step 1's kernel: threadIdx.x walks the rows of C
  page.run();
  waitForCheck(page, 180000);
  ASSERT_TRUE(page.report());
  ASSERT_EQ(page.report()->outcome, gpulab::lab::Outcome::passed) << page.report()->reason;
  OwnerView* owners = page.ownerView();
  EXPECT_EQ(owners->describeCell(1, 0).toStdString(),
            "C[1, 0] was computed by block (0, 0) — block 0 — warp 0, lane 1 (thread 1 of the block)");
  EXPECT_TRUE(owners->describeCell(0, 1).contains(QStringLiteral("warp 1, lane 0"))) << owners->describeCell(0, 1).toStdString();
  EXPECT_TRUE(page.threadsText().contains(QStringLiteral("a column of C"))) << page.threadsText().toStdString();
  page.setWarpArray(QStringLiteral("A"));
  EXPECT_EQ(page.warpLoadView()->request().shape.name, "A");
  EXPECT_EQ(page.warpLoadView()->request().sector_count, 32) << "32 lanes, 32 rows of A";
  EXPECT_TRUE(page.warpLoadView()->title().contains(QStringLiteral("your kernel")));
  // GPULAB_TEST_SHOT=/tmp/lab.png: the two tabs, to look at, as /tmp/lab-threads.png and /tmp/lab-warp.png.
  if (const QByteArray shot = qgetenv("GPULAB_TEST_SHOT"); !shot.isEmpty()) {
    const QString base = QString::fromLocal8Bit(shot).chopped(4);
    for (int tab : {3, 4}) {
      page.views()->setCurrentIndex(tab);
      QTest::qWait(100);
      page.grab().save(base + (tab == 3 ? QStringLiteral("-threads.png") : QStringLiteral("-warp.png")));
    }
  }

  // A ladder template, opened as a student opens it: step 2.
  page.editor()->setPlainText(QString::fromStdString(gpulab::lab::ladder_template("02_coalesced")));
  page.run();
  waitForCheck(page, 180000);
  ASSERT_TRUE(page.report());
  ASSERT_EQ(page.report()->outcome, gpulab::lab::Outcome::passed) << page.report()->reason;
  EXPECT_TRUE(owners->describeCell(0, 1).contains(QStringLiteral("block (0, 0) — block 0 — warp 0, lane 1")))
      << owners->describeCell(0, 1).toStdString();
  EXPECT_TRUE(owners->describeCell(1, 0).contains(QStringLiteral("warp 1, lane 0"))) << owners->describeCell(1, 0).toStdString();
  EXPECT_TRUE(page.threadsText().contains(QStringLiteral("a row of C"))) << page.threadsText().toStdString();
  EXPECT_EQ(page.warpLoadView()->request().sector_count, 1) << "warp 0's lanes all read one element of A";
  page.setWarpArray(QStringLiteral("B"));
  EXPECT_EQ(page.warpLoadView()->request().shape.name, "B");
  EXPECT_EQ(page.warpLoadView()->request().sector_count, 4) << "32 neighbouring floats of B: 128 bytes";

  // A new task clears the pictures until its kernel is checked.
  page.setTask(lab_model::Task::free);
  EXPECT_TRUE(owners->describeCell(0, 0).isEmpty());
}

// The projector theme's larger font widens the line numbers: the text's margin must follow, or the gutter covers
// each line's first character (it did at 1920x1080 in projector mode: "/ Your own SGEMM", "include <cuda_runtime.h>").
TEST(LabEditor, TheTextStartsPastTheLineNumbersAfterAFontChange) {
  CodeEditor editor;
  editor.setPlainText(QStringLiteral("// one\n#include <x>\n"));
  editor.resize(600, 300);
  editor.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
  const int before = editor.gutterWidth();
  QFont big = editor.font();
  big.setPointSize(big.pointSize() * 2);
  editor.setFont(big);
  QTest::qWait(20);
  ASSERT_GT(editor.gutterWidth(), before);
  EXPECT_GE(editor.textMargin(), editor.gutterWidth());
}

// A student's file: saved, changed, Ctrl+S in the editor writes it again (not the window's "save this session"),
// and it heads the recent files the Open button offers next time.
TEST(LabPage, CtrlSInTheEditorSavesTheKernelAndItIsRemembered) {
  AppContext ctx(noGpu());
  LabPage page(ctx);
  ASSERT_TRUE(showLabPage(page));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("mine.cu"));
  page.editor()->setPlainText(QStringLiteral("// first\n"));
  ASSERT_TRUE(page.saveKernel(path));
  page.editor()->setPlainText(QStringLiteral("// second\n"));
  page.editor()->setFocus();
  QTest::keyClick(page.editor(), Qt::Key_S, Qt::ControlModifier);
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(QString::fromUtf8(f.readAll()), QStringLiteral("// second\n"));
  ASSERT_FALSE(labRecentFiles().isEmpty());
  EXPECT_EQ(labRecentFiles().front(), QFileInfo(path).absoluteFilePath());
}

// Time on GPU without a CUDA GPU: the button is there, disabled, and its tooltip says why and whether nvcc was
// found; nothing is timed. A timed report (as one from a GPU would be) is shown as measured on its device beside
// cuBLAS, marked once the file is edited; a report that was not timed shows its reason and no number.
TEST(LabPage, TimeOnGpuIsDisabledWithoutAGpuAndShowsOnlyMeasuredNumbers) {
  AppContext ctx(noGpu());
  LabPage page(ctx);
  ASSERT_TRUE(showLabPage(page));
  QPushButton* button = page.gpuButton();
  ASSERT_TRUE(button);
  EXPECT_FALSE(button->isEnabled());
  EXPECT_TRUE(button->toolTip().contains(QStringLiteral("no"), Qt::CaseInsensitive)) << button->toolTip().toStdString();
  EXPECT_TRUE(button->toolTip().contains(QStringLiteral("nvcc"))) << button->toolTip().toStdString();
  page.timeOnGpu();  // refused: nothing starts
  EXPECT_FALSE(page.isRunning());
  EXPECT_FALSE(page.gpuReport());
  auto* result = page.findChild<QLabel*>(QStringLiteral("labGpuResult"));
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->isHidden());

  gpulab::lab::GpuTimingReport r;
  r.status = gpulab::lab::GpuStatus::timed;
  r.device = gpulab::lab::GpuDevice{};
  r.device->name = "NVIDIA H100 80GB HBM3";
  r.m = r.n = r.k = 4096;
  r.check.done = r.check.passed = true;
  r.student = gpulab::lab::GpuTiming{};
  r.student->gflops = 5000;
  r.student->median_s = 0.0275;
  r.cublas = gpulab::lab::GpuTiming{};
  r.cublas->gflops = 50000;
  r.cublas->median_s = 0.00275;
  const std::string source = page.editor()->toPlainText().toStdString();
  page.showGpuReport(r, source);
  EXPECT_FALSE(result->isHidden());
  QString text = page.gpuText();
  EXPECT_TRUE(text.contains(QStringLiteral("Measured on the NVIDIA H100 80GB HBM3"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("10.0 %"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("no FMA peak measured"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("edited since")));
  // GPULAB_TEST_SHOT=/tmp/lab.png: the page with that timing, as /tmp/lab-gpu.png.
  if (QString shot = QString::fromLocal8Bit(qgetenv("GPULAB_TEST_SHOT")); !shot.isEmpty()) {
    QTest::qWait(100);
    page.grab().save(shot.replace(QStringLiteral(".png"), QStringLiteral("-gpu.png")));
  }
  page.editor()->appendPlainText(QStringLiteral("// changed"));
  EXPECT_TRUE(page.gpuText().contains(QStringLiteral("edited since")));
  EXPECT_TRUE(result->text().contains(QStringLiteral("edited since")));

  gpulab::lab::GpuTimingReport none;
  none.status = gpulab::lab::GpuStatus::no_device;
  none.reason = "no CUDA device: cudaGetDeviceCount says cudaErrorInsufficientDriver";
  page.showGpuReport(none, page.editor()->toPlainText().toStdString());
  text = page.gpuText();
  EXPECT_TRUE(text.contains(QStringLiteral("Not timed on the GPU"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("cudaErrorInsufficientDriver")));
  EXPECT_FALSE(text.contains(QStringLiteral("FLOP")));
  EXPECT_FALSE(text.contains(QStringLiteral("Measured")));
}

// With lavapipe (Vulkan on the CPU) chosen as the GPU slot's device, the PCIe, memory, stadium and software-stack
// pages name it for what it is and never call it a GPU; the memory page holds its estimate there (scaled under the
// CPU-type device's cap), says its memory is the computer's RAM and frees it all. Skips where no CPU-type Vulkan
// device is available.
#include "app_test_support.h"
#include "models/device_words.h"
#include "pages/pcie/pcie_page.h"
#include "pages/stack/stack_page.h"
#include "pages/stadium/stadium_page.h"
#include "pages/vram/vram_page.h"
#include "widgets/vram_bars.h"
#include "widgets/run_bar.h"
#include "widgets/stack_diagram.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <gtest/gtest.h>

#include <memory>

namespace {
std::unique_ptr<AppContext> lavapipe() {
  qputenv("GPULAB_VULKAN_ALLOW_CPU", "1");
  AppContext::Options o;
  o.device = gpulab::BackendKind::vulkan;
  auto ctx = std::make_unique<AppContext>(o);
  qunsetenv("GPULAB_VULKAN_ALLOW_CPU");
  if (!ctx->hasGpu() || gpulab::device_words(*ctx->gpuInfo()).device_class != gpulab::DeviceClass::vulkan_on_cpu)
    return nullptr;
  return ctx;
}
#define NEED_LAVAPIPE(ctx)                                                         \
  auto ctx = lavapipe();                                                           \
  if (!ctx) GTEST_SKIP() << "no CPU-type Vulkan device (lavapipe) here";
}  // namespace

TEST(PagesOnLavapipe, StadiumRacesItAsVulkanOnTheCpuNotAGpu) {
  NEED_LAVAPIPE(ctx);
  StadiumPage page(*ctx);
  page.initialize();
  EXPECT_TRUE(page.plan().jobs.size() == 3u) << "naive, BLAS and the Vulkan device's best GEMM";
  page.run();
  ASSERT_TRUE(ctx->runner().waitForIdle(180000));
  QCoreApplication::processEvents();
  QTest::qWait(50);
  QStringList items;
  // Each source as the box names it and as its tooltip says it in full (the box keeps names short enough for the
  // side column: "measured here", with "CPU naive … vs Vulkan on the CPU (not a GPU) …" in the tooltip).
  for (int i = 0; i < page.rateSource()->count(); ++i)
    items << page.rateSource()->itemText(i) + QStringLiteral(": ") + page.rateSource()->itemData(i, Qt::ToolTipRole).toString();
  const QString all = items.join(QLatin1Char('\n'));
  EXPECT_TRUE(all.contains(QStringLiteral("Vulkan on the CPU (not a GPU)"))) << all.toStdString();
  EXPECT_FALSE(all.contains(QStringLiteral("GPU cuBLAS"))) << all.toStdString();
  EXPECT_FALSE(page.rates().model);
  auto* bar = page.findChild<RunBar*>();
  ASSERT_TRUE(bar);
  EXPECT_TRUE(bar->runButton()->toolTip().contains(QStringLiteral("not a GPU"))) << bar->runButton()->toolTip().toStdString();
}

TEST(PagesOnLavapipe, MemoryPageHoldsUnderTheCapSaysItIsSharedRamAndFreesIt) {
  NEED_LAVAPIPE(ctx);
  VramPage page(*ctx);
  page.initialize();
  EXPECT_TRUE(page.sharedMemoryText().contains(QStringLiteral("not dedicated VRAM")));
  ASSERT_EQ(page.plan().jobs.size(), 1u);
  EXPECT_TRUE(page.plan().jobs[0].run) << "a hold, not a note";
  const double freeBefore = ctx->gpu()->hold_reading().free_bytes;
  page.run();
  ASSERT_TRUE(ctx->runner().waitForIdle(60000));
  QCoreApplication::processEvents();
  // The 7B estimate scaled under the 256 MiB cap: every part held, more users until the cap, then freed.
  const QString text = page.liveText();
  EXPECT_TRUE(text.contains(QStringLiteral("This is where it would not fit"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("cap"))) << text.toStdString();  // the first sentence names the cap
  EXPECT_TRUE(text.contains(QStringLiteral("Freed"))) << text.toStdString();
  EXPECT_GE(page.liveBars()->bars().size(), 2 * 3 + 1) << "prediction and reading per step, and the stop";
  // The reading beside each prediction: the device's budget, or (lavapipe 22: no VK_EXT_memory_budget) labelled
  // as counted, never as measured: the key names the reading bar's one segment.
  const QString reading = page.liveBars()->bars()[1].segments.front().name;
  EXPECT_TRUE(reading == QStringLiteral("Device reading") || reading.startsWith(QStringLiteral("Heap less held")))
      << reading.toStdString();
  EXPECT_EQ(page.liveBars()->bars().back().segments.back().name, QStringLiteral("Did not fit"));
  auto* note = page.findChild<QLabel*>(QStringLiteral("vramSharedNote"));
  ASSERT_TRUE(note);
  EXPECT_FALSE(note->isHidden());
  EXPECT_TRUE(note->text().contains(QStringLiteral("computer's RAM")));
  EXPECT_TRUE(note->text().contains(QStringLiteral("not dedicated VRAM")));
  // Everything freed: the reading is back where it began (within what other programs move it by).
  EXPECT_NEAR(ctx->gpu()->hold_reading().free_bytes, freeBefore, 128.0 * 1024 * 1024);
}

TEST(PagesOnLavapipe, PcieNoteSaysNoPcieHopOnTheCpuDevice) {
  NEED_LAVAPIPE(ctx);
  PciePage page(*ctx);
  page.initialize();
  EXPECT_TRUE(page.noteText().contains(QStringLiteral("not a GPU"))) << page.noteText().toStdString();
  EXPECT_TRUE(page.noteText().contains(QStringLiteral("no PCIe"))) << page.noteText().toStdString();
}

TEST(PagesOnLavapipe, StackExamplesTakeVulkansPathEndingOnTheCpu) {
  NEED_LAVAPIPE(ctx);
  StackPage page(*ctx);
  page.initialize();
  ASSERT_TRUE(page.showingExamples());
  page.selectExperiment(0);
  EXPECT_EQ(page.diagram()->api(), StackDiagram::Api::vulkanCpu);
  EXPECT_TRUE(page.diagram()->lit() & StackDiagram::bit(StackDiagram::Kernels));
  EXPECT_FALSE(page.diagram()->lit() & StackDiagram::bit(StackDiagram::Hardware));
  EXPECT_TRUE(page.diagram()->caption().contains(QStringLiteral("not a GPU"))) << page.diagram()->caption().toStdString();
}

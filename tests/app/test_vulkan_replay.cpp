// A recording made with lavapipe (`gpulab bench --device vulkan --allow-cpu-vulkan`, tests/data) replays in the
// app, and nothing the app writes about it — the recording's label, every page's "recorded" badge — calls that
// CPU-type Vulkan device a GPU. With the live lavapipe device chosen, the status bar and the device panel say the
// same (skipped when this build has no Vulkan module or no CPU-type Vulkan device).
#include "app_context.h"
#include "app_test_support.h"
#include "main_window.h"
#include "models/device_words.h"
#include "pages/page.h"
#include "shell/device_panel.h"
#include "widgets/source_badge.h"

#include <QApplication>
#include <QStatusBar>
#include <gtest/gtest.h>

#include <cstdio>

namespace {

const QString kRecording = QStringLiteral(GPULAB_TEST_DATA_DIR "/vulkan-lavapipe-quick.json");

// "GPU" may appear only inside "not a GPU".
bool callsItAGpu(QString text) {
  text.remove(QStringLiteral("not a GPU"));
  return text.contains(QStringLiteral("GPU"));
}

}  // namespace

TEST(VulkanReplay, ALavapipeRecordingIsNeverCalledAGpu) {
  AppContext ctx(noGpu());
  MainWindow w(ctx);
  QString error;
  ASSERT_TRUE(ctx.openRecording(kRecording, &error)) << error.toStdString();
  const ResultStore& store = ctx.results();
  ASSERT_EQ(store.recordings().size(), 1);

  int vulkan = 0;
  for (const StoredResult& s : store.all()) {
    if (s.result.backend != "vulkan") continue;
    ++vulkan;
    const auto words = gpulab::models::device_words(s.result);
    EXPECT_FALSE(words.is_gpu) << s.result.variant;
    EXPECT_EQ(words.label, "Vulkan on the CPU (llvmpipe) — not a GPU") << s.result.variant;
  }
  EXPECT_GE(vulkan, 6) << "the recording's GEMM ladder, copy, triad and transfers";

  const QString label = store.sourceLabel(0);
  EXPECT_TRUE(label.contains(QStringLiteral("Vulkan on the CPU (llvmpipe) — not a GPU"))) << label.toStdString();
  EXPECT_FALSE(callsItAGpu(label)) << label.toStdString();

  // Every page, shown: each "recorded" badge names the device as not a GPU.
  int recordedBadges = 0;
  for (Page* p : w.pages()) {
    w.showPage(p->pageId());
    QApplication::processEvents();
    for (SourceBadge* b : p->findChildren<SourceBadge*>()) {
      // Only the badges that speak of this recording (the kernel page's "traced on the CPU emulator" is another).
      if (b->kind() != SourceBadge::Kind::Recorded || b->isHidden() || !b->text().contains(QStringLiteral("recorded on")))
        continue;
      ++recordedBadges;
      std::printf("%s: %s\n", qPrintable(p->pageId()), qPrintable(b->text().simplified()));
      EXPECT_FALSE(callsItAGpu(b->text())) << p->pageId().toStdString() << ": " << b->text().toStdString();
      EXPECT_TRUE(b->text().contains(QStringLiteral("not a GPU"))) << p->pageId().toStdString() << ": "
                                                                   << b->text().toStdString();
    }
  }
  // At least one page draws the recording (the CPU's numbers in it, at the least), so the badge check ran.
  EXPECT_GE(recordedBadges, 1);
}

TEST(VulkanReplay, LiveLavapipeIsNotAnnouncedAsAGpu) {
  qputenv("GPULAB_VULKAN_ALLOW_CPU", "1");
  AppContext::Options o;
  o.device = gpulab::BackendKind::vulkan;
  AppContext ctx(o);
  qunsetenv("GPULAB_VULKAN_ALLOW_CPU");
  if (!ctx.hasGpu() || ctx.gpuKind() != gpulab::BackendKind::vulkan)
    GTEST_SKIP() << "no Vulkan device here: " << ctx.vulkanReason().toStdString();
  const auto words = gpulab::models::device_words(*ctx.gpuInfo());
  if (words.is_gpu) GTEST_SKIP() << "the Vulkan device here is a GPU (" << words.label << "): nothing to check";

  MainWindow w(ctx);
  const QString status = w.statusBar()->currentMessage();
  EXPECT_TRUE(status.contains(QStringLiteral("Vulkan on the CPU (llvmpipe) — not a GPU"))) << status.toStdString();
  EXPECT_FALSE(status.startsWith(QStringLiteral("GPU ready"))) << status.toStdString();

  DevicePanel panel(ctx);
  EXPECT_FALSE(callsItAGpu(panel.gpuText())) << panel.gpuText().toStdString();
  EXPECT_TRUE(panel.gpuText().contains(QStringLiteral("not a GPU"))) << panel.gpuText().toStdString();
}

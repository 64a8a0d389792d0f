// Why NVIDIA and the alternatives: the CPU-or-GPU plot finds a crossover from this CPU's peak and the card's
// datasheet; keeping the data on the GPU moves it left; the vendor table reads the catalogue (H100 vs MI300X).
#include "app_test_support.h"
#include "pages/alternatives/alternatives_page.h"

#include <QTest>
#include <gtest/gtest.h>

TEST(AlternativesPage, SmallWorkStaysOnTheCpu) {
  AppContext ctx(noGpu());
  AlternativesPage page(ctx);
  page.initialize();
  page.resize(1300, 750);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  if (ctx.cpuInfo().peak_gflops_fp32 <= 0) GTEST_SKIP() << "no CPU peak on this machine";
  // n = 8: 1,024 FLOPs on the CPU take nanoseconds; the GPU pays at least the 10 µs launch.
  EXPECT_LT(page.cpuSeconds(8), page.gpuSeconds(8));
  EXPECT_GT(page.cpuSeconds(16384), page.gpuSeconds(16384));
  const double withCopies = page.crossover();
  EXPECT_GT(withCopies, 8);
  page.setDataOnGpu(true);
  const double resident = page.crossover();
  EXPECT_GT(resident, 0);
  EXPECT_LE(resident, withCopies);
  page.setOverheadUs(200);
  EXPECT_GE(page.crossover(), resident);
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("model")));
}

TEST(AlternativesPage, VendorsFromTheCatalogueAndExport) {
  AppContext ctx(noGpu());
  AlternativesPage page(ctx);
  page.initialize();
  const QString v = page.vendorText();
  EXPECT_TRUE(v.contains(QStringLiteral("MI300X")));
  EXPECT_TRUE(v.contains(QStringLiteral("ROCm")));
  EXPECT_TRUE(v.contains(QStringLiteral("H100 SXM")));
  const LessonContent c = page.lesson();
  for (const char* word : {"ROCm", "TPU", "inference", "CUDA", "2007"})
    EXPECT_TRUE(c.intro.contains(QLatin1String(word))) << word;
  ASSERT_EQ(page.plots().size(), 1);
  EXPECT_EQ(page.plots().front().id, QStringLiteral("cpu_or_gpu"));
  EXPECT_TRUE(page.plots().front().csv().startsWith(QStringLiteral("n,")));
}

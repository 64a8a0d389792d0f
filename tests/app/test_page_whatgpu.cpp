// "What a GPU is": first in the lesson order, the picture drawn from this machine's CPU and a catalogue card, the
// figures side by side with their sources, the card chooser redraws, the running example starts here.
#include "app_test_support.h"
#include "gpulab/models/catalogue.hpp"
#include "main_window.h"
#include "pages/whatgpu/whatgpu_page.h"
#include "widgets/lesson_panel.h"

#include <QComboBox>
#include <QTest>
#include <gtest/gtest.h>

TEST(WhatGpuPage, ComesFirstInTheNavigator) {
  AppContext ctx(noGpu());
  MainWindow w(ctx);
  ASSERT_FALSE(w.pages().isEmpty());
  EXPECT_EQ(w.pages().front()->pageId(), QStringLiteral("whatgpu"));
  ASSERT_NE(w.pageById(QStringLiteral("stadium")), nullptr);
  EXPECT_EQ(w.pages()[1]->pageId(), QStringLiteral("stadium"));
}

TEST(WhatGpuPage, DrawsThisCpuAndTheChosenCard) {
  AppContext ctx(noGpu());
  WhatGpuPage page(ctx);
  page.initialize();
  page.resize(1300, 750);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  // The lesson's card by default (no GPU here), drawn with its real SM count.
  EXPECT_EQ(page.card(), QStringLiteral("H100 SXM"));
  EXPECT_EQ(page.view()->gpu().units, 132);
  EXPECT_EQ(page.view()->gpu().lanesPerUnit, 128);  // 66.9 TFLOP/s ÷ (132 SMs × 1.98 GHz × 2)
  EXPECT_EQ(page.view()->cpu().units, ctx.cpuInfo().compute_units);
  EXPECT_DOUBLE_EQ(page.view()->cpu().peakGflops, ctx.cpuInfo().peak_gflops_fp32);

  // Every figure names its source.
  const QString figures = page.figuresText();
  EXPECT_TRUE(figures.contains(QStringLiteral("datasheet"))) << figures.toStdString();
  EXPECT_TRUE(figures.contains(QStringLiteral("measured here")) || figures.contains(QStringLiteral("model")));

  page.setCard(QStringLiteral("RTX 4090"));
  EXPECT_EQ(page.view()->gpu().units, 128);
  EXPECT_TRUE(page.figuresText().contains(QStringLiteral("RTX 4090")));
  EXPECT_TRUE(page.csv().contains(QStringLiteral("RTX 4090")));

  const QImage shot = page.view()->grab().toImage();
  EXPECT_GT(shot.width(), 300);
}

TEST(WhatGpuPage, LessonHasHistoryAndStartsTheRunningExample) {
  AppContext ctx(noGpu());
  WhatGpuPage page(ctx);
  page.initialize();
  const LessonContent c = page.lesson();
  EXPECT_TRUE(c.intro.contains(QStringLiteral("2007")));
  EXPECT_TRUE(c.intro.contains(QStringLiteral("AlexNet")));
  EXPECT_TRUE(c.runningExample.contains(QStringLiteral("7B")));
  ASSERT_NE(page.lessonPanel(), nullptr);
  EXPECT_TRUE(page.lessonPanel()->runningExampleText().contains(QStringLiteral("Running example")));
  ASSERT_EQ(page.plots().size(), 1);
  EXPECT_EQ(page.plots().front().id, QStringLiteral("cpu_vs_gpu"));
}

// The running example (the shop's 7B chatbot) quotes one set of model figures on every page it passes through:
// 14.0 GB of FP16 weights on a 24 GB card with 10.0 GB left, FP32 28.0 GB, ~112 GB of training state, the lesson's
// 239 tokens/s on an H100, and the shop card's ceiling from its datasheet bandwidth.
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "pages/running_example.h"
#include "widgets/lesson_panel.h"

#include <gtest/gtest.h>

TEST(RunningExample, FiguresFromTheModels) {
  const auto& f = running_example::facts();
  EXPECT_EQ(f.card, QStringLiteral("RTX 4090"));
  EXPECT_DOUBLE_EQ(f.cardGb, 24);
  EXPECT_DOUBLE_EQ(f.fp16Gb, 14.0);
  EXPECT_DOUBLE_EQ(f.fp32Gb, 28.0);
  EXPECT_DOUBLE_EQ(f.int8Gb, 7.0);
  EXPECT_DOUBLE_EQ(f.int4Gb, 3.5);
  EXPECT_DOUBLE_EQ(f.leftAfterFp16Gb, 10.0);
  EXPECT_NEAR(f.trainingStateGb, 112.0, 1e-9);
  EXPECT_NEAR(f.h100Fp16TokensS, 239.29, 0.01);
  EXPECT_NEAR(f.fp16TokensS, 72.0, 0.01);
  EXPECT_NEAR(f.int4TokensS, 288.0, 0.01);
  EXPECT_EQ(f.cardsToServe, 1);
  EXPECT_EQ(f.cardsForTrainingState, 5);
  EXPECT_EQ(f.h100sForTrainingState, 2);
  EXPECT_TRUE(f.qloraFits);
  EXPECT_GE(f.conversationsFp16, 1);
  EXPECT_GT(f.conversationsInt8, f.conversationsFp16);
}

TEST(RunningExample, ThreadedThroughTheStoryPages) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  for (const char* id : {"whatgpu", "vram", "traininfer", "precision", "decode", "multigpu"}) {
    Page* p = w.pageById(QLatin1String(id));
    ASSERT_NE(p, nullptr) << id;
    const QString text = p->lesson().runningExample;
    EXPECT_FALSE(text.isEmpty()) << id;
    EXPECT_TRUE(text.contains(QStringLiteral("7B")) || text.contains(QStringLiteral("shop"))) << id;
    ASSERT_NE(p->lessonPanel(), nullptr) << id;
    EXPECT_TRUE(p->lessonPanel()->runningExampleText().contains(QStringLiteral("7B"))) << id;
  }
  // The numbers agree between pages: the same FP16 weight figure everywhere it is quoted. Each page words its own
  // line (in its lesson file) from running_example::facts().
  auto lineOf = [&w](const char* id) { return w.pageById(QLatin1String(id))->lesson().runningExample; };
  for (const char* id : {"vram", "decode", "precision", "multigpu", "traininfer"})
    EXPECT_TRUE(lineOf(id).contains(QStringLiteral("14.0 GB"))) << id;
  EXPECT_TRUE(lineOf("decode").contains(QStringLiteral("239")));
  EXPECT_TRUE(lineOf("stadium").isEmpty());
}

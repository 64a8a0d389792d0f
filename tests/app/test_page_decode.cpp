// The decode page: the lesson's ceilings at 3,350 GB/s and at 50 GB/s, and a tiny chain run that completes.
#include "app_test_support.h"
#include "gpulab/page_plans.hpp"
#include "pages/decode/decode_page.h"

#include "qcustomplot.h"

#include <QApplication>
#include <QTest>
#include <gtest/gtest.h>

#include <set>

TEST(DecodePage, LessonCeilingsAt3350) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  page.setParamsBillions(7);
  page.setWhatIfBandwidthGBs(3350);
  EXPECT_NEAR(page.whatIfCeiling(QStringLiteral("FP16")), 239.29, 0.01);
  EXPECT_NEAR(page.whatIfCeiling(QStringLiteral("INT8")), 478.57, 0.01);
  EXPECT_NEAR(page.whatIfCeiling(QStringLiteral("INT4")), 957.14, 0.01);
  const QStringList labels = page.ceilingBarLabels();
  for (const char* v : {"239", "479", "957"}) EXPECT_TRUE(labels.contains(QLatin1String(v))) << v;
  EXPECT_TRUE(page.ceilingText().contains(QStringLiteral("239"))) << page.ceilingText().toStdString();
  // The H100 SXM datasheet (3,350 GB/s) gives the same bars.
  page.setCard(QStringLiteral("H100 SXM"));
  EXPECT_GE(page.ceilingBarLabels().count(QStringLiteral("239")), 2);
}

TEST(DecodePage, DesktopMemoryExercise) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  page.setWhatIfBandwidthGBs(50);
  EXPECT_NEAR(page.whatIfCeiling(QStringLiteral("FP16")), 3.57, 0.01);
  EXPECT_TRUE(page.ceilingText().contains(QStringLiteral("3.6"))) << page.ceilingText().toStdString();
  const LessonContent l = page.lesson();
  ASSERT_GE(l.exercises.size(), 2);
  EXPECT_NEAR(l.exercises[0].compute(), 3.57, 0.01);
  EXPECT_NEAR(l.exercises[1].compute(), 957.14, 0.01);
  EXPECT_GE(l.questions.size(), 1);
}

TEST(DecodePage, TinyChainRunCompletesOffscreen) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  page.setChainShape(QStringLiteral("tiny"));
  page.setMaxUsers(4);
  page.run();
  ASSERT_TRUE(ctx.runner().waitForIdle(120000));
  QTest::qWait(100);
  EXPECT_EQ(page.chainPointCount(), 3);  // batches 1, 2, 4
  EXPECT_TRUE(page.chainText().contains(QStringLiteral("batch 1"))) << page.chainText().toStdString();
  EXPECT_TRUE(page.chainText().contains(QStringLiteral("FP32"))) << page.chainText().toStdString();
  EXPECT_GE(page.batchPlot()->graphCount(), 3);  // total, per user, ceiling
  const auto plots = page.plots();
  ASSERT_EQ(plots.size(), 2);
  // Total and per-user tokens/s at 1, 2, 4 users and the prompt's one point, measured here, with the chain's
  // precision in the series name.
  EXPECT_EQ(plots[1].csv().count(QStringLiteral(",measured here,")), 7) << plots[1].csv().toStdString();
  // The prompt's prefill was measured at its own length (the tiny layer is not capped: 1,000 of 31,624 allowed),
  // beside batch 1: both rates in the sentence, none extrapolated.
  const QString prefill = page.prefillText();
  EXPECT_TRUE(prefill.contains(QStringLiteral("Measured here, the same chain: the prompt's 1,000 tokens in one batch")))
      << prefill.toStdString();
  EXPECT_TRUE(prefill.contains(QStringLiteral("one token at a time"))) << prefill.toStdString();
  EXPECT_FALSE(prefill.contains(QStringLiteral("capped"))) << prefill.toStdString();
  EXPECT_FALSE(page.prefillFullText().contains(QStringLiteral("extrapolated"))) << page.prefillFullText().toStdString();
  EXPECT_TRUE(plots[1].csv().contains(QStringLiteral("FP32"))) << plots[1].csv().toStdString();
}

TEST(DecodePage, RecordedCeilingUsesTheDramSizedTriad) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  page.setParamsBillions(7);
  // An H200-like recording: the triad at 4 MiB (in L2) runs at 9 TB/s, at 1 GiB (HBM) at 4.3 TB/s.
  gpulab::Recording rec;
  rec.context = {{"gpu", "NVIDIA H200"}, {"date", "2026-11-30T10:00:00Z"}};
  for (auto [bytes, gbs] : {std::pair{double(4 << 20), 9000.0}, std::pair{double(1 << 30), 4300.0}}) {
    gpulab::Result r;
    r.experiment = "bandwidth";
    r.backend = "cuda";
    r.variant = "triad";
    r.params = {{"bytes", bytes}};
    r.check.passed = true;
    r.stats.median_s = 3 * bytes / (gbs * 1e9);
    r.stats.n = 3;
    r.bytes = 3 * bytes;
    r.gbps = gbs;
    rec.results.push_back(r);
  }
  ctx.results().addRecording(QStringLiteral("/tmp/h200.json"), rec);
  QTest::qWait(100);  // the page redraws 30 ms after the last change
  const QStringList labels = page.ceilingBarLabels();
  // 7B in FP16 is 14 GB a token: 4,300 / 14 ≈ 307 tokens/s, not the cache-sized 9,000 / 14 ≈ 643.
  EXPECT_TRUE(labels.contains(QStringLiteral("307"))) << labels.join(QLatin1Char(' ')).toStdString();
  EXPECT_FALSE(labels.contains(QStringLiteral("643"))) << labels.join(QLatin1Char(' ')).toStdString();
}

TEST(DecodePage, DefaultPlanIsTheBenchSuite) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("decode", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  EXPECT_EQ(fromPage.size(), 9u);  // the triad, then 1 … 64 users, then the 1,000-token prompt's prefill
  page.setMaxUsers(4);             // other controls are another plan
  fromPage.clear();
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  EXPECT_NE(fromPage, fromSuite);
  // The prompt's length is the prefill step's batch: another prompt, another plan.
  page.setMaxUsers(64);
  page.setPromptTokens(40);
  const gpulab::Plan p = page.plan();
  EXPECT_EQ(p.jobs.back().params.at("prompt_tokens"), 40);
  EXPECT_EQ(p.jobs.back().params.at("batch"), 40);
}

// Prefill and decode on the page (issue 28, section 2), from the model for the datasheet card: 7B FP16 on an H100
// SXM, worked by hand in tests/unit/test_models_prefill.cpp — a 1,000-token prompt 14.15 ms at the datasheet peak,
// 17.61 ms at the 80.3 % a real cuBLAS GEMM reaches (published: stas00/ml-engineering), compute-bound from 237.26
// tokens; each later token 4.18 ms (239 tokens/s); a 100-token prompt is still memory-bound (4.18 ms).
TEST(DecodePage, PromptThenAnswer) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  page.setCard(QStringLiteral("H100 SXM"));
  page.setParamsBillions(7);
  page.setPromptTokens(1000);
  QString text = page.prefillText();
  EXPECT_TRUE(text.contains(QStringLiteral("about <b>17.6 ms</b> (compute-bound)"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("80 % of peak real GEMMs reach (published)"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("≤ <b>239 tokens/s</b>"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("4.18 ms"))) << text.toStdString();
  // The tooltip has the roof's time beside it, the share's source and the ridge at that share.
  const QString full = page.prefillFullText();
  EXPECT_TRUE(full.contains(QStringLiteral("14.1 ms"))) << full.toStdString();
  EXPECT_TRUE(full.contains(QStringLiteral("published: stas00/ml-engineering"))) << full.toStdString();
  EXPECT_TRUE(full.contains(QStringLiteral("~238 tokens"))) << full.toStdString();
  page.setPromptTokens(100);
  text = page.prefillText();
  EXPECT_TRUE(text.contains(QStringLiteral("about <b>4.18 ms</b> (memory-bound)"))) << text.toStdString();
  // A card with no published GEMM borrows the H100 SXM's share and says whose it is.
  page.setCard(QStringLiteral("RTX 4090"));
  EXPECT_TRUE(page.prefillText().contains(QStringLiteral("(the H100's, assumed)"))) << page.prefillText().toStdString();
  EXPECT_TRUE(page.prefillFullText().contains(QStringLiteral("the H100 SXM's, assumed for this card")));
  page.setCard(QStringLiteral("H100 SXM"));
  // The ceiling's sentence says the limit is per pass (speculative decoding beats it).
  EXPECT_TRUE(page.ceilingText().contains(QStringLiteral("speculative decoding"))) << page.ceilingText().toStdString();
}

// A mixture of experts: Mixtral 8x7B in FP16 at 3,350 GB/s reads 25.8 GB a token (≤ 130 tokens/s) but holds
// 93.4 GB (read whole: 35.9), tests/unit/test_models_moe.cpp. Its prompt reads every expert: 1,000 tokens take
// 27.88 ms of weights against 26.08 ms of compute at the datasheet peak on an H100 SXM, but at the 80.3 % a real
// GEMM reaches 26.08 / 0.8033 = 32.46 ms: compute-bound after all.
TEST(DecodePage, MixtureOfExpertsReadsItsActiveWeights) {
  AppContext ctx(noGpu());
  DecodePage page(ctx);
  page.initialize();
  page.setCard(QStringLiteral("H100 SXM"));
  page.setWhatIfBandwidthGBs(3350);
  page.setMoeModel(QStringLiteral("mixtral-8x7b"));
  EXPECT_DOUBLE_EQ(page.activeParams(), 12.9e9);
  EXPECT_NEAR(page.whatIfCeiling(QStringLiteral("FP16")), 129.84, 0.01);
  const QString ceiling = page.ceilingText();
  for (const char* s : {"FP16 ≤ 130", "would allow 35.9", "93.4 GB", "not VRAM"})
    EXPECT_TRUE(ceiling.contains(QString::fromUtf8(s))) << s << " in " << ceiling.toStdString();
  EXPECT_TRUE(page.ceilingBarLabels().contains(QStringLiteral("130")));
  page.setPromptTokens(1000);
  EXPECT_TRUE(page.prefillText().contains(QStringLiteral("about <b>32.5 ms</b> (compute-bound)"))) << page.prefillText().toStdString();
  // Back to dense: the box's size again.
  page.setMoeModel(QString());
  page.setParamsBillions(7);
  EXPECT_NEAR(page.whatIfCeiling(QStringLiteral("FP16")), 239.29, 0.01);
}

// The ceiling's key on a narrow projector chart: two keys to a row, the published sources named by their project
// ("published: RTX 4090, llama.cpp"), the whole citations in the chart's tooltip; on a wide chart (a 1280×720
// slide, a 1920 window) the whole citations in the key. Four rows of key at 1024 px left the bars 95 px.
TEST(DecodePage, NarrowCeilingKeyTakesTwoRowsAndKeepsTheCitations) {
  AppContext ctx(noGpu());
  ctx.setTheme(Theme::byName(QStringLiteral("projector-dark")));
  DecodePage page(ctx);
  page.initialize();
  page.setParamsBillions(7);
  page.show();
  auto keyNames = [&] {
    QStringList names;
    QCPLegend* legend = page.ceilingPlot()->legend;
    for (int i = 0; i < legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i))) names << item->plottable()->name();
    return names.join(QStringLiteral(" | "));
  };
  page.resize(1024, 700);  // the chart about 940 px wide, as at 1024×768 in projector mode
  QTest::qWait(150);
  page.recordingsChanged();  // a redraw at that width
  QTest::qWait(80);
  ASSERT_LT(page.ceilingPlot()->width(), 1000);
  EXPECT_EQ(page.ceilingPlot()->legend->wrap(), 2) << keyNames().toStdString();
  EXPECT_TRUE(keyNames().contains(QStringLiteral("published: RTX 4090, llama.cpp"))) << keyNames().toStdString();
  EXPECT_TRUE(page.ceilingPlot()->toolTip().contains(QStringLiteral("published: ggerganov/llama.cpp PR 4766, RTX 4090")))
      << page.ceilingPlot()->toolTip().toStdString();
  page.resize(1920, 1000);
  QTest::qWait(150);
  page.recordingsChanged();
  QTest::qWait(80);
  ASSERT_GT(page.ceilingPlot()->width(), 1500);
  EXPECT_EQ(page.ceilingPlot()->legend->wrap(), 2);
  EXPECT_TRUE(keyNames().contains(QStringLiteral("published: pytorch-labs/gpt-fast README, A100-80GB (330 W cap)")))
      << keyNames().toStdString();
  EXPECT_FALSE(page.ceilingPlot()->toolTip().contains(QStringLiteral("llama.cpp PR")));
}

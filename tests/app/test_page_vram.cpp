// The VRAM page: presets move the bars, the lesson's 24 GB card verdicts come out, and without a GPU the live
// panel says why it is empty.
#include "app_test_support.h"
#include "format.h"
#include "pages/vram/vram_page.h"
#include "widgets/vram_bars.h"

#include "gpulab/page_plans.hpp"

#include <QApplication>
#include <QLabel>
#include <QSpinBox>
#include <QTest>
#include <gtest/gtest.h>

#include <set>

using namespace gpulab::models;

namespace {
double barTotal(VramPage& p, const QString& label) {
  for (const VramBar& b : p.calculatorBars()->bars())
    if (b.label == label) return b.total();
  return -1;
}
// The lesson's running example: the 7B model in FP16 on the 24 GB shop card.
void lessonSevenBOnTheShopCard(VramPage& page) {
  page.choosePreset(QStringLiteral("lesson-7b"));
  page.setCard(QStringLiteral("Shop card"));
  page.setFormat(NumberFormat::fp16);
}
}  // namespace

TEST(VramPage, PresetsChangeTheBars) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  page.choosePreset(QStringLiteral("llama-3.2-1b"));
  const double small = barTotal(page, QStringLiteral("FP16/BF16"));
  page.choosePreset(QStringLiteral("llama-3-70b"));
  const double big = barTotal(page, QStringLiteral("FP16/BF16"));
  EXPECT_GT(small, 0);
  EXPECT_GT(big, 10 * small);
  EXPECT_EQ(page.calculatorBars()->bars().size(), 5);
}

TEST(VramPage, LessonWeightsForSevenB) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  page.choosePreset(QStringLiteral("lesson-7b"));
  const struct { NumberFormat f; double gb; } cases[] = {
      {NumberFormat::fp32, 28.0}, {NumberFormat::fp16, 14.0}, {NumberFormat::int8, 7.0}, {NumberFormat::int4, 3.5}};
  for (const auto& c : cases) {
    page.setFormat(c.f);
    EXPECT_DOUBLE_EQ(page.budget().weights, c.gb * 1e9);
  }
  page.setMode(VramMode::train);
  page.setFormat(NumberFormat::fp16);
  const VramBudget b = page.budget();
  EXPECT_DOUBLE_EQ(b.weights + b.gradients + b.master_weights + b.optimizer, 112e9);
  // Training breaks the state down: weights, gradients, FP32 master, Adam m and v are separate segments.
  QStringList names;
  for (const VramBar& bar : page.calculatorBars()->bars())
    if (bar.label == QLatin1String("FP16/BF16"))
      for (const VramSegment& s : bar.segments) names << s.name;
  for (const char* part : {"Weights", "Gradients", "FP32 master", "Adam m", "Adam v"})
    EXPECT_TRUE(names.contains(QLatin1String(part))) << part << " missing from " << names.join(',').toStdString();
}

TEST(VramPage, ShopCardFp16FitsWithTenGigabytesFp32DoesNot) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  page.choosePreset(QStringLiteral("lesson-7b"));
  page.setCard(QStringLiteral("Shop card"));
  EXPECT_DOUBLE_EQ(page.cardBytes(), 24e9);
  page.setFormat(NumberFormat::fp16);
  EXPECT_TRUE(page.budget().fits);
  EXPECT_DOUBLE_EQ(page.budget().free_after_weights(), 10e9);
  EXPECT_TRUE(page.weightsText().contains(QStringLiteral("10.0 GB"))) << page.weightsText().toStdString();
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("fits"))) << page.verdictText().toStdString();

  page.setFormat(NumberFormat::fp32);
  const VramBudget b = page.budget();
  EXPECT_FALSE(b.fits);
  // Short by 4 GB on weights alone, more once overhead and the KV cache are added.
  EXPECT_TRUE(page.weightsText().contains(QStringLiteral("4.00 GB more"))) << page.weightsText().toStdString();
  EXPECT_GT(b.short_by(), 4e9 + b.overhead - 1);
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("short by"))) << page.verdictText().toStdString();
  // The FP32 bar is marked as not fitting, the FP16 one as fitting.
  for (const VramBar& bar : page.calculatorBars()->bars()) {
    if (bar.label == QLatin1String("FP32")) EXPECT_FALSE(bar.good);
    if (bar.label == QLatin1String("FP16/BF16")) EXPECT_TRUE(bar.good);
  }
}

TEST(VramPage, BarsAnimateToTheirNewSize) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  page.resize(1400, 800);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  QTest::qWait(400);  // settle the first animation
  page.setUsers(1);
  page.choosePreset(QStringLiteral("lesson-7b"));
  QTest::qWait(400);
  VramBars* bars = page.calculatorBars();
  bars->setAnimationMs(3000);  // slow, so a loaded test machine still catches it mid-way
  const double before = bars->displayedTotal(1);
  page.setUsers(64);  // 64 KV caches: much taller
  const double target = bars->bars()[1].total();
  EXPECT_GT(target, before);
  EXPECT_TRUE(bars->isAnimating());
  QTest::qWait(100);
  const double mid = bars->displayedTotal(1);
  EXPECT_LT(mid, target);
  EXPECT_GT(mid, before);
  page.hide();  // paused while hidden: the timer stops
  EXPECT_FALSE(bars->isAnimating());
  page.show();
  QTest::qWait(3500);
  EXPECT_NEAR(bars->displayedTotal(1), target, 1e6);
  EXPECT_FALSE(bars->isAnimating());
}

TEST(VramPage, LongestContextAndMostUsers) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  lessonSevenBOnTheShopCard(page);
  const auto maxCtx = max_context_that_fits(page.inputs(), page.cardBytes());
  EXPECT_GT(maxCtx, 4096);
  VramInputs in = page.inputs();
  in.context = double(maxCtx);
  EXPECT_TRUE(vram_budget(in, 24e9).fits);
  in.context = double(maxCtx + 1);
  EXPECT_FALSE(vram_budget(in, 24e9).fits);
}

TEST(VramPage, WithoutGpuTheLivePanelSaysWhy) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  EXPECT_TRUE(page.liveText().startsWith(QStringLiteral("No GPU here:"))) << page.liveText().toStdString();
  EXPECT_TRUE(page.liveBars()->bars().isEmpty());
  EXPECT_TRUE(page.liveBars()->emptyText().contains(QStringLiteral("No GPU here")));
  page.run();  // Space without a GPU: no job, the reason again
  EXPECT_FALSE(ctx.runner().isBusy());
  EXPECT_TRUE(page.liveText().startsWith(QStringLiteral("No GPU here:")));
}

TEST(VramPage, RecordedHoldIsReplayedAndAnUnrunNoteIsNot) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  // A CPU-only recording's vram suite: a note that it needs a GPU. Nothing to draw from it.
  gpulab::Recording cpuOnly;
  cpuOnly.context = {{"cpu", "AMD EPYC"}, {"date", "2026-12-01T11:00:00Z"}};
  gpulab::Result note;
  note.experiment = "hold_memory";
  note.backend = "cpu";
  note.variant = "held";
  note.error = "the live memory bars need a GPU";
  cpuOnly.results.push_back(note);
  ctx.results().addRecording(QStringLiteral("/tmp/cpu.json"), cpuOnly);
  QCoreApplication::processEvents();
  EXPECT_TRUE(page.liveBars()->bars().isEmpty());
  EXPECT_TRUE(page.liveText().startsWith(QStringLiteral("No GPU here:"))) << page.liveText().toStdString();
  // A GPU recording's hold: 17.4 GB held on a 141 GB card, 120 GB free before.
  gpulab::Recording gpu;
  gpu.context = {{"gpu", "NVIDIA H200"}, {"date", "2026-11-30T10:00:00Z"}};
  gpulab::Result held;
  held.experiment = "hold_memory";
  held.backend = "cuda";
  held.variant = "held";
  held.check.passed = true;
  held.params = {{"requested", 17.4e9}, {"held", 17.4e9}, {"before_free", 120e9}, {"before_total", 141e9},
                 {"now_free", 102.6e9}, {"now_total", 141e9}, {"step", 8}, {"steps", 8}};
  gpu.results.push_back(held);
  ctx.results().addRecording(QStringLiteral("/tmp/h200.json"), gpu);
  QCoreApplication::processEvents();
  // A recording from before the parts: its one step as the prediction (what was held) and the reading.
  ASSERT_EQ(page.liveBars()->bars().size(), 2);
  EXPECT_EQ(page.liveBars()->bars()[0].label, QStringLiteral("#8"));
  EXPECT_EQ(page.liveBars()->bars()[1].label, QStringLiteral("dev."));
  EXPECT_NEAR(page.liveBars()->bars()[1].total(), 17.4e9, 1e6);
}

namespace {
// A Vulkan recording of the hold on an integrated GPU: weights, KV cache, activations, one more user, then the
// stop (`stop`: "refused" or "out_of_memory") and the release.
gpulab::Recording igpuHold(const std::string& stop) {
  gpulab::Recording rec;
  rec.context = {{"gpu", "Intel Iris Xe"}, {"date", "2026-12-02T10:00:00Z"}};
  const double total = 16e9, free0 = 9e9;
  double held = 0;
  auto result = [&](const std::string& variant, int step, gpulab::HoldPartKind part, double bytes, double extra) {
    gpulab::Result r;
    r.experiment = "hold_memory";
    r.plan = "vram";
    r.backend = "vulkan";
    r.variant = variant;
    r.check.passed = variant == "holding" || variant == "released";
    r.error = variant == "holding" || variant == "released" ? "" : variant == "refused" ? "would not fit: short by 1 GB" : "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    r.provenance = {{"device", "Intel Iris Xe"}, {"device_type", "integrated GPU"}, {"memory", "shared with the CPU"}};
    r.params = {{"requested", 3.3e9}, {"held", held}, {"predicted", held}, {"step_bytes", bytes},
                {"part", double(int(part))}, {"margin", 0.8e9}, {"scale", 1}, {"cap", 0}, {"shared_memory", 1},
                {"before_free", free0}, {"before_total", total}, {"now_free", free0 - held - extra},
                {"now_total", total}, {"step", double(step)}, {"steps", 3}};
    rec.results.push_back(r);
  };
  using K = gpulab::HoldPartKind;
  held = 2e9;
  result("holding", 1, K::weights, 2e9, 0.05e9);
  held = 2.5e9;
  result("holding", 2, K::kv_cache, 0.5e9, 0.06e9);
  held = 2.8e9;
  result("holding", 3, K::activations, 0.3e9, 0.06e9);
  held = 3.3e9;
  result("holding", 4, K::more_users, 0.5e9, 0.07e9);
  result(stop, 5, K::more_users, 5e9, 0.07e9);
  held = 0;
  result("released", 4, K::chunk, 0, 0);
  return rec;
}
}  // namespace

TEST(VramPage, ARecordedVulkanHoldReplaysTheSameBarsAndSaysTheMemoryIsShared) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  ctx.results().addRecording(QStringLiteral("/tmp/igpu.json"), igpuHold("refused"));
  QCoreApplication::processEvents();
  const auto& bars = page.liveBars()->bars();
  ASSERT_EQ(bars.size(), 4 * 2 + 1);  // four steps as prediction + reading, then the step that would not fit
  EXPECT_EQ(bars[0].label, QStringLiteral("#1"));
  EXPECT_NEAR(bars[0].total(), 2e9, 1);
  EXPECT_NEAR(bars[1].total(), 2.05e9, 1);            // the device's reading
  // One caption for the pair, under both bars: the prediction and the difference, stated.
  EXPECT_EQ(bars[0].caption, fmtBytes(2e9, 3) + QStringLiteral("\n+") + fmtBytes(0.05e9, 3));
  EXPECT_TRUE(bars[0].textSpansNext);
  EXPECT_TRUE(bars[1].caption.isEmpty());
  EXPECT_EQ(bars[6].segments.size(), 4);              // the prediction stacked by part
  EXPECT_EQ(bars.back().segments.back().name, QStringLiteral("Did not fit"));
  EXPECT_FALSE(bars.back().good);
  EXPECT_TRUE(page.liveText().contains(QStringLiteral("This is where it would not fit"))) << page.liveText().toStdString();
  auto* note = page.findChild<QLabel*>(QStringLiteral("vramSharedNote"));
  ASSERT_TRUE(note);
  EXPECT_FALSE(note->isHidden()) << "an integrated GPU is never shown as dedicated VRAM";
  EXPECT_TRUE(note->text().contains(QStringLiteral("not dedicated VRAM")));
  EXPECT_TRUE(note->toolTip().contains(QStringLiteral("computer's RAM")));
  const QString csv = page.plots()[1].csv();
  EXPECT_EQ(csv.count(QLatin1Char('\n')), 1 + 4 + 1 + 1) << csv.toStdString();  // header, steps, stop, freed
  EXPECT_TRUE(csv.contains(QStringLiteral("would_not_fit")));
}

TEST(VramPage, TheOutOfMemoryMomentIsShownNotACrash) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  ctx.results().addRecording(QStringLiteral("/tmp/igpu-oom.json"), igpuHold("out_of_memory"));
  QCoreApplication::processEvents();
  EXPECT_TRUE(page.liveText().contains(QStringLiteral("out-of-memory moment"))) << page.liveText().toStdString();
  EXPECT_EQ(page.liveBars()->bars().back().segments.back().name, QStringLiteral("Did not fit"));
  EXPECT_FALSE(page.liveBars()->bars().back().good);
}

TEST(VramPage, LessonAndExports) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  const LessonContent l = page.lesson();
  EXPECT_FALSE(l.intro.isEmpty());
  ASSERT_GE(l.exercises.size(), 2);
  EXPECT_NEAR(l.exercises[0].compute(), 3.5, 1e-9);
  EXPECT_NEAR(l.exercises[1].compute(), 10.0, 1e-9);
  const auto plots = page.plots();
  ASSERT_EQ(plots.size(), 2);
  EXPECT_TRUE(plots[0].csv().startsWith(QStringLiteral("bar,part,bytes")));
  EXPECT_TRUE(plots[0].csv().contains(QStringLiteral("FP32,Weights")));
}

TEST(VramPage, DefaultPlanIsTheBenchSuite) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  // The page's default estimate is the request the bench holds (7B in FP16, 4,096 tokens).
  EXPECT_NEAR(page.runControls().request_bytes, gpulab::vram_default_request_bytes(), 1e6);
  const gpulab::Backends backends{&ctx.cpu(), ctx.gpu(), ctx.gpuReason().toStdString()};
  std::multiset<std::string> fromPage, fromSuite;
  for (const auto& j : page.plan().jobs) fromPage.insert(gpulab::job_key(j));
  for (const auto& j : gpulab::suite_plan("vram", backends).jobs) fromSuite.insert(gpulab::job_key(j));
  EXPECT_EQ(fromPage, fromSuite);
  page.choosePreset(QStringLiteral("llama-3-70b"));
  EXPECT_GT(page.runControls().request_bytes, 2 * gpulab::vram_default_request_bytes());
}

TEST(VramPage, OnAProjectorTheKvCacheGroupTakesItsOwnTabAndComesBack) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  EXPECT_FALSE(page.kvInOwnTab());
  page.applyTheme(Theme::projector(false));
  EXPECT_TRUE(page.kvInOwnTab());
  auto* layers = page.findChild<QSpinBox*>();  // the first spin box is in the KV group: still there, still works
  ASSERT_TRUE(layers);
  page.applyTheme(Theme::normal());
  EXPECT_FALSE(page.kvInOwnTab());
  page.applyTheme(Theme::projector(true));
  page.applyTheme(Theme::projector(false));
  EXPECT_TRUE(page.kvInOwnTab());
}

// Issue 28: the KV cache's format is a control of its own, and the strip gives the longest context and the most
// users for FP16, FP8 and INT4 side by side, from the model (kv_format_fits), the chosen one in bold. The lesson's
// 7B in FP16 on the 24 GB shop card, 1 user at 4,096 tokens: 17,115 / 34,230 / 60,853 tokens and 4 / 8 / 14 users
// (worked by hand in tests/unit/test_models_vram.cpp).
TEST(VramPage, KvFormatsSideBySideInTheStrip) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  lessonSevenBOnTheShopCard(page);
  page.setContext(4096);
  page.setUsers(1);
  const QString ctxLine = page.contextText(), usersLine = page.usersText();
  EXPECT_TRUE(ctxLine.contains(QStringLiteral("FP16 <b>17,115</b>"))) << ctxLine.toStdString();
  EXPECT_TRUE(ctxLine.contains(QStringLiteral("FP8 34,230"))) << ctxLine.toStdString();
  EXPECT_TRUE(ctxLine.contains(QStringLiteral("INT4 60,853"))) << ctxLine.toStdString();
  EXPECT_TRUE(usersLine.contains(QStringLiteral("FP16 <b>4</b>"))) << usersLine.toStdString();
  EXPECT_TRUE(usersLine.contains(QStringLiteral("INT4 14"))) << usersLine.toStdString();
  const double fp16Bar = barTotal(page, QStringLiteral("FP16/BF16"));
  page.setKvFormat(NumberFormat::fp8);
  EXPECT_EQ(page.inputs().kv_format, NumberFormat::fp8);
  EXPECT_TRUE(page.contextText().contains(QStringLiteral("FP8 <b>34,230</b>"))) << page.contextText().toStdString();
  EXPECT_TRUE(page.usersText().contains(QStringLiteral("FP8 <b>8</b>")));
  // The bars carry the chosen cache: 4,096 tokens × 262,144 bytes less than FP16's 524,288.
  EXPECT_NEAR(fp16Bar - barTotal(page, QStringLiteral("FP16/BF16")), 4096.0 * 262'144, 1.0);
  // Training keeps no KV cache: the control is off and the strip speaks of sequences.
  page.setMode(VramMode::train);
  EXPECT_FALSE(page.findChild<QWidget*>(QStringLiteral("vramKvFormat"))->isEnabled());
  EXPECT_FALSE(page.contextText().contains(QStringLiteral("KV format")));
}

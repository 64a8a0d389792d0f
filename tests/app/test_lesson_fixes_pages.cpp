// Issue 14, "wrong or misleading", on the pages: the many-GPUs exercises count NVLink per direction (~54 ms,
// ~7x PCIe), the picture shows the calculator's GPUs, tensor/pipeline parallelism have no gradient all-reduce;
// the 1,979 headline is named (sparse FP16/BF16 = dense FP8) with the dense figure; the SIMD sentence follows the
// detected width; the VRAM page refuses full training in INT4 and offers QLoRA.
#include "app_test_support.h"
#include "pages/batch/batch_page.h"
#include "pages/matmul/matmul_page.h"
#include "pages/multigpu/multigpu_page.h"
#include "pages/precision/precision_page.h"
#include "pages/vram/vram_page.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/vram_model.hpp"
#include "widgets/parallelism_view.h"

#include <QTest>
#include <gtest/gtest.h>

TEST(LessonFixesPages, AllReduceExercisesPerDirection) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  const LessonContent c = page.lesson();
  ASSERT_EQ(c.exercises.size(), 2);
  const double nv = c.exercises[0].compute(), pcie = c.exercises[1].compute();
  EXPECT_NEAR(nv, 54.4, 0.1);
  EXPECT_NEAR(pcie, 382.8, 0.1);
  EXPECT_NEAR(pcie / nv, 7.0, 0.1);
  EXPECT_TRUE(c.exercises[0].explanation.contains(QStringLiteral("54 ms")));
  EXPECT_TRUE(c.exercises[1].explanation.contains(QStringLiteral("seven times")));
}

TEST(LessonFixesPages, PictureAndModesFollowTheCalculator) {
  AppContext ctx(noGpu());
  MultiGpuPage page(ctx);
  page.initialize();
  page.setCalculator(7, 2, 8, QStringLiteral("NVLink4"));
  EXPECT_EQ(page.view()->gpuCount(), 8);
  EXPECT_EQ(page.view()->drawnGpus(), 8);
  page.setCalculator(7, 2, 3, QStringLiteral("NVLink4"));
  EXPECT_EQ(page.view()->drawnGpus(), 3);
  page.setCalculator(7, 2, 64, QStringLiteral("NVLink4"));
  EXPECT_EQ(page.view()->drawnGpus(), ParallelismView::kMaxDrawn);
  EXPECT_TRUE(page.view()->caption().contains(QStringLiteral("64"))) << page.view()->caption().toStdString();
  page.setCalculator(7, 2, 8, QStringLiteral("NVLink4"));
  EXPECT_GT(page.allReduceSeconds(), 0);
  page.setMode(1);
  EXPECT_EQ(page.allReduceSeconds(), 0);
  EXPECT_TRUE(page.calculatorText().contains(QStringLiteral("no gradient all-reduce"))) << page.calculatorText().toStdString();
  page.setMode(2);
  EXPECT_TRUE(page.calculatorText().contains(QStringLiteral("Pipeline"))) << page.calculatorText().toStdString();
  page.setMode(0);
  EXPECT_NEAR(page.allReduceSeconds(), 2.0 * 7 / 8 * 14e9 / 450e9, 1e-9);
}

TEST(LessonFixesPages, HeadlineFigureNamedWithDenseFigures) {
  for (const QString& a : {PrecisionPage::headlineAnswer(), BatchPage::headlineAnswer()}) {
    EXPECT_TRUE(a.contains(QStringLiteral("sparsity"))) << a.toStdString();
    EXPECT_TRUE(a.contains(QStringLiteral("dense FP8"))) << a.toStdString();
    EXPECT_TRUE(a.contains(QStringLiteral("989"))) << a.toStdString();
    EXPECT_FALSE(a.contains(QStringLiteral("is FP8"))) << a.toStdString();
  }
  EXPECT_TRUE(PrecisionPage::headlineAnswer().contains(QStringLiteral("1,979")));
}

TEST(LessonFixesPages, TensorCoresPerCard) {
  const QString v100 = PrecisionPage::tensorCoreText(gpulab::models::find_gpu("V100 SXM2 32GB"));
  EXPECT_TRUE(v100.contains(QStringLiteral("FP16"))) << v100.toStdString();
  EXPECT_FALSE(v100.contains(QStringLiteral("INT8"))) << v100.toStdString();
  const QString h100 = PrecisionPage::tensorCoreText(gpulab::models::find_gpu("H100 SXM"));
  EXPECT_TRUE(h100.contains(QStringLiteral("FP64")) && h100.contains(QStringLiteral("FP8"))) << h100.toStdString();
}

TEST(LessonFixesPages, SimdSentenceFromTheDetectedWidth) {
  EXPECT_EQ(MatmulPage::simdFp32Lanes("SSE4.2 AVX AVX2 FMA"), 8);
  EXPECT_EQ(MatmulPage::simdFp32Lanes("SSE4.2 AVX AVX2 FMA AVX-512F"), 8);  // the loop is built for AVX2 at most
  EXPECT_EQ(MatmulPage::simdFp32Lanes("SSE4.2 AVX"), 4);
  EXPECT_EQ(MatmulPage::simdFp32Lanes("none detected"), 0);
  EXPECT_TRUE(MatmulPage::simdSentence("SSE4.2").startsWith(QStringLiteral("4 cells")));
  EXPECT_FALSE(MatmulPage::simdSentence("none detected").contains(QStringLiteral("8")));
}

TEST(LessonFixesPages, VramPageRefusesFullTrainingInInt4) {
  AppContext ctx(noGpu());
  VramPage page(ctx);
  page.initialize();
  page.setParamsBillions(7);
  page.setMode(gpulab::models::VramMode::train);
  page.setFormat(gpulab::models::NumberFormat::int4);
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("Not offered"))) << page.verdictText().toStdString();
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("QLoRA"))) << page.verdictText().toStdString();
  page.setMode(gpulab::models::VramMode::lora);
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("QLoRA"))) << page.verdictText().toStdString();
  page.setMode(gpulab::models::VramMode::inference);
  page.setFormat(gpulab::models::NumberFormat::fp16);
  // 17.2 GB with a chunked prefill's working space (17.4 before issue 36).
  EXPECT_TRUE(page.verdictText().contains(QStringLiteral("17.2"))) << page.verdictText().toStdString();
}

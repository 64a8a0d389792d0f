// The software-stack page: a cuBLAS result lights library + kernels, our own kernel skips the library, a CPU
// BLAS result lights the CPU path with no driver; new results appear in the list.
#include "app_test_support.h"
#include "pages/stack/stack_page.h"
#include "widgets/stack_diagram.h"

#include <QTest>
#include <gtest/gtest.h>

namespace {
using SD = StackDiagram;
gpulab::Result result(const char* backend, const char* variant, const char* experiment = "gemm") {
  gpulab::Result r;
  r.experiment = experiment;
  r.backend = backend;
  r.variant = variant;
  r.params = {{"m", 256}, {"n", 256}, {"k", 256}};
  r.check.passed = true;
  return r;
}
}  // namespace

TEST(StackDiagram, LayersForEachKindOfRun) {
  const unsigned cublas = SD::layersFor(result("cuda", "cublas"));
  EXPECT_TRUE(cublas & SD::bit(SD::Library));
  EXPECT_TRUE(cublas & SD::bit(SD::Kernels));
  EXPECT_TRUE(cublas & SD::bit(SD::Runtime));
  EXPECT_TRUE(cublas & SD::bit(SD::Hardware));
  EXPECT_FALSE(cublas & SD::bit(SD::CpuCores));

  const unsigned own = SD::layersFor(result("cuda", "warptile"));
  EXPECT_FALSE(own & SD::bit(SD::Library));
  EXPECT_TRUE(own & SD::bit(SD::Kernels));
  EXPECT_TRUE(own & SD::bit(SD::Hardware));

  const unsigned blas = SD::layersFor(result("cpu", "blas"));
  EXPECT_TRUE(blas & SD::bit(SD::CpuLibrary));
  EXPECT_TRUE(blas & SD::bit(SD::CpuCores));
  EXPECT_FALSE(blas & SD::bit(SD::Runtime));  // no driver on the CPU path
  EXPECT_FALSE(blas & SD::bit(SD::Library));
  EXPECT_FALSE(blas & SD::bit(SD::Hardware));

  const unsigned naive = SD::layersFor(result("cpu", "naive"));
  EXPECT_TRUE(naive & SD::bit(SD::CpuCode));
  EXPECT_FALSE(naive & SD::bit(SD::CpuLibrary));

  const unsigned h2d = SD::layersFor(result("cuda", "h2d", "transfer"));
  EXPECT_TRUE(h2d & SD::bit(SD::Runtime));
  EXPECT_FALSE(h2d & SD::bit(SD::Kernels));  // copy engines, no kernel
  const unsigned p2p = SD::layersFor(result("cuda", "p2p", "transfer"));
  EXPECT_FALSE(p2p & SD::bit(SD::Kernels));

  // The decode chain: on the CPU an own streaming loop up to 8 users, OpenBLAS above; on the GPU cuBLAS.
  auto chain = [](const char* backend, double batch) {
    gpulab::Result r = result(backend, "gemm_chain", "layer_chain");
    r.params = {{"batch", batch}};
    return SD::layersFor(r);
  };
  EXPECT_TRUE(chain("cpu", 1) & SD::bit(SD::CpuCode));
  EXPECT_FALSE(chain("cpu", 8) & SD::bit(SD::CpuLibrary));
  EXPECT_TRUE(chain("cpu", 16) & SD::bit(SD::CpuLibrary));
  EXPECT_FALSE(chain("cpu", 16) & SD::bit(SD::CpuCode));
  EXPECT_TRUE(chain("cuda", 1) & SD::bit(SD::Library));
}

TEST(StackPage, ResultsLightTheirLayers) {
  AppContext ctx(noGpu());
  StackPage page(ctx);
  page.initialize();
  EXPECT_TRUE(page.showingExamples());
  EXPECT_EQ(page.experimentCount(), 3);

  ctx.results().addMeasured(result("cpu", "blas"));
  ctx.results().addMeasured(result("cuda", "naive"));
  ctx.results().addMeasured(result("cuda", "cublas"));
  QTest::qWait(80);  // the coalesced refresh
  EXPECT_FALSE(page.showingExamples());
  ASSERT_EQ(page.experimentCount(), 3);

  page.selectExperiment(0);  // newest first: cuBLAS
  EXPECT_TRUE(page.diagram()->lit() & SD::bit(SD::Library));
  EXPECT_TRUE(page.diagram()->lit() & SD::bit(SD::Kernels));
  EXPECT_TRUE(page.diagram()->caption().contains(QStringLiteral("cublas")));

  page.selectExperiment(1);  // own kernel
  EXPECT_FALSE(page.diagram()->lit() & SD::bit(SD::Library));
  EXPECT_TRUE(page.diagram()->lit() & SD::bit(SD::Kernels));

  page.selectExperiment(2);  // OpenBLAS on the CPU
  EXPECT_TRUE(page.diagram()->lit() & SD::bit(SD::CpuLibrary));
  EXPECT_TRUE(page.diagram()->lit() & SD::bit(SD::CpuCores));
  EXPECT_FALSE(page.diagram()->lit() & SD::bit(SD::Runtime));
}

TEST(StackPage, ClickingALayerExplainsIt) {
  AppContext ctx(noGpu());
  StackPage page(ctx);
  page.initialize();
  page.resize(1200, 700);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
  StackDiagram* d = page.diagram();
  const QPoint at = d->layerRect(SD::Library).center().toPoint();
  QTest::mouseClick(d, Qt::LeftButton, {}, at);
  EXPECT_EQ(d->selected(), int(SD::Library));
  EXPECT_TRUE(page.explanationText().contains(QStringLiteral("cuBLAS"))) << page.explanationText().toStdString();
  for (int l = 0; l < SD::LayerCount; ++l) EXPECT_FALSE(SD::layerExplanation(SD::Layer(l)).isEmpty());
}

TEST(StackPage, AVulkanResultShowsVulkansLayersAndIsNotCalledAGpuOnTheCpu) {
  AppContext ctx(noGpu());
  StackPage page(ctx);
  page.initialize();
  gpulab::Recording rec;
  rec.context["date"] = "2026-12-01T10:00:00Z";
  gpulab::Result r = result("vulkan", "vectorized");
  r.provenance["device_type"] = "CPU (not a GPU)";
  r.provenance["device"] = "Vulkan on the CPU (llvmpipe) — not a GPU";
  rec.results.push_back(r);
  ctx.results().addRecording(QStringLiteral("/tmp/lavapipe.json"), rec);
  page.refreshList();
  ASSERT_FALSE(page.showingExamples());
  page.selectExperiment(0);
  EXPECT_EQ(page.diagram()->api(), SD::Api::vulkanCpu);
  EXPECT_TRUE(SD::layerName(SD::Kernels, page.diagram()->api()).contains(QStringLiteral("Vulkan")));
  EXPECT_TRUE(page.diagram()->caption().contains(QStringLiteral("not a GPU"))) << page.diagram()->caption().toStdString();
  EXPECT_FALSE(page.diagram()->lit() & SD::bit(SD::Hardware));
  EXPECT_TRUE(StackPage::describe(r).contains(QStringLiteral("not a GPU")));
}

TEST(StackPage, OnAProjectorTheListOfRunsTakesItsOwnTabAndPickingStillLights) {
  AppContext ctx(noGpu());
  StackPage page(ctx);
  page.initialize();
  EXPECT_FALSE(page.listInOwnTab());
  page.applyTheme(Theme::projector(false));
  EXPECT_TRUE(page.listInOwnTab());
  page.selectExperiment(2);  // the CPU BLAS example
  EXPECT_TRUE(page.diagram()->lit() & SD::bit(SD::CpuLibrary));
  page.applyTheme(Theme::normal());
  EXPECT_FALSE(page.listInOwnTab());
}

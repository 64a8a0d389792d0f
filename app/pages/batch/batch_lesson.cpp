// The batch page's lesson: the intro, the questions and the exercises, in the app's own words (moved verbatim from
// batch_page.cpp; the page's controls and drawing are there and in batch_page_views.cpp).
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "pages/batch/batch_page.h"

#include <cmath>

QString BatchPage::headlineAnswer() {
  // On the H100 SXM sheet 1,979 is FP16/BF16 with 2:4 sparsity (= dense FP8); the app uses dense figures only.
  const gpulab::models::GpuSpec* h = gpulab::models::find_gpu("H100 SXM");
  if (!h || !h->fp8_tflops || !h->fp16_tflops) return {};
  return tr("No, for two reasons. That headline is FP16/BF16 with 2:4 sparsity (the same number is the dense FP8 "
            "figure); the dense FP16/BF16 figure this app uses is %1 — compare like with like. And batch 1 sits "
            "far left of the ridge point, where the memory roof, not the compute roof, sets the speed.")
      .arg(fmtCount(std::llround(*h->fp16_tflops)));
}

LessonContent BatchPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "A dense layer multiplies a batch X (B rows) by a weight matrix W (d_in × d_out). The weights are the big "
      "part: at B = 1 each one is fetched from memory to be used in a single multiply-add, about 2 FLOPs per "
      "2 bytes in FP16 — 1 FLOP per byte. Every extra row reuses the same weights, so the work grows with B while "
      "the traffic barely does. This page measures that, one batch size after another: first the layer is limited "
      "by how fast memory delivers W, then, past the ridge point, by how fast the cores can multiply.");
  c.questions << LessonQuestion{
      tr("Why is generating text for a single user memory-bound, even on the fastest GPU?"),
      tr("Each new token is a batch of one: every weight is read once and used for about 2 FLOPs. At ~1 FLOP per "
         "byte the GPU would need ~300 times more reuse to keep its cores busy, so it waits on HBM. Batching users "
         "together (or processing a whole prompt at once) is what moves the point to the right.")};
  c.questions << LessonQuestion{
      tr("Doubling the batch doubles the FLOPs. Why does the time barely change at small B?"),
      tr("Because the time is spent reading W, and W is the same size at B = 1 and B = 2. The extra rows of X and "
         "Y are tiny next to d_in × d_out weights, so throughput (FLOP/s) almost doubles for free — until the "
         "arithmetic itself takes longer than the read.")};
  c.questions << LessonQuestion{
      tr("The H100 SXM's sheet quotes 1,979 TFLOP/s. Will a batch-1 FP16 decoder see anything close to it?"),
      headlineAnswer()};
  const BatchPage* self = this;
  c.exercises << LessonExercise{
      tr("Predict the arithmetic intensity at B = 256 in FP16, with d_in = d_out = 4096 (bytes counted as in the "
         "lesson: X, W and Y once each)."),
      tr("FLOPs per byte"),
      [] { return gpulab::models::arithmetic_intensity(256, 4096, 4096, 2); },
      tr("2·256·4096² FLOPs over 2·(256·4096 + 4096² + 256·4096) bytes = 227.6 FLOPs per byte."),
      0.02};
  c.exercises << LessonExercise{
      tr("And at B = 1? (Same layer, FP16.)"),
      tr("FLOPs per byte"),
      [] { return gpulab::models::arithmetic_intensity(1, 4096, 4096, 2); },
      tr("2·4096² FLOPs over about 2·4096² bytes: 1.0 FLOP per byte — why batch-1 decoding is memory-bound."),
      0.05};
  c.exercises << LessonExercise{
      tr("Run the sweep first. At what batch size does this machine turn compute-bound?"),
      tr("B"),
      [self] { return self->crossoverFound() ? double(self->crossoverBatch()) : self->modelCrossoverBatch(); },
      tr("The measured crossover (the first batch reaching 80 % of the plateau). Without a finished sweep the app "
         "answers with the model's estimate from the ridge point. This machine's ridge is the one in the Model line "
         "under the plot — its measured FP32 peak ÷ its measured triad bandwidth — and the crossover sits where "
         "the layer's FLOPs per byte reach it; a datasheet H100 in FP16 needs about 300, batches in the hundreds."),
      0.5};
  c.exercises.back().measured = true;  // the sweep's crossover: running it again changes the answer
  return c;
}

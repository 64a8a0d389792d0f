// The What-is-a-GPU page's lesson: intro and questions (the page's code is in whatgpu_page.cpp).
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/whatgpu/whatgpu_page.h"
#include "pages/running_example.h"

#include <cmath>

// The shop's story as this page tells it (running_example.h: the figures, from the models).
static QString runningExampleLine() {
  using namespace running_example;
  const Facts& f = facts();
  const QString card = cardWithDatasheet();
  return running_example::tr("An appliance shop wants a 7B language model to answer its customers, and later to learn from its own "
            "support tickets. The following pages settle three choices for it: which card, how many, and which "
            "number format. Where they land: one 24 GB card — here the %1 — holding FP16 weights of %2, which "
            "answers one customer at up to %3 tokens/s (model ceiling).")
      .arg(card, gb(f.fp16Gb), tps(f.fp16TokensS));
}

LessonContent WhatGpuPage::lesson() const {
  LessonContent c;
  c.runningExample = runningExampleLine();
  c.intro = tr(
      "GPUs began as chips for drawing: every frame of a game needs a colour for millions of pixels, and each "
      "pixel's sum looks like its neighbour's without waiting for it. So the designers spent the chip on "
      "thousands of small lanes that run one instruction over many pieces of data together, and little on the "
      "cleverness a CPU core has (predicting branches, reordering work, big caches).\n\n"
      "NVIDIA's CUDA (2007) let programmers use those lanes for any arithmetic, not just pictures. In 2012 "
      "AlexNet, an image classifier trained on two ordinary gaming cards, won the ImageNet contest by a large "
      "gap, and deep learning has run on GPUs ever since. From Volta (2017) on, NVIDIA added Tensor Cores: where a "
      "CUDA core does one fused multiply-add a clock, a Tensor Core multiplies a whole small tile per instruction "
      "(on Volta a 4×4 by 4×4 product in FP16, 64 multiply-adds), which is why the dense FP16 figure of a "
      "recent card is several times its FP32 one.\n\n"
      "The picture counts both chips for real and alike: this machine's cores on the left, the chosen card's SMs "
      "on the right, each with the FP32 multiply-adds it does a clock (FMA units × SIMD width).");
  c.questions = {
      {tr("This CPU's FP32 peak and the card's are in the table. Why can the card have so many more lanes?"),
       tr("Each GPU lane is simple: it shares its instruction decoder and scheduler with 31 others in a warp, and "
          "the chip has no heavy branch prediction or out-of-order machinery per lane. The area a CPU spends on "
          "making one thread fast, a GPU spends on more lanes.")},
      {tr("Why did pixels make a good training ground for deep learning's arithmetic?"),
       tr("Both are the same sum repeated over data that does not depend on itself: one pixel's colour does not "
          "need its neighbour's, and one output cell of a matrix product does not need any other. Hardware built "
          "for the first fits the second.")},
  };
  // An exercise from the catalogue: the peak is SMs × lanes × clock × 2 FLOPs per FMA.
  c.exercises.push_back(
      {tr("The RTX 4090 has 128 SMs of 128 FP32 lanes at a 2,520 MHz boost clock. Predict its FP32 peak in TFLOP/s "
          "(each lane does one multiply-add, 2 FLOPs, a clock)."),
       tr("TFLOP/s"),
       [] {
         const auto* g = gpulab::models::find_gpu("RTX 4090");
         return g ? g->sms * 128.0 * g->boost_mhz * 1e6 * 2 / 1e12 : 0.0;
       },
       tr("128 × 128 × 2.52 GHz × 2 = 82.6 TFLOP/s, the datasheet's figure. A CPU core counts the same way: two FMA "
          "units of 8 floats at ~3.7 GHz is 16 × 2 × 3.7 ≈ 118 GFLOP/s a core."),
       0.05});
  return c;
}

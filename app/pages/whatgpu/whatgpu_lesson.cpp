// The What-is-a-GPU page's lesson: intro and questions (the page's code is in whatgpu_page.cpp).
#include "format.h"
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
      "gap, and deep learning has run on GPUs ever since. From Volta (2017) on, NVIDIA added Tensor Cores that "
      "multiply whole small tiles of a matrix at once.\n\n"
      "The picture counts both chips for real: this machine's cores with their SIMD lanes on the left, the chosen "
      "card's SMs on the right.");
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
  return c;
}

// The many-GPUs page's lesson: intro, questions and exercises (the page's code is in multigpu_page.cpp).
#include "pages/multigpu/multigpu_page.h"
#include "pages/running_example.h"

#include <cmath>

#include "format.h"

// The shop's story as this page tells it (running_example.h: the figures, from the models).
static QString runningExampleLine() {
  using namespace running_example;
  const Facts& f = facts();
  return running_example::tr("How many GPUs does the shop need? To serve: %1 (%2 of FP16 weights on a %3 GB card). To fine-tune "
            "every weight: the ~%4 of state alone spans %5 of its cards or %6 H100s of 80 GB, sharded. So the shop "
            "fine-tunes on its single card — LoRA about %7, QLoRA about %8, both with gradient checkpointing — "
            "and reaches for several GPUs only for a full fine-tune (model figures).")
      .arg(f.cardsToServe)
      .arg(gb(f.fp16Gb), fmtFixed(f.cardGb, 0), fmtFixed(f.trainingStateGb, 0) + QStringLiteral(" GB"))
      .arg(f.cardsForTrainingState)
      .arg(f.h100sForTrainingState)
      .arg(gb(f.loraGb), gb(f.qloraGb));
}

LessonContent MultiGpuPage::lesson() const {
  LessonContent c;
  c.runningExample = runningExampleLine();
  c.intro = tr("One card stops being enough in two ways: the model no longer fits in its memory, or training on it "
               "alone would run for years. The GPUs of one server are wired together with NVLink, several times "
               "faster than PCIe; separate servers are linked by InfiniBand or fast Ethernet. Data parallelism gives every GPU a full copy and a slice of the "
               "batch, then averages the gradients; tensor parallelism cuts each layer's matrices into pieces; "
               "pipeline parallelism puts consecutive layers on consecutive GPUs. Large training runs combine all "
               "three. The shop's 7B chatbot is served from a single GPU; to fine-tune it, LoRA with gradient "
               "checkpointing (about %1) %2 on that one card, or a few cards can share the job with sharded data "
               "parallelism.")
                .arg(fmtFixed(running_example::facts().loraGb, 1) + QStringLiteral(" GB"),
                     running_example::facts().loraFits ? tr("fits") : tr("does not fit"));
  c.questions.append({tr("The shop wants to serve its 7B chatbot in FP16 on a 24 GB card. How many GPUs does it "
                         "need, and when would it need more?"),
                      tr("One: the FP16 weights take 14 GB, leaving room for the KV cache. More GPUs come in for full "
                         "fine-tuning (about 112 GB of training state) — sharded data parallelism across a few cards — "
                         "or for models too big for one card.")});
  c.questions.append({tr("Why does tensor parallelism usually stay inside one NVLink server, while data parallelism "
                         "can stretch across servers?"),
                      tr("Tensor parallelism exchanges partial results inside every layer, many times per step, so "
                         "it needs the fastest link. Data parallelism sends the gradients once per step and can "
                         "overlap that with the backward pass, so a slower network between servers is acceptable.")});
  c.exercises.append({tr("A 7B model's BF16 gradients (14 GB) are all-reduced in a ring of 8 GPUs over NVLink 4 "
                         "(900 GB/s as quoted, both directions added: 450 GB/s each way). Predict the time per step "
                         "in milliseconds."),
                      tr("ms"), [] { return 1e3 * ringAllReduceSeconds(14e9, 8, 450e9); },
                      tr("Each GPU sends and receives at once, each at one direction's rate: 2 · 7/8 · 14 GB ÷ "
                         "450 GB/s ≈ 54 ms (a model: real all-reduces overlap with compute and lose some "
                         "bandwidth)."),
                      0.1});
  c.exercises.append({tr("The same all-reduce over PCIe Gen5 x16 (64 GB/s each way). How many milliseconds now?"),
                      tr("ms"), [] { return 1e3 * ringAllReduceSeconds(14e9, 8, 64e9); },
                      tr("2 · 7/8 · 14 GB ÷ 64 GB/s ≈ 383 ms — about seven times slower than NVLink, every step."),
                      0.1});
  return c;
}

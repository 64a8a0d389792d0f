// The training-vs-inference page's lesson: intro, questions and the exercise (the page's code is in
// traininfer_page.cpp).
#include "format.h"
#include "pages/traininfer/traininfer_page.h"
#include "pages/running_example.h"

#include <cmath>

#include "gpulab/models/vram_model.hpp"

using namespace gpulab::models;

// The shop's story as this page tells it (running_example.h: the figures, from the models).
static QString runningExampleLine() {
  using namespace running_example;
  const Facts& f = facts();
  return running_example::tr("Serving the shop's chatbot in FP16 needs %1 card (%2 of weights plus the KV cache). Fine-tuning all "
            "7B weights needs ~%3 of state before activations: %4 of the shop's %5 GB cards, or %6 H100s of 80 GB, "
            "with the state sharded between them. With gradient checkpointing, as fine-tuning recipes run, LoRA "
            "over the 16-bit base needs about %7 and %8; QLoRA — a frozen 4-bit base with 16-bit adapters — about "
            "%9 and %10 on the one card. Without checkpointing LoRA's saved activations alone take it to %11 "
            "(model figures).")
      .arg(f.cardsToServe)
      .arg(gb(f.fp16Gb), fmtFixed(f.trainingStateGb, 0) + QStringLiteral(" GB"))
      .arg(f.cardsForTrainingState)
      .arg(fmtFixed(f.cardGb, 0))
      .arg(f.h100sForTrainingState)
      .arg(gb(f.loraGb), fitWords(f.loraFits), gb(f.qloraGb), fitWords(f.qloraFits), gb(f.loraUncheckpointedGb));
}

LessonContent TrainInferPage::lesson() const {
  LessonContent c;
  c.runningExample = runningExampleLine();
  c.intro = tr(
      "Using a model and teaching it are different jobs for the same card.\n\n"
      "Inference (serving) runs the model forward only. VRAM holds the weights, the KV cache — the keys and "
      "values of every token each open conversation has seen — and the activations of the layer being worked "
      "on. Producing a token reads every weight once for very little arithmetic, so one user's speed is set by "
      "memory bandwidth; batching users is how serving puts the idle cores to work.\n\n"
      "Training runs forward and backward and then updates every weight. Besides the weights it keeps a gradient "
      "for each, an FP32 master copy and Adam's two running moments (about 16 bytes per parameter in mixed "
      "precision), plus each layer's activations for the backward pass. It feeds large batches, so it is limited "
      "by arithmetic — and first of all by whether the state fits. LoRA trains small adapters beside a frozen "
      "base; QLoRA stores that base in 4 bits. Their recipes also switch on gradient checkpointing: only each "
      "layer's input is kept, and the rest is recomputed during the backward pass — about a third more "
      "arithmetic for a fraction of the activation memory. The bars assume it, as the checkbox beside them says.");
  c.questions = {
      {tr("Serving a 7B model in FP16 keeps 14 GB of weights; a full fine-tune keeps about 112 GB of state before "
          "any activations. Where does the factor of eight come from?"),
       tr("Serving keeps 2 bytes per weight. Training keeps 2 (BF16 weights) + 2 (gradients) + 4 (FP32 master) "
          "+ 4 + 4 (Adam's two moments) = 16 bytes per weight, eight times more, before the saved activations.")},
      {tr("Why does a bigger batch help training's speed but not one chatbot user's?"),
       tr("Training is bounded by arithmetic, and a big batch keeps the Tensor Cores full. One user's decode is "
          "bounded by reading the weights for each token; a bigger batch shares that read between users (more "
          "total tokens), but the single user still waits for the same read.")},
  };
  c.exercises.append({tr("Predict the training state (weights, gradients, master copy, Adam) of a 7B model at 16 "
                         "bytes per parameter, in GB."),
                      tr("GB"),
                      [] { return training_state_bytes(7e9, NumberFormat::bf16).total() / 1e9; },
                      tr("7 × 10⁹ parameters × 16 bytes = 112 GB, from the VRAM model — activations come on top."),
                      0.05});
  return c;
}

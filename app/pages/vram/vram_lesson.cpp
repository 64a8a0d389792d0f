// The memory page's lesson: intro, questions and exercises (the page's code is in vram_page.cpp).
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/vram_model.hpp"
#include "pages/running_example.h"
#include "pages/vram/vram_page.h"

#include <cmath>
#include <vector>

using namespace gpulab::models;

// The shop's story as this page tells it (running_example.h: the figures, from the models).
static QString runningExampleLine() {
  using namespace running_example;
  const Facts& f = facts();
  return running_example::tr("The shop's card has %1 GB. In FP16 the 7B weights take %2 and leave %3; one conversation of %4 tokens "
            "holds %5 of KV cache, so about %6 conversations fit beside the activations and 1 GB of overhead "
            "(INT8 weights: %7). FP32 weights alone are %8: they do not fit. Fine-tuning every weight needs ~%9 of "
            "training state, far beyond the card (model figures). The sums count 24 GB as 24 × 10⁹ bytes; the "
            "real card holds 24 GiB, %10: room for %11 conversations.")
      .arg(fmtFixed(f.cardGb, 0), gb(f.fp16Gb), gb(f.leftAfterFp16Gb), fmtCount(std::llround(f.contextTokens)),
           gb(f.kvPerConversationGb))
      .arg(f.conversationsFp16)
      .arg(f.conversationsInt8)
      .arg(gb(f.fp32Gb), fmtFixed(f.trainingStateGb, 0) + QStringLiteral(" GB"), gb(f.realCardGb))
      .arg(f.realCardConversationsFp16);
}

LessonContent VramPage::lesson() const {
  LessonContent c;
  c.runningExample = runningExampleLine();
  c.intro = tr("A GPU can only compute with numbers that sit in its own memory. For a language model that means "
               "every weight, plus the keys and values it keeps for each token of each conversation (the KV "
               "cache), plus working space. Weights cost parameters × bytes per parameter, so the number format "
               "decides the size as much as the model does. Training needs far more: gradients, an FP32 master "
               "copy and Adam's two moments come to about 16 bytes per parameter before any activations. The cache "
               "has a format of its own: stored in FP8 it takes half the bytes of FP16, in INT4 (with a scale for "
               "every 32 values) about 28 %, so the "
               "same card holds longer conversations or more of them. Serving engines also page it: the cache "
               "grows in small blocks handed out as a conversation gets longer, instead of every user reserving "
               "room for the longest context up front.");
  c.questions.push_back({tr("Will the shop's 24 GB card hold the 7B chatbot for serving with 16-bit weights? With 32-bit ones?"),
                         tr("In FP16 the weights are 7 × 10⁹ × 2 bytes = 14 GB, so about 10 GB remain for the KV cache "
                            "and overhead: yes, for moderate contexts and a few users. FP32 weights are 28 GB, "
                            "already more than the whole card: no.")});
  c.questions.push_back({tr("Why can't the same 24 GB card fully fine-tune the 7B model?"),
                         tr("Mixed-precision Adam keeps weights, gradients, an FP32 master copy and two moments: "
                            "about 16 bytes per parameter, ~112 GB for 7B before activations. LoRA, quantisation "
                            "or sharding across GPUs are the ways out.")});
  {
    // Serving the 7B in FP16 on the shop card, one user: the longest context per KV format, from the model.
    VramInputs in;
    in.shape = *find_preset("lesson-7b");
    in.context = default_context_tokens;
    const std::vector<KvFormatFit> f = kv_format_fits(in, shop_card().memory_bytes());
    const double gain = f[1].max_context / double(f[0].max_context);
    const double gain4 = f[2].max_context / double(f[0].max_context);
    c.questions.push_back(
        {tr("An FP8 KV cache takes half the bytes of FP16. Does the 7B's longest context on the 24 GB card double?"),
         tr("Yes, about: %1 tokens with FP16, %2 with FP8, %3 times as many. The prompt's working space does not "
            "shrink with the cache, but serving engines prefill a long prompt in chunks (llama.cpp 512 tokens at a "
            "time), so it stays a few tens of MB. INT4 reaches %4 (%5×, not 4×: each block of 32 values carries a "
            "16-bit scale, 4.5 bits a value).")
             .arg(fmtCount(f[0].max_context), fmtCount(f[1].max_context), QString::number(gain, 'f', 2),
                  fmtCount(f[2].max_context), QString::number(gain4, 'f', 1))});
  }
  c.exercises.push_back({tr("How many GB of weights does a 7B model take in INT4?"), tr("GB"),
                         [] { return weight_bytes(7e9, NumberFormat::int4) / 1e9; },
                         tr("Half a byte per parameter: 7 × 10⁹ × 0.5 = 3.5 GB."), 0.05});
  c.exercises.push_back({tr("7B in FP16 on the 24 GB card: how many GB are left after the weights?"), tr("GB"),
                         [] { return (shop_card().memory_bytes() - weight_bytes(7e9, NumberFormat::fp16)) / 1e9; },
                         tr("24 − 14 = 10 GB for the KV cache, activations and overhead. (A real 24 GB card holds 24 GiB, "
                            "25.8 GB: an RTX 4090 leaves about 11.8 GB.)"), 0.05});
  c.exercises.push_back({tr("Now FP32 on the same 24 GB card: by how many GB do the weights alone overflow it?"),
                         tr("GB"),
                         [] { return (weight_bytes(7e9, NumberFormat::fp32) - shop_card().memory_bytes()) / 1e9; },
                         tr("4 bytes per parameter: 28 GB of weights against 24 GB, 4 GB too many before a single "
                            "token of KV cache. FP32 does not fit at all; FP16 halves it to 14 GB and does."),
                         0.05});
  c.exercises.push_back({tr("Full mixed-precision Adam training of 7B: how many GB of training state?"), tr("GB"),
                         [] { return training_state_bytes(7e9, NumberFormat::fp16).total() / 1e9; },
                         tr("16 bytes per parameter: 2 + 2 + 4 + 4 + 4 → 112 GB, plus activations."), 0.05});
  return c;
}

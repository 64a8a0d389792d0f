#include "pages/running_example.h"

#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <QCoreApplication>

#include <cmath>

using namespace gpulab;
using namespace gpulab::models;

namespace running_example {
namespace {

QString tr(const char* s) { return QCoreApplication::translate("RunningExample", s); }
QString gb(double v) { return fmtFixed(v, 1) + QStringLiteral(" GB"); }
QString tps(double v) { return fmtCount(std::llround(v)); }
QString fitWords(bool fits) { return fits ? tr("fits") : tr("does not fit"); }

Facts compute() {
  Facts f;
  // The lesson's shop has "a 24 GB card"; the catalogue's 24 GB card with the most bandwidth stands in for it,
  // so the decode and precision pages can give it a speed (datasheet figures, named as such).
  const GpuSpec* card = find_gpu("RTX 4090");
  const GpuSpec& spec = card ? *card : shop_card();
  f.card = QString::fromStdString(spec.name);
  f.cardGb = spec.memory_gb;
  f.cardBandwidthGbs = spec.bandwidth_gbs;
  f.cardFp16Tflops = spec.fp16_tflops.value_or(0);
  f.cardFp32Tflops = spec.fp32_tflops.value_or(0);

  f.fp32Gb = weight_bytes(f.params, NumberFormat::fp32) / bytes_per_gb;
  f.fp16Gb = weight_bytes(f.params, NumberFormat::fp16) / bytes_per_gb;
  f.int8Gb = weight_bytes(f.params, NumberFormat::int8) / bytes_per_gb;
  f.int4Gb = weight_bytes(f.params, NumberFormat::int4) / bytes_per_gb;
  f.leftAfterFp16Gb = f.cardGb - f.fp16Gb;

  const ModelShape* shape = find_preset("lesson-7b");
  const ModelShape s = shape ? *shape : nearest_preset(f.params);
  f.contextTokens = default_context_tokens;
  f.kvPerConversationGb = kv_cache_bytes(s.layers, s.kv_heads, s.head_dim, f.contextTokens, 1, 2.0) / bytes_per_gb;

  VramInputs in;
  in.shape = s;
  in.context = f.contextTokens;
  in.users = 1;
  in.weights_format = NumberFormat::fp16;
  const double cardBytes = f.cardGb * bytes_per_gb;
  f.conversationsFp16 = int(max_users_that_fit(in, cardBytes, 4096));
  in.weights_format = NumberFormat::int8;
  f.conversationsInt8 = int(max_users_that_fit(in, cardBytes, 4096));

  const double bw = f.cardBandwidthGbs * 1e9;
  f.fp16TokensS = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(f.params, 2.0));
  f.int8TokensS = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(f.params, 1.0));
  f.int4TokensS = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(f.params, 0.5));
  f.h100Fp16TokensS = decode_ceiling_tokens_per_s(3350e9, decode_bytes_per_token(f.params, 2.0));

  f.trainingStateGb = training_state_bytes(f.params, NumberFormat::bf16).total() / bytes_per_gb;
  f.cardsForTrainingState = int(std::ceil(f.trainingStateGb / f.cardGb));
  f.h100sForTrainingState = int(std::ceil(f.trainingStateGb / 80.0));

  // LoRA over the BF16 base and QLoRA over a 4-bit one, one sequence of the default context, with activation
  // checkpointing on as the fine-tuning recipes run them (recipe_checkpointing): the training-vs-inference page's
  // bars start from the same inputs, and a test holds the two together.
  auto fineTune = [&](NumberFormat base, bool checkpointing) {
    VramInputs lora;
    lora.shape = s;
    lora.mode = VramMode::lora;
    lora.weights_format = base;
    lora.context = f.contextTokens;
    lora.users = 1;
    lora.activation_checkpointing = checkpointing;
    return vram_budget(lora, cardBytes);
  };
  f.checkpointing = recipe_checkpointing(VramMode::lora);
  const VramBudget lb = fineTune(NumberFormat::bf16, f.checkpointing);
  f.loraGb = lb.total / bytes_per_gb;
  f.loraFits = lb.fits;
  const VramBudget qb = fineTune(NumberFormat::int4, f.checkpointing);
  f.qloraGb = qb.total / bytes_per_gb;
  f.qloraFits = qb.fits;
  const VramBudget unchecked = fineTune(NumberFormat::bf16, false);
  f.loraUncheckpointedGb = unchecked.total / bytes_per_gb;
  f.loraUncheckpointedFits = unchecked.fits;

  VramInputs serve;
  serve.shape = s;
  serve.context = f.contextTokens;
  const VramBudget sb = vram_budget(serve, cardBytes);
  f.cardsToServe = int(std::ceil(sb.total / cardBytes));
  return f;
}

}  // namespace

const Facts& facts() {
  static const Facts f = compute();
  return f;
}

QString line(const QString& pageId) {
  const Facts& f = facts();
  const QString card = QStringLiteral("%1 (%2 GB, %3 GB/s, datasheet)")
                           .arg(f.card, fmtFixed(f.cardGb, 0), fmtCount(std::llround(f.cardBandwidthGbs)));
  if (pageId == QLatin1String("whatgpu"))
    return tr("An appliance shop wants a 7B language model to answer its customers, and later to learn from its own "
              "support tickets. The following pages settle three choices for it: which card, how many, and which "
              "number format. Where they land: one 24 GB card — here the %1 — holding FP16 weights of %2, which "
              "answers one customer at up to %3 tokens/s (model ceiling).")
        .arg(card, gb(f.fp16Gb), tps(f.fp16TokensS));
  if (pageId == QLatin1String("vram"))
    return tr("The shop's card has %1 GB. In FP16 the 7B weights take %2 and leave %3; one conversation of %4 tokens "
              "holds %5 of KV cache, so about %6 conversations fit beside the activations and 1 GB of overhead "
              "(INT8 weights: %7). FP32 weights alone are %8: they do not fit. Fine-tuning every weight needs ~%9 of "
              "training state, far beyond the card (model figures).")
        .arg(fmtFixed(f.cardGb, 0), gb(f.fp16Gb), gb(f.leftAfterFp16Gb), fmtCount(std::llround(f.contextTokens)),
             gb(f.kvPerConversationGb))
        .arg(f.conversationsFp16)
        .arg(f.conversationsInt8)
        .arg(gb(f.fp32Gb), fmtFixed(f.trainingStateGb, 0) + QStringLiteral(" GB"));
  if (pageId == QLatin1String("traininfer"))
    return tr("Serving the shop's chatbot in FP16 needs %1 card (%2 of weights plus the KV cache). Fine-tuning all "
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
  if (pageId == QLatin1String("decode"))
    return tr("The shop's card is the %1. One customer in FP16 means %2 read per token: at most %3 tokens/s; INT8 "
              "%4, INT4 %5 (bandwidth ÷ bytes, a ceiling; people read only a few words a second). The lesson's H100 "
              "would allow %6. With 8 customers batched, one pass over the weights serves all 8: the total rises "
              "about 8× while each customer's speed barely moves.")
        .arg(card, gb(f.fp16Gb), tps(f.fp16TokensS), tps(f.int8TokensS), tps(f.int4TokensS), tps(f.h100Fp16TokensS));
  if (pageId == QLatin1String("precision"))
    return tr("For the shop the format decides both fit and speed on its %1 GB %2: FP32 %3 (does not fit), FP16/BF16 "
              "%4 (fits, up to %5 tokens/s), INT8 %6 (%7 tokens/s), INT4 %8 (%9 tokens/s) — model ceilings. The "
              "card's tensor cores run FP16 at %10 TFLOP/s dense; plain FP32 runs on its ordinary cores, without "
              "tensor cores, at %11 (datasheet). The shop serves in FP16 or INT8; any fine-tuning keeps its state "
              "in 16/32-bit floats.")
        .arg(fmtFixed(f.cardGb, 0), f.card, gb(f.fp32Gb), gb(f.fp16Gb), tps(f.fp16TokensS), gb(f.int8Gb),
             tps(f.int8TokensS), gb(f.int4Gb), tps(f.int4TokensS))
        .arg(fmtFixed(f.cardFp16Tflops, 1), fmtFixed(f.cardFp32Tflops, 1));
  if (pageId == QLatin1String("multigpu"))
    return tr("How many GPUs does the shop need? To serve: %1 (%2 of FP16 weights on a %3 GB card). To fine-tune "
              "every weight: the ~%4 of state alone spans %5 of its cards or %6 H100s of 80 GB, sharded. So the shop "
              "fine-tunes on its single card — LoRA about %7, QLoRA about %8, both with gradient checkpointing — "
              "and reaches for several GPUs only for a full fine-tune (model figures).")
        .arg(f.cardsToServe)
        .arg(gb(f.fp16Gb), fmtFixed(f.cardGb, 0), fmtFixed(f.trainingStateGb, 0) + QStringLiteral(" GB"))
        .arg(f.cardsForTrainingState)
        .arg(f.h100sForTrainingState)
        .arg(gb(f.loraGb), gb(f.qloraGb));
  return {};
}

}  // namespace running_example

#include "pages/running_example.h"

#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/serving_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <QCoreApplication>

#include <cmath>

using namespace gpulab;
using namespace gpulab::models;

namespace running_example {
QString tr(const char* s) { return QCoreApplication::translate("RunningExample", s); }
QString gb(double v) { return fmtFixed(v, 1) + QStringLiteral(" GB"); }
QString tps(double v) { return fmtCount(std::llround(v)); }
QString fitWords(bool fits) { return fits ? tr("fits") : tr("does not fit"); }

namespace {

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
  in.weights_format = NumberFormat::fp16;
  f.realCardGb = spec.memory_bytes() / bytes_per_gb;
  f.realCardConversationsFp16 = int(max_users_that_fit(in, spec.memory_bytes(), 4096));

  const double bw = f.cardBandwidthGbs * 1e9;
  f.fp16TokensS = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(f.params, 2.0));
  f.int8TokensS = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(f.params, 1.0));
  f.int4TokensS = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(f.params, 0.5));
  f.h100Fp16TokensS = decode_ceiling_tokens_per_s(3350e9, decode_bytes_per_token(f.params, 2.0));

  // Eight customers batched on the card: their caches are read every step and must fit (serving_model.hpp).
  ServingInputs sv;
  sv.shape = s;
  sv.shape.params = f.params;
  sv.context = f.contextTokens;
  sv.bandwidth_bytes_s = bw;
  sv.peak_flops = f.cardFp16Tflops * 1e12;
  sv.card_bytes = cardBytes;
  const ServingStep crowded = serving_step(sv, f.servingUsers);
  f.servingKvGb = crowded.kv_bytes_read / bytes_per_gb;
  f.servingFits = crowded.fits;
  f.servingPerUserTokensS = crowded.step.per_user_tokens_s;
  f.fittingContext = f.contextTokens;
  while (f.fittingContext > 1 && f.fittingContext > double(crowded.max_context_for_users)) f.fittingContext /= 2;
  sv.context = f.fittingContext;
  const ServingStep fitting = serving_step(sv, f.servingUsers);
  f.fittingPerUserTokensS = fitting.step.per_user_tokens_s;
  f.fittingTotalTokensS = fitting.step.aggregate_tokens_s;
  f.fittingOneUserTokensS = serving_step(sv, 1).step.per_user_tokens_s;

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

QString cardWithDatasheet() {
  const Facts& f = facts();
  return QStringLiteral("%1 (%2 GB, %3 GB/s, datasheet)")
      .arg(f.card, fmtFixed(f.cardGb, 0), fmtCount(std::llround(f.cardBandwidthGbs)));
}

}  // namespace running_example

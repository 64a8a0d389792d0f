// Golden values: /work/shared/data/lesson-numbers.md; hand-worked KV cache and LoRA cases from public shapes.
#include "gpulab/models/vram_model.hpp"

#include <gtest/gtest.h>

using namespace gpulab::models;

namespace {
constexpr double GB = 1e9;

VramInputs lesson_7b(NumberFormat f) {
  VramInputs in;
  in.shape = *find_preset("lesson-7b");
  in.weights_format = f;
  return in;
}
}  // namespace

TEST(VramModel, SevenBWeightsPerFormat) {
  EXPECT_DOUBLE_EQ(weight_bytes(7e9, NumberFormat::fp32), 28.0 * GB);
  EXPECT_DOUBLE_EQ(weight_bytes(7e9, NumberFormat::fp16), 14.0 * GB);
  EXPECT_DOUBLE_EQ(weight_bytes(7e9, NumberFormat::bf16), 14.0 * GB);
  EXPECT_DOUBLE_EQ(weight_bytes(7e9, NumberFormat::int8), 7.0 * GB);
  EXPECT_DOUBLE_EQ(weight_bytes(7e9, NumberFormat::fp8), 7.0 * GB);
  EXPECT_DOUBLE_EQ(weight_bytes(7e9, NumberFormat::int4), 3.5 * GB);
}

TEST(VramModel, FormatNames) {
  EXPECT_EQ(format_from_string("fp16"), NumberFormat::fp16);
  EXPECT_EQ(format_from_string("INT4"), NumberFormat::int4);
  EXPECT_EQ(format_from_string("bf16"), NumberFormat::bf16);
  EXPECT_FALSE(format_from_string("fp12").has_value());
  EXPECT_EQ(format_name(NumberFormat::int8), "INT8");
  EXPECT_EQ(format_of(gpulab::Precision::tf32), NumberFormat::fp32);
  EXPECT_TRUE(is_float_training_format(NumberFormat::bf16));
  EXPECT_FALSE(is_float_training_format(NumberFormat::int8));
}

TEST(VramModel, FullTrainingState) {
  const TrainingState t = training_state_bytes(7e9, NumberFormat::fp16);
  EXPECT_DOUBLE_EQ(t.weights, 14 * GB);
  EXPECT_DOUBLE_EQ(t.gradients, 14 * GB);
  EXPECT_DOUBLE_EQ(t.master_weights, 28 * GB);
  EXPECT_DOUBLE_EQ(t.adam_m, 28 * GB);
  EXPECT_DOUBLE_EQ(t.adam_v, 28 * GB);
  EXPECT_DOUBLE_EQ(t.total(), 112 * GB);  // "~112 GB (+ activations)"
  // Plain FP32 training: no separate master copy, still 16 B/param.
  const TrainingState f = training_state_bytes(7e9, NumberFormat::fp32);
  EXPECT_DOUBLE_EQ(f.master_weights, 0.0);
  EXPECT_DOUBLE_EQ(f.total(), 112 * GB);
}

TEST(VramModel, HandWorkedKvCacheLlama2_7B) {
  // 2 · 32 layers · 32 KV heads · 128 · 2 bytes = 524,288 B = 0.5 MiB per token.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(32, 32, 128, 2), 524'288.0);
  // 4,096 tokens, one user: 2 GiB exactly.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(32, 32, 128, 4096, 1, 2), 2'147'483'648.0);
  // Eight users: 16 GiB - the cache, not the weights, is what limits users.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(32, 32, 128, 4096, 8, 2), 8 * 2'147'483'648.0);
}

TEST(VramModel, GroupedQueryAttentionShrinksTheCache) {
  // Same model with 8 KV heads (GQA): a quarter.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(32, 8, 128, 4096, 1, 2), 2'147'483'648.0 / 4);
  // Llama 3 8B: 32 layers, 8 KV heads, head_dim 128 -> 128 KiB per token in FP16.
  const ModelShape* l3 = find_preset("llama-3-8b");
  ASSERT_NE(l3, nullptr);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(l3->layers, l3->kv_heads, l3->head_dim, 2), 131'072.0);
  // Llama 2 70B: 80 layers, 8 KV heads -> 320 KiB per token.
  const ModelShape* l70 = find_preset("Llama 2 70B");
  ASSERT_NE(l70, nullptr);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(l70->layers, l70->kv_heads, l70->head_dim, 2), 327'680.0);
  // An FP8 cache halves it again.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(l70->layers, l70->kv_heads, l70->head_dim, 1), 163'840.0);
}

TEST(VramModel, PresetsAreSane) {
  ASSERT_GE(model_presets().size(), 7u);
  for (const auto& p : model_presets()) {
    SCOPED_TRACE(std::string(p.id));
    EXPECT_GT(p.params, 1e8);
    EXPECT_GT(p.layers, 0);
    EXPECT_LE(p.kv_heads, p.attention_heads);
    EXPECT_EQ(p.attention_heads % p.kv_heads, 0);  // GQA groups are whole
    EXPECT_FALSE(p.source.empty());
    EXPECT_EQ(find_preset(p.id), &p);
  }
  EXPECT_EQ(find_preset("no-such-model"), nullptr);
  EXPECT_EQ(nearest_preset(7e9).id, "lesson-7b");
  EXPECT_EQ(nearest_preset(8e9).id, "llama-3-8b");
  EXPECT_EQ(nearest_preset(70e9).id, "llama-3-70b");
  EXPECT_EQ(nearest_preset(1e9).id, "llama-3.2-1b");
  EXPECT_EQ(nearest_preset(-1).id, "lesson-7b");
}

TEST(VramModel, ShopCardFp16FitsWithTenGbLeft) {
  VramInputs in = lesson_7b(NumberFormat::fp16);
  in.overhead_bytes = 0;  // weights only, as the lesson's answer counts
  const VramBudget b = vram_budget(in, 24 * GB);
  EXPECT_TRUE(b.fits);
  EXPECT_DOUBLE_EQ(b.weights, 14 * GB);
  EXPECT_DOUBLE_EQ(b.free_after_weights(), 10 * GB);
  EXPECT_DOUBLE_EQ(b.headroom(), 10 * GB);
  EXPECT_DOUBLE_EQ(b.short_by(), 0.0);
}

TEST(VramModel, ShopCardFp32DoesNotFit) {
  VramInputs in = lesson_7b(NumberFormat::fp32);
  in.overhead_bytes = 0;
  const VramBudget b = vram_budget(in, 24 * GB);
  EXPECT_FALSE(b.fits);
  EXPECT_DOUBLE_EQ(b.total, 28 * GB);
  EXPECT_DOUBLE_EQ(b.short_by(), 4 * GB);
  EXPECT_DOUBLE_EQ(b.headroom(), -4 * GB);
}

TEST(VramModel, BudgetAddsTheParts) {
  VramInputs in = lesson_7b(NumberFormat::fp16);
  in.context = 4096;
  in.users = 2;
  in.overhead_bytes = 1 * GB;
  const VramBudget b = vram_budget(in, 24 * GB);
  EXPECT_DOUBLE_EQ(b.kv_cache, 2 * 2'147'483'648.0);
  // One step's working space: a 512-token prefill chunk · (hidden + 2·intermediate) · 2 bytes (issue 36: serving
  // engines prefill in chunks; the old model charged every context at once, users · tokens, 16× more here).
  EXPECT_DOUBLE_EQ(b.activations, 512.0 * (4096 + 2 * 11008) * 2);
  in.prefill_chunk_tokens = 0;  // no chunking: the whole of both contexts at once
  EXPECT_DOUBLE_EQ(vram_budget(in, 24 * GB).activations, 2.0 * 4096 * (4096 + 2 * 11008) * 2);
  in.prefill_chunk_tokens = default_prefill_chunk_tokens;
  EXPECT_DOUBLE_EQ(inference_step_tokens(1000, 4096, 512), 1000.0);  // a decode step: one token per user
  EXPECT_DOUBLE_EQ(inference_step_tokens(1, 100, 512), 100.0);       // a prompt shorter than the chunk
  EXPECT_DOUBLE_EQ(b.total, b.weights + b.kv_cache + b.activations + b.overhead);
  EXPECT_DOUBLE_EQ(b.gradients + b.optimizer + b.master_weights + b.adapter, 0.0);
  in.include_activations = false;
  EXPECT_DOUBLE_EQ(vram_budget(in, 24 * GB).activations, 0.0);
}

TEST(VramModel, TrainModeNeedsFarMoreThanTheShopCard) {
  VramInputs in = lesson_7b(NumberFormat::bf16);
  in.mode = VramMode::train;
  in.overhead_bytes = 0;
  const VramBudget b = vram_budget(in, 80 * GB);
  EXPECT_DOUBLE_EQ(b.total, 112 * GB);
  EXPECT_DOUBLE_EQ(b.kv_cache, 0.0);
  EXPECT_FALSE(b.fits);
  EXPECT_DOUBLE_EQ(b.short_by(), 32 * GB);
  // With a 2,048-token sequence the activations come on top: 34·s·b·h per layer (Korthikanti et al.).
  in.context = 2048;
  const VramBudget withAct = vram_budget(in, 80 * GB);
  EXPECT_DOUBLE_EQ(withAct.activations, 34.0 * 2048 * 1 * 4096 * 32);
  in.activation_checkpointing = true;
  EXPECT_DOUBLE_EQ(vram_budget(in, 80 * GB).activations, (2.0 * 32 + 34.0) * 2048 * 4096);
}

TEST(VramModel, LoraAdapterParams) {
  const ModelShape* l2 = find_preset("llama-2-7b");
  ASSERT_NE(l2, nullptr);
  // The LoRA paper's default targets (q, v) at rank 8: 4,194,304 trainable parameters.
  EXPECT_DOUBLE_EQ(lora_adapter_params(*l2, 8, LoraTargets::qv), 4'194'304.0);
  EXPECT_DOUBLE_EQ(lora_adapter_params(*l2, 16, LoraTargets::qkvo), 16'777'216.0);
  // Adapter size scales linearly with rank.
  EXPECT_DOUBLE_EQ(lora_adapter_params(*l2, 64, LoraTargets::qkvo), 4 * 16'777'216.0);
  // All linear layers add gate/up/down: 32 · 16 · 3 · (4096 + 11008) more.
  EXPECT_DOUBLE_EQ(lora_adapter_params(*l2, 16, LoraTargets::all_linear),
                   16'777'216.0 + 32.0 * 16 * 3 * (4096 + 11008));
  // GQA: K and V project to 8·128 = 1024 in Llama 3 8B.
  const ModelShape* l3 = find_preset("llama-3-8b");
  EXPECT_DOUBLE_EQ(lora_adapter_params(*l3, 8, LoraTargets::qv), 32.0 * 8 * ((4096 + 4096) + (4096 + 1024)));
}

TEST(VramModel, LoraFitsTheShopCard) {
  VramInputs in = lesson_7b(NumberFormat::fp16);
  in.mode = VramMode::lora;
  in.lora_rank = 16;
  in.overhead_bytes = 1 * GB;
  const VramBudget b = vram_budget(in, 24 * GB);
  EXPECT_DOUBLE_EQ(b.weights, 14 * GB);           // frozen base, no gradients or Adam for it
  EXPECT_DOUBLE_EQ(b.gradients + b.optimizer + b.master_weights, 0.0);
  EXPECT_DOUBLE_EQ(b.adapter_params, 16'777'216.0);
  EXPECT_DOUBLE_EQ(b.adapter, 16.0 * 16'777'216);  // ~0.27 GB
  EXPECT_TRUE(b.fits);
  // QLoRA-style: an INT4 base is 3.5 GB.
  in.weights_format = NumberFormat::int4;
  EXPECT_DOUBLE_EQ(vram_budget(in, 24 * GB).weights, 3.5 * GB);
}

TEST(VramModel, LongestContextThatFits) {
  VramInputs in = lesson_7b(NumberFormat::fp16);
  in.overhead_bytes = 1 * GB;
  in.include_activations = false;
  // 24 - 14 - 1 = 9 GB for the cache at 0.5 MiB per token: floor(9e9 / 524,288) = 17,166 tokens.
  EXPECT_EQ(max_context_that_fits(in, 24 * GB), 17'166);
  in.users = 4;
  EXPECT_EQ(max_context_that_fits(in, 24 * GB), 17'166 / 4);
  // With activations the answer is the exact boundary of vram_budget().
  in.users = 1;
  in.include_activations = true;
  const auto ctx = max_context_that_fits(in, 24 * GB);
  in.context = static_cast<double>(ctx);
  EXPECT_TRUE(vram_budget(in, 24 * GB).fits);
  in.context = static_cast<double>(ctx + 1);
  EXPECT_FALSE(vram_budget(in, 24 * GB).fits);
  // FP32 weights leave nothing: 0.
  VramInputs fp32 = lesson_7b(NumberFormat::fp32);
  EXPECT_EQ(max_context_that_fits(fp32, 24 * GB), 0);
  // A huge card hits the search cap rather than looping.
  EXPECT_EQ(max_context_that_fits(lesson_7b(NumberFormat::int4), 1e15, 1000), 1000);
}

TEST(VramModel, MostUsersThatFit) {
  VramInputs in = lesson_7b(NumberFormat::fp16);
  in.overhead_bytes = 1 * GB;
  in.include_activations = false;
  in.context = 4096;
  // 9 GB / 2 GiB per user = 4.19 -> 4 users: "a few users" (lesson).
  EXPECT_EQ(max_users_that_fit(in, 24 * GB), 4);
  // GQA with 8 KV heads: 4x the users.
  in.shape.kv_heads = 8;
  EXPECT_EQ(max_users_that_fit(in, 24 * GB), 16);
  // H100 SXM, 80 GB: (80 - 15) / 0.5 GiB = 121 users.
  EXPECT_EQ(max_users_that_fit(in, 80 * GB), 121);
  VramInputs fp32 = lesson_7b(NumberFormat::fp32);
  fp32.context = 4096;
  EXPECT_EQ(max_users_that_fit(fp32, 24 * GB), 0);
}

// Issue 28: LoRA on the shop's 24 GB card. Worked by hand for the lesson's 7B (Llama 2 7B shape: 32 layers,
// hidden 4096), one 4,096-token sequence, rank 16 on q, k, v, o, 1 GB of overhead:
//   adapters     32 · 16 · 4 · (4096 + 4096) = 16,777,216 params × 16 B       =  0.268 GB
//   activations  checkpointed (2·32 + 34) · 4096 · 4096 · 2/2 B              =  1.644 GB
//                every layer's 34 · 32 · 4096 · 4096 B (Korthikanti et al.)   = 18.254 GB
//   LoRA (BF16 base, 14 GB)   16.913 GB checkpointed (fits) · 33.522 GB without (short by 9.5 GB)
//   QLoRA (INT4 base, 3.5 GB)  6.413 GB checkpointed · 23.022 GB without (the "23.0 GB" the running example
//   once quoted for "LoRA or QLoRA")
TEST(VramModel, LoraOnTheShopCardWithTheRecipesCheckpointing) {
  EXPECT_TRUE(recipe_checkpointing(VramMode::lora));
  EXPECT_TRUE(recipe_checkpointing(VramMode::train));
  EXPECT_FALSE(recipe_checkpointing(VramMode::inference));
  VramInputs in = lesson_7b(NumberFormat::bf16);
  in.mode = VramMode::lora;
  in.context = 4096;
  in.activation_checkpointing = true;
  const VramBudget lora = vram_budget(in, 24 * GB);
  EXPECT_DOUBLE_EQ(lora.adapter, 16'777'216.0 * 16);
  EXPECT_DOUBLE_EQ(lora.activations, 98.0 * 4096 * 4096);
  EXPECT_NEAR(lora.total / GB, 16.913, 0.001);
  EXPECT_TRUE(lora.fits);
  in.activation_checkpointing = false;
  const VramBudget unchecked = vram_budget(in, 24 * GB);
  EXPECT_NEAR(unchecked.total / GB, 33.522, 0.001);
  EXPECT_NEAR(unchecked.short_by() / GB, 9.522, 0.001);
  in.weights_format = NumberFormat::int4;
  EXPECT_NEAR(vram_budget(in, 24 * GB).total / GB, 23.022, 0.001);
  in.activation_checkpointing = true;
  EXPECT_NEAR(vram_budget(in, 24 * GB).total / GB, 6.413, 0.001);
}

// Issue 28, section 2: KV-cache formats, as issue 36 corrected them. The lesson's 7B with FP16 weights on the shop's
// 24 GB card leaves 24 − 14 − 1 (overhead) − 0.0267 (one 512-token prefill chunk's working space,
// 512 · (4096 + 2 · 11008) · 2 B) = 8,973,261,312 B. Per token a conversation holds its KV cache (2 · 32 · 32 · 128
// = 262,144 values: FP16 524,288 B, FP8 262,144 B, INT4 as q4_0 with its scales, 4.5 bits a value, 147,456 B).
//   users at 4,096 tokens: 8.973e9 / (4096 · 524,288) = 4.18 -> 4 (FP16); / (4096 · 262,144) = 8.36 -> 8 (FP8);
//                          / (4096 · 147,456) = 14.86 -> 14 (INT4)
//   longest context, one user: 17,115; 34,230; 60,853 tokens
// FP8 now doubles what fits (the old 1.83× came from charging a prefill of the whole context at once), INT4 3.56×.
TEST(VramModel, KvCacheFormatsStretchContextAndUsers) {
  VramInputs in = lesson_7b(NumberFormat::fp16);
  in.context = 4096;
  const struct { NumberFormat kv; double per_token; std::int64_t users, context; } cases[] = {
      {NumberFormat::fp16, 524'288, 4, 17'115},
      {NumberFormat::fp8, 262'144, 8, 34'230},
      {NumberFormat::int4, 147'456, 14, 60'853},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(format_name(c.kv)));
    in.kv_format = c.kv;
    EXPECT_DOUBLE_EQ(vram_budget(in, 24 * GB).kv_cache, c.per_token * 4096);
    EXPECT_EQ(max_users_that_fit(in, 24 * GB), c.users);
    EXPECT_EQ(max_context_that_fits(in, 24 * GB), c.context);
  }
}

// The three KV formats side by side, as the VRAM page shows them (kv_format_fits). Worked by hand for Llama 3 8B
// (model card: 8,030,261,248 parameters, 32 layers, 8 KV heads of 128, feed-forward 14,336) in FP16 on the 24 GB
// shop card, 4 users: 24e9 − 2 · 8,030,261,248 − 1e9 (overhead) − 512 · (4096 + 2 · 14,336) · 2 (a prefill chunk,
// 33,554,432) = 6,905,923,072 B left. Per user and token the KV cache holds 2 · 32 · 8 · 128 = 65,536 values:
// FP16 131,072 B, FP8 65,536 B, INT4 (q4_0) 36,864 B.
//   longest context, 4 users: 6,905,923,072 / (4 · 131,072) = 13,172.0 -> 13,172; / (4 · 65,536) -> 26,344;
//                              / (4 · 36,864) = 46,833.6 -> 46,833 tokens
//   users at 8,192 tokens:     / (8,192 · 131,072) = 6.43 -> 6; / (8,192 · 65,536) = 12.86 -> 12;
//                              / (8,192 · 36,864) = 22.87 -> 22
TEST(VramModel, KvFormatFitsSideBySide) {
  VramInputs in;
  in.shape = *find_preset("llama-3-8b");
  in.weights_format = NumberFormat::fp16;
  in.users = 4;
  in.context = 8192;
  const std::vector<KvFormatFit> fits = kv_format_fits(in, 24 * GB);
  ASSERT_EQ(fits.size(), 3u);
  const struct { NumberFormat kv; double per_token; std::int64_t context, users; } want[] = {
      {NumberFormat::fp16, 131'072, 13'172, 6},
      {NumberFormat::fp8, 65'536, 26'344, 12},
      {NumberFormat::int4, 36'864, 46'833, 22},
  };
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(std::string(format_name(want[i].kv)));
    EXPECT_EQ(fits[i].format, want[i].kv);
    EXPECT_DOUBLE_EQ(fits[i].bytes_per_token, want[i].per_token);
    EXPECT_EQ(fits[i].max_context, want[i].context);
    EXPECT_EQ(fits[i].max_users, want[i].users);
  }
  // The lesson's 7B, one user at 4,096 tokens: the figures of KvCacheFormatsStretchContextAndUsers above.
  VramInputs seven = lesson_7b(NumberFormat::fp16);
  seven.context = 4096;
  const std::vector<KvFormatFit> s = kv_format_fits(seven, 24 * GB);
  EXPECT_EQ(s[0].max_context, 17'115);
  EXPECT_EQ(s[1].max_context, 34'230);
  EXPECT_EQ(s[2].max_context, 60'853);
  EXPECT_EQ(s[0].max_users, 4);
  EXPECT_EQ(s[1].max_users, 2 * s[0].max_users);  // FP8 doubles it
  EXPECT_EQ(s[2].max_users, 14);
  // A training budget has no KV cache; the comparison is of serving, whatever mode the page is in.
  seven.mode = VramMode::train;
  EXPECT_EQ(kv_format_fits(seven, 24 * GB)[0].max_context, 17'115);
}

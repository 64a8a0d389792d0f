// Issue 36: batched decoding with every user's KV cache read each step and fitted beside the weights, and a mixture
// of experts under batching (the experts a batch touches). Figures worked by hand below; the lesson's old figure
// (72 tokens/s per user for 8 users on the RTX 4090, "each customer's speed barely moves") is the
// weights-only rate, and the tests say where the model must now differ from it.
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/serving_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace gpulab::models;

namespace {
constexpr double GB = 1e9;

// The lesson's 7B in FP16 on the shop's RTX 4090 (24 GB, 1,008 GB/s, 165.2 TFLOP/s dense FP16: datasheet).
ServingInputs shop(double context) {
  ServingInputs in;
  in.shape = *find_preset("lesson-7b");
  in.context = context;
  in.bandwidth_bytes_s = 1008e9;
  in.peak_flops = 165.2e12;
  in.card_bytes = 24 * GB;
  return in;
}
}  // namespace

// 8 users at 4,096 tokens: each cache 2 · 32 · 32 · 128 · 2 B · 4,096 = 2,147,483,648 B (2 GiB); the step reads
// 14e9 + 8 · 2.147e9 = 31.18e9 B -> 1,008 / 31.18 = 32.33 tokens/s per user, 258.6 in total (the old model said
// 72.0 per user: 1,008 / 14). VRAM: 14 + 17.18 + 1 (overhead) + 512 · (4096 + 2 · 11008) · 2 B (a prefill chunk,
// 26.7 MB) = 32.21 GB > 24: it does not fit. At 4,096 tokens (24 − 15 − 0.0267) / 2.147 = 4.18 -> 4 users; 8 users
// fit up to 8.9733e9 / (8 · 524,288) = 2,139 tokens each.
TEST(ServingModel, EightUsersAt4096TokensReadTheirCachesAndDoNotFit) {
  const ServingStep s = serving_step(shop(4096), 8);
  EXPECT_DOUBLE_EQ(s.kv_bytes_per_user, 2'147'483'648.0);
  EXPECT_DOUBLE_EQ(s.step_bytes, 14e9 + 8 * 2'147'483'648.0);
  EXPECT_NEAR(s.step.per_user_tokens_s, 32.33, 0.01);
  EXPECT_NEAR(s.step.aggregate_tokens_s, 258.6, 0.1);
  EXPECT_NEAR(s.per_user_without_kv, 72.0, 1e-9);
  // The old figure, 72 per user, is what the step would give if the caches were not read: no longer the answer.
  EXPECT_LT(s.step.per_user_tokens_s, 0.5 * 72.0);
  EXPECT_FALSE(s.step.compute_bound);
  ASSERT_TRUE(s.checked);
  EXPECT_FALSE(s.fits);
  EXPECT_NEAR(s.vram_needed / GB, 32.207, 0.001);
  EXPECT_EQ(s.max_users_at_context, 4);
  EXPECT_EQ(s.max_context_for_users, 2'139);
}

// At a context that fits, 8 users at 2,048 tokens: caches 8 · 1.074 GB = 8.59 GB, step 22.59 GB -> 44.62 per user.
TEST(ServingModel, AContextThatFitsCountsTheCacheInTheRate) {
  const ServingStep s = serving_step(shop(2048), 8);
  EXPECT_TRUE(s.fits);
  EXPECT_NEAR(s.step.per_user_tokens_s, 1008e9 / (14e9 + 8 * 1'073'741'824.0), 1e-9);
  EXPECT_NEAR(s.step.per_user_tokens_s, 44.62, 0.01);
}

// Grouped-query attention: Llama 3 8B keeps 8 KV heads of 32, so its cache is 4x smaller than Llama 2 7B's at the
// same context: 2 · 32 · 8 · 128 · 2 · 4,096 = 536,870,912 B a user. 8 users: 16.06e9 + 4.29e9 = 20.35e9 B a step
// -> 49.53 tokens/s per user, and it fits (20.35 + 1 + 512 · (4096 + 2 · 14336) · 2 = 21.39 GB).
TEST(ServingModel, GroupedQueryAttentionShrinksTheCacheFourfold) {
  ServingInputs in = shop(4096);
  in.shape = *find_preset("llama-3-8b");
  const ServingStep s = serving_step(in, 8);
  EXPECT_DOUBLE_EQ(s.kv_bytes_per_user, 536'870'912.0);
  EXPECT_NEAR(s.step.per_user_tokens_s, 1008e9 / (2 * 8'030'261'248.0 + 8 * 536'870'912.0), 1e-9);
  EXPECT_TRUE(s.fits);
}

// KV formats: FP8 halves the cache; INT4 (q4_0, 18 bytes per 32 values) keeps 28.1 % of it, not 25 %.
TEST(ServingModel, KvFormatsShrinkTheReadAsWellAsTheSpace) {
  EXPECT_DOUBLE_EQ(kv_bytes_per_value(NumberFormat::fp16), 2.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_value(NumberFormat::fp8), 1.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_value(NumberFormat::int4), 0.5625);
  EXPECT_NEAR(kv_bytes_per_value(NumberFormat::int4) / 2.0, 0.28125, 1e-12);
  ServingInputs in = shop(4096);
  in.kv_format = NumberFormat::fp8;
  const ServingStep fp8 = serving_step(in, 8);
  EXPECT_DOUBLE_EQ(fp8.kv_bytes_per_user, 1'073'741'824.0);
  EXPECT_EQ(fp8.max_users_at_context, 8);  // (24 − 15.0267) / 1.0737 = 8.36
  in.kv_format = NumberFormat::int4;
  EXPECT_DOUBLE_EQ(serving_step(in, 8).kv_bytes_per_user, 0.5625 * 32 * 32 * 128 * 2 * 4096);
}

// Mixtral 8x7B: one expert (all layers) (46.703 − 12.9) / 6 = 5.6338e9 params, shared 12.9 − 2 · 5.6338 = 1.6324e9.
// Share of a layer's experts a batch touches: 1 − 0.75^users: 25 % at 1, 43.75 % at 2, 89.99 % at 8.
// Params read at 8 users: 1.6324e9 + 8 · 5.6338e9 · 0.89989 = 42.19e9 (84.4 GB in FP16 of 93.4): nearly dense.
TEST(ServingModel, ABatchOfEightTouchesNearlyEveryExpert) {
  EXPECT_DOUBLE_EQ(moe_experts_touched_share(8, 2, 1), 0.25);
  EXPECT_DOUBLE_EQ(moe_experts_touched_share(8, 2, 2), 0.4375);
  EXPECT_NEAR(moe_experts_touched_share(8, 2, 8), 1 - std::pow(0.75, 8), 1e-15);
  EXPECT_NEAR(moe_experts_touched_share(8, 2, 8), 0.8999, 1e-4);
  EXPECT_DOUBLE_EQ(moe_experts_touched_share(0, 0, 8), 1.0);
  const MoeModel& m = *find_moe_preset("mixtral-8x7b");
  EXPECT_NEAR(moe_params_read(m, 1), 12.9e9, 1);
  EXPECT_NEAR(moe_params_read(m, 8) / 1e9, 42.19, 0.01);
  EXPECT_GT(moe_params_read(m, 8), 0.9 * m.shape.params);
  // The old model charged 12.9e9 for any batch; a batch of 8 reads 3.3× that.
  EXPECT_GT(moe_params_read(m, 8), 3 * m.active_params);
  EXPECT_EQ(find_moe_by_params(46.7e9, 12.9e9), &m);
  EXPECT_EQ(find_moe_by_params(46.7e9, 20e9), nullptr);

  // Through the serving step (on an H100 SXM, no cache): 8 users read 84.38 GB -> 3,350 / 84.38 = 39.7 per user,
  // where the active-only figure was 129.8.
  ServingInputs in;
  in.shape = m.shape;
  in.active_params = m.active_params;
  in.experts = m.experts;
  in.active_experts = m.active_experts;
  in.context = 0;
  in.bandwidth_bytes_s = 3350e9;
  const ServingStep s = serving_step(in, 8);
  EXPECT_NEAR(s.weight_bytes_read / GB, 84.38, 0.01);
  EXPECT_NEAR(s.step.per_user_tokens_s, 3350e9 / s.weight_bytes_read, 1e-9);
  EXPECT_NEAR(serving_step(in, 1).step.per_user_tokens_s, 3350.0 / 25.8, 1e-6);
}

// The experts on the CPU (llama.cpp --cpu-moe): 1.6324e9 · 2 / 3,350e9 = 0.975 ms on the card, 2 · 5.6338e9 · 2 /
// 307.2e9 = 73.36 ms from host memory: 74.33 ms a token, 13.45 tokens/s, 9.65× the 7.70 ms in VRAM — and 4.75× faster
// than copying the same experts over PCIe 5.0 (353.1 ms, moe_offload).
TEST(ServingModel, ExpertsComputedOnTheCpuReadHostMemoryNotTheBus) {
  const MoeModel& m = *find_moe_preset("mixtral-8x7b");
  const MoeCpuExperts c = moe_cpu_experts(m, 2.0, 3350e9, 307.2e9);
  EXPECT_NEAR(c.card_s * 1e3, 0.975, 0.001);
  EXPECT_NEAR(c.host_s * 1e3, 73.36, 0.01);
  EXPECT_NEAR(c.tokens_s, 13.45, 0.01);
  EXPECT_NEAR(c.slowdown, 9.65, 0.01);
  const MoeOffload bus = moe_offload(m, 2.0, 3350e9, 64e9);
  EXPECT_NEAR(bus.offloaded_s / c.token_s, 4.75, 0.01);
}

// Mixture of experts (issue 28, section 2): VRAM follows the total parameters, the decode ceiling the active ones.
// Figures worked by hand from the model cards (sources in gpu/models/moe_model.cpp):
//   Mixtral 8x7B  46,702,792,704 total (checkpoint), 12.9e9 active ("46.7B total ... 12.9B per token")
//   Qwen3-30B-A3B 30.5e9 total, 3.3e9 active ("30.5B in total and 3.3B activated")
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(MoeModel, PresetsFromTheirModelCards) {
  const MoeModel* mixtral = find_moe_preset("mixtral-8x7b");
  ASSERT_NE(mixtral, nullptr);
  EXPECT_EQ(find_moe_preset("Mixtral 8x7B"), mixtral);
  EXPECT_DOUBLE_EQ(mixtral->shape.params, 46'702'792'704.0);
  EXPECT_DOUBLE_EQ(mixtral->active_params, 12.9e9);
  EXPECT_EQ(mixtral->experts, 8);
  EXPECT_EQ(mixtral->active_experts, 2);
  // The card's "12.9B per token", rebuilt from the shape: per layer attention 2·4096² + 2·4096·1024, two experts
  // of 3·4096·14336, the router 4096·8 and two norms; 32 layers, plus embeddings and head 2·32000·4096 and a norm.
  const double layer = 2.0 * 4096 * 4096 + 2.0 * 4096 * 1024 + 2 * 3.0 * 4096 * 14336 + 4096 * 8 + 2 * 4096;
  EXPECT_NEAR(32 * layer + 2.0 * 32000 * 4096 + 4096, mixtral->active_params, 0.05e9);
  const MoeModel* qwen = find_moe_preset("qwen3-30b-a3b");
  ASSERT_NE(qwen, nullptr);
  EXPECT_DOUBLE_EQ(qwen->shape.params, 30.5e9);
  EXPECT_DOUBLE_EQ(qwen->active_params, 3.3e9);
  EXPECT_EQ(qwen->shape.layers, 48);
  EXPECT_EQ(qwen->shape.kv_heads, 4);
  EXPECT_EQ(find_moe_preset("llama-2-7b"), nullptr);
  EXPECT_EQ(find_preset("mixtral-8x7b"), nullptr);  // the dense presets stay dense (nearest_preset never picks one)
}

TEST(MoeModel, MemoryFollowsTotalDecodeFollowsActive) {
  // Mixtral FP16 on an H100 SXM (3,350 GB/s): 46.70 · 2 = 93.41 GB held (more than 80 GB), 12.9 · 2 = 25.8 GB read
  // per token -> 3,350 / 25.8 = 129.84 tokens/s; read whole it would be 3,350 / 93.41 = 35.86.
  const MoeDecode m = moe_decode(46'702'792'704.0, 12.9e9, 2.0, 3350e9);
  EXPECT_DOUBLE_EQ(m.weights_bytes, 93'405'585'408.0);
  EXPECT_DOUBLE_EQ(m.bytes_per_token, 25.8e9);
  EXPECT_NEAR(m.ceiling_tokens_s, 129.84, 0.01);
  EXPECT_NEAR(m.dense_ceiling_tokens_s, 35.86, 0.01);
  EXPECT_NEAR(m.read_share, 0.2762, 1e-4);
  // Qwen3-30B-A3B BF16: 61.0 GB held, 6.6 GB per token -> 507.58 tokens/s at 3,350 GB/s.
  const MoeDecode q = moe_decode(30.5e9, 3.3e9, 2.0, 3350e9);
  EXPECT_DOUBLE_EQ(q.weights_bytes, 61e9);
  EXPECT_NEAR(q.ceiling_tokens_s, 507.58, 0.01);
  // The KV cache read is paid whole, whatever the routing: + 1 GB per token.
  EXPECT_NEAR(moe_decode(30.5e9, 3.3e9, 2.0, 3350e9, 1e9).ceiling_tokens_s, 3350.0 / 7.6, 1e-9);
  // No active figure, or one larger than the model: dense.
  EXPECT_DOUBLE_EQ(moe_decode(7e9, 0, 2.0, 3350e9).ceiling_tokens_s, 3350.0 / 14.0);
  EXPECT_DOUBLE_EQ(moe_decode(7e9, 9e9, 2.0, 3350e9).read_share, 1.0);
}

TEST(MoeModel, VramBudgetHoldsEveryExpert) {
  // The VRAM budget of an MoE is its total's: Mixtral in FP16 does not fit an 80 GB H100, in INT4 (23.4 GB) it
  // fits with room for its KV cache (GQA, 8 KV heads: 2 · 32 · 8 · 128 · 2 = 131,072 B per token).
  VramInputs in;
  in.shape = find_moe_preset("mixtral-8x7b")->shape;
  in.context = 4096;
  in.weights_format = NumberFormat::fp16;
  EXPECT_FALSE(vram_budget(in, 80e9).fits);
  in.weights_format = NumberFormat::int4;
  const VramBudget b = vram_budget(in, 80e9);
  EXPECT_TRUE(b.fits);
  EXPECT_DOUBLE_EQ(b.weights, 46'702'792'704.0 / 2);
  EXPECT_DOUBLE_EQ(b.kv_cache, 131072.0 * 4096);
}

// Experts in host RAM, read over PCIe per token (issue 28, section 2, the PCIe page). Mixtral 8x7B FP16, H100 SXM
// (3,350 GB/s), PCIe 5.0 x16 (64 GB/s per direction), worked by hand:
//   one expert = (46,702,792,704 − 12.9e9) / (8 − 2) = 5,633,798,784; shared = 12.9e9 − 2 · that = 1,632,402,432
//   on the card: 25.8e9 / 3.35e12 = 7.7015 ms; offloaded: 3.2648e9 / 3.35e12 + 22.535e9 / 64e9 = 0.9746 + 352.11
//   = 353.09 ms, 45.85× slower; half speed allows (7.7015e-3) / (1/64e9 − 1/3.35e12) = 0.5025 GB over the bus.
// Qwen3-30B-A3B FP16 on an RTX 4090 (1,008 GB/s, PCIe 4.0 x16 32 GB/s): one expert (30.5e9 − 3.3e9) / 120 =
//   226.67e6; 8 active = 3.627 GB over the bus; 6.548 ms on the card against 116.28 ms: 17.76×.
TEST(MoeModel, ExpertsInHostRamCrossTheBusEveryToken) {
  const MoeOffload m = moe_offload(*find_moe_preset("mixtral-8x7b"), 2.0, 3350e9, 64e9);
  EXPECT_NEAR(m.expert_params, 5'633'798'784.0, 1.0);
  EXPECT_NEAR(m.shared_params, 1'632'402'432.0, 1.0);
  EXPECT_NEAR(m.bus_bytes_per_token, 22'535'195'136.0, 4.0);
  EXPECT_NEAR(m.in_vram_s, 7.7015e-3, 1e-7);
  EXPECT_NEAR(m.offloaded_s, 353.09e-3, 0.01e-3);
  EXPECT_NEAR(m.slowdown, 45.85, 0.01);
  EXPECT_NEAR(m.halving_bus_bytes, 0.5025e9, 0.0005e9);
  const MoeOffload q = moe_offload(*find_moe_preset("qwen3-30b-a3b"), 2.0, 1008e9, 32e9);
  EXPECT_NEAR(q.bus_bytes_per_token, 3.6267e9, 0.0001e9);
  EXPECT_NEAR(q.in_vram_s, 6.548e-3, 1e-6);
  EXPECT_NEAR(q.offloaded_s, 116.28e-3, 0.01e-3);
  EXPECT_NEAR(q.slowdown, 17.76, 0.01);
  // No link or no experts to move: nothing computed.
  EXPECT_EQ(moe_offload(*find_moe_preset("mixtral-8x7b"), 2.0, 3350e9, 0).offloaded_s, 0.0);
}

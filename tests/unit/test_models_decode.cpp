// Golden values: lesson 17.1 worked example and practice (data/lesson-numbers.md).
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/transfer_model.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(DecodeModel, BytesPerToken) {
  EXPECT_DOUBLE_EQ(decode_bytes_per_token(7e9, 2.0), 14e9);
  EXPECT_DOUBLE_EQ(decode_bytes_per_token(7e9, 0.5), 3.5e9);
  EXPECT_DOUBLE_EQ(decode_bytes_per_token(7e9, 2.0, 2'147'483'648.0), 14e9 + 2'147'483'648.0);
}

TEST(DecodeModel, CeilingAt3350GBs) {
  const double bw = 3350e9;
  const double fp16 = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(7e9, 2.0));
  const double int8 = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(7e9, 1.0));
  const double int4 = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(7e9, 0.5));
  EXPECT_NEAR(fp16, 239.29, 0.005);
  EXPECT_NEAR(int8, 478.57, 0.005);
  EXPECT_NEAR(int4, 957.14, 0.005);
  // As the lesson prints them (nearest whole token).
  EXPECT_EQ(std::lround(fp16), 239);
  EXPECT_EQ(std::lround(int8), 479);
  EXPECT_EQ(std::lround(int4), 957);
}

TEST(DecodeModel, DesktopMemoryExercise) {
  const double t = decode_ceiling_tokens_per_s(50e9, 14e9);
  EXPECT_NEAR(t, 3.6, 0.05);  // 3.571...
  EXPECT_EQ(decode_ceiling_tokens_per_s(50e9, 0), 0.0);
}

TEST(DecodeModel, ComputeAtTheCeilingIsTiny) {
  EXPECT_DOUBLE_EQ(decode_flops_per_token(7e9), 14e9);
  const double flops = compute_at_ceiling(7e9, 2.0, 3350e9);
  EXPECT_NEAR(flops, 3.35e12, 1e6);
  EXPECT_NEAR(flops / 1e12, 3.3, 0.06);  // "roughly 3.3 trillion FLOPs per second"
  // Against ~1000 TFLOP/s, the cores are idle well over 99 % of the time.
  EXPECT_GT(1.0 - flops / 989.4e12, 0.99);
}

TEST(DecodeModel, BatchingShareTheRead) {
  DecodeInputs in;  // 7B FP16 on an H100 SXM: 3,350 GB/s, 989.4 TFLOP/s
  const DecodeStep one = decode_step(in, 1);
  const DecodeStep eight = decode_step(in, 8);
  EXPECT_FALSE(one.compute_bound);
  EXPECT_FALSE(eight.compute_bound);
  EXPECT_NEAR(one.aggregate_tokens_s, 239.29, 0.005);
  // Same step time, eight tokens per step: 8x the throughput, same per-user speed.
  EXPECT_DOUBLE_EQ(eight.step_s, one.step_s);
  EXPECT_DOUBLE_EQ(eight.aggregate_tokens_s, 8 * one.aggregate_tokens_s);
  EXPECT_DOUBLE_EQ(eight.per_user_tokens_s, one.per_user_tokens_s);
  EXPECT_LT(one.compute_utilisation, 0.01);
  EXPECT_NEAR(eight.compute_utilisation, 8 * one.compute_utilisation, 1e-12);
}

TEST(DecodeModel, TurnsComputeBoundAtTheRidge) {
  DecodeInputs in;
  const double b = compute_bound_batch(in);
  // peak · bytes/param / (2 · bandwidth) = 989.4e12 · 2 / 6.7e12 = 295.3
  EXPECT_NEAR(b, 295.34, 0.01);
  EXPECT_FALSE(decode_step(in, 295).compute_bound);
  EXPECT_TRUE(decode_step(in, 296).compute_bound);
  // Past it, per-user speed falls and aggregate flattens at peak / (2·params).
  const DecodeStep big = decode_step(in, 1024);
  EXPECT_NEAR(big.aggregate_tokens_s, 989.4e12 / 14e9, 1e-6);
  EXPECT_LT(big.per_user_tokens_s, decode_step(in, 1).per_user_tokens_s);
  EXPECT_DOUBLE_EQ(big.compute_utilisation, 1.0);
}

TEST(DecodeModel, KvReadsDelayOrPreventComputeBound) {
  DecodeInputs in;
  in.kv_bytes_per_user = 2'147'483'648.0;  // 4,096 tokens of Llama-2-7B-like FP16 cache per user
  // Each user's KV read (0.64 ms) costs more than its FLOPs (0.014 ms): never compute-bound.
  EXPECT_TRUE(std::isinf(compute_bound_batch(in)));
  EXPECT_LT(decode_step(in, 8).aggregate_tokens_s, 8 * decode_step(in, 1).aggregate_tokens_s);
  DecodeInputs small = in;
  small.kv_bytes_per_user = 1e6;
  const double b = compute_bound_batch(small);
  EXPECT_GT(b, compute_bound_batch(DecodeInputs{}));
  EXPECT_TRUE(decode_step(small, std::ceil(b) + 1).compute_bound);
  DecodeInputs none = in;
  none.bandwidth_bytes_s = 0;
  EXPECT_EQ(compute_bound_batch(none), 0.0);
}

TEST(TransferModel, PcieVersusHbm) {
  EXPECT_DOUBLE_EQ(pcie_quoted_gbs(5, 16), 64.0);  // "roughly 64 GB/s in each direction"
  EXPECT_DOUBLE_EQ(pcie_quoted_gbs(4, 16), 32.0);
  EXPECT_DOUBLE_EQ(pcie_quoted_gbs(3, 16), 16.0);
  EXPECT_DOUBLE_EQ(pcie_quoted_gbs(4, 8), 16.0);
  EXPECT_EQ(pcie_quoted_gbs(7, 16), 0.0);
  EXPECT_EQ(pcie_quoted_gbs(5, 0), 0.0);
  EXPECT_NEAR(pcie_encoded_gbs(5, 16), 63.015, 0.001);
  EXPECT_NEAR(pcie_encoded_gbs(1, 16), 4.0, 1e-12);
  EXPECT_NEAR(hbm_to_link_ratio(3350e9, 64e9), 52.3, 0.05);
  EXPECT_DOUBLE_EQ(transfer_seconds(14e9, 64e9), 14.0 / 64.0);
  EXPECT_EQ(transfer_seconds(1, 0), 0.0);
}

TEST(TransferModel, OffloadingWeightsOverPcie) {
  // 28 GB of FP32 weights on the 24 GB shop card with 20 GB for weights: 8 GB stream over PCIe 5.0 per token.
  const OffloadCost c = offload_cost(28e9, 20e9, 3350e9, 64e9);
  EXPECT_DOUBLE_EQ(c.resident_bytes, 20e9);
  EXPECT_DOUBLE_EQ(c.streamed_bytes, 8e9);
  EXPECT_DOUBLE_EQ(c.seconds_per_token, 20e9 / 3350e9 + 8e9 / 64e9);
  EXPECT_NEAR(c.tokens_per_s, 1.0 / 0.131, 0.01);
  EXPECT_GT(c.slowdown, 10.0);
  const OffloadCost all_in = offload_cost(14e9, 24e9, 3350e9, 64e9);
  EXPECT_DOUBLE_EQ(all_in.streamed_bytes, 0.0);
  EXPECT_DOUBLE_EQ(all_in.slowdown, 1.0);
}

// Issue 28: the worked example's step 4 — at batch 1 the arithmetic units are idle more than 99 % of the time.
// Worked by hand: 7B FP16 at the ceiling asks for 2 · 7e9 · (3,350e9 / 14e9) = 3.35e12 FLOP/s; an H100 SXM offers
// 989.4e12 dense FP16 (datasheet), so 1 − 3.35 / 989.4 = 99.661 % idle. RTX 4090: 1 − 1.008 / 165.2 = 99.390 %.
TEST(DecodeModel, ArithmeticIdleAtTheCeiling) {
  EXPECT_NEAR(idle_share_at_ceiling(7e9, 2.0, 3350e9, 989.4e12), 1.0 - 3.35 / 989.4, 1e-12);
  EXPECT_NEAR(100 * idle_share_at_ceiling(7e9, 2.0, 3350e9, 989.4e12), 99.661, 0.001);
  EXPECT_NEAR(100 * idle_share_at_ceiling(7e9, 2.0, 1008e9, 165.2e12), 99.390, 0.001);
  EXPECT_GT(idle_share_at_ceiling(7e9, 0.5, 3350e9, 989.4e12), 0.98);  // INT4: four times the FLOP/s, still idle
  EXPECT_EQ(idle_share_at_ceiling(7e9, 2.0, 3350e9, 0), 0.0);
}

// Why real decoders land below the ceiling, worked by hand for the lesson's example (7B FP16, H100 SXM, one
// conversation of 4,096 tokens: 2 GiB of KV cache, Llama 2 7B shape):
//   weights   14e9 B / (3,350e9 · 0.87 B/s)      = 4.8036 ms
//   KV cache  2,147,483,648 B / 2,914.5e9 B/s     = 0.7368 ms
//   launches  32 layers · 10 kernels · 0.9 µs     = 0.288 ms (asynchronous, back to back: launch_model.hpp;
//                                                   the old 3 µs per launch was an assumption, 0.96 ms)
//   sampling                                       = 0.10 ms
//   sum 5.9284 ms -> 168.7 tokens/s, 70.5 % of the 239.3 ceiling.
TEST(DecodeModel, BelowTheCeilingWorkedExample) {
  DecodeRealInputs in;
  in.kv_bytes_read = 2147483648.0;
  const DecodeRealEstimate e = decode_below_ceiling(in);
  EXPECT_NEAR(e.ceiling_tokens_s, 239.286, 0.001);
  EXPECT_NEAR(e.weights_s * 1e3, 4.8036, 1e-4);
  EXPECT_NEAR(e.kv_s * 1e3, 0.7368, 1e-4);
  EXPECT_NEAR(in.launch_gap_s, published_launch_costs().back_to_back_s - published_launch_costs().kernel_s, 1e-15);
  EXPECT_NEAR(e.launch_s * 1e3, 0.288, 1e-9);
  EXPECT_NEAR(e.sampling_s * 1e3, 0.10, 1e-9);
  EXPECT_NEAR(e.token_s * 1e3, 5.9284, 1e-4);
  EXPECT_NEAR(e.tokens_s, 168.68, 0.01);
  EXPECT_NEAR(e.share_of_ceiling, 0.7049, 1e-4);
  // Each cause alone lowers the speed: none of them is in the ceiling.
  DecodeRealInputs ideal;
  ideal.bandwidth_share = 1;
  ideal.launch_gap_s = 0;
  ideal.sampling_s = 0;
  EXPECT_NEAR(decode_below_ceiling(ideal).tokens_s, e.ceiling_tokens_s, 1e-9);
}

// The one launch figure (launch_model.hpp, NVIDIA's CUDA-graphs blog on a V100: a 2.9 µs kernel, 9.6 µs a kernel
// synchronised, 3.8 back to back, 3.4 from a graph). A 10 µs op: 16.7 µs synchronised (40.1 % overhead), 10.9 µs
// asynchronous (8.3 %), 10.5 µs from a graph (4.8 %). A 1 µs op launched asynchronously waits for the CPU: 3.8 µs.
TEST(LaunchModel, AsynchronousLaunchesHideBehindLongEnoughKernels) {
  const LaunchCosts& c = published_launch_costs();
  EXPECT_NEAR(c.sync_overhead_s(), 6.7e-6, 1e-12);
  EXPECT_NEAR(c.async_gap_s(), 0.9e-6, 1e-12);
  EXPECT_NEAR(c.graph_gap_s(), 0.5e-6, 1e-12);
  EXPECT_NEAR(launched_ops_seconds(1, 10e-6, LaunchMode::synchronised), 16.7e-6, 1e-12);
  EXPECT_NEAR(launched_ops_seconds(1, 10e-6, LaunchMode::asynchronous), 10.9e-6, 1e-12);
  EXPECT_NEAR(launched_ops_seconds(1, 10e-6, LaunchMode::graph), 10.5e-6, 1e-12);
  EXPECT_NEAR(100 * launch_overhead_share(10e-6, LaunchMode::synchronised), 40.12, 0.01);
  EXPECT_NEAR(100 * launch_overhead_share(10e-6, LaunchMode::asynchronous), 8.26, 0.01);
  EXPECT_NEAR(launched_ops_seconds(100, 1e-6, LaunchMode::asynchronous), 100 * 3.8e-6, 1e-12);
  // The blog's own kernel reproduces its three figures.
  EXPECT_NEAR(launched_ops_seconds(20, 2.9e-6, LaunchMode::synchronised) / 20, 9.6e-6, 1e-12);
  EXPECT_NEAR(launched_ops_seconds(20, 2.9e-6, LaunchMode::asynchronous) / 20, 3.8e-6, 1e-12);
  EXPECT_NEAR(launched_ops_seconds(20, 2.9e-6, LaunchMode::graph) / 20, 3.4e-6, 1e-12);
}

// The defaults against a published measurement (data/reference-results.md): llama.cpp on an RTX 4090, LLaMA 7B
// F16 (13.5 GB), 61.0 tokens/s at batch 1 (ggerganov/llama.cpp PR 4766; a short generation, so little KV cache).
// By hand: 13.5e9 / (1,008e9 · 0.87) = 15.394 ms + 0.288 + 0.10 = 15.782 ms -> 63.4 tokens/s, 3.9 % above it.
TEST(DecodeModel, BelowTheCeilingMatchesAPublishedRun) {
  DecodeRealInputs in;
  in.params = 6.75e9;
  in.bandwidth_bytes_s = 1008e9;
  const DecodeRealEstimate e = decode_below_ceiling(in);
  EXPECT_NEAR(e.tokens_s, 63.36, 0.01);
  EXPECT_NEAR(e.tokens_s / 61.0, 1.0, 0.05);
  EXPECT_NEAR(e.ceiling_tokens_s, 74.67, 0.01);
}

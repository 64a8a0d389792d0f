// The decode page's model: chains of the decode plan per source (another plan's never), scaled to 32 layers, the
// chain's own ceiling from its device's triad, the "measured" ceiling bandwidth by the DRAM rule, device words.
#include "pages/decode/model/decode_page_model.h"

#include "gpulab/page_plans.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace decode_page_model;

namespace {
gpulab::Result chain(long long users, double seconds, int layers = 2, std::string plan = gpulab::plan_name::decode,
                     const std::string& backend = "cpu") {
  gpulab::Result r;
  r.experiment = "layer_chain";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = "gemm_chain";
  r.params = {{"batch", double(users)}, {"layers", double(layers)}, {"params_per_layer", 2e8}, {"weight_bytes", 1.6e9}};
  r.check.passed = true;
  r.stats.median_s = seconds;
  r.stats.min_s = seconds * 0.9;
  r.stats.max_s = seconds * 1.1;
  return r;
}
gpulab::Result triad(double gbps, double bytes, std::string plan = gpulab::plan_name::decode,
                     const std::string& backend = "cpu") {
  gpulab::Result r;
  r.experiment = "bandwidth";
  r.plan = std::move(plan);
  r.backend = backend;
  r.variant = "triad";
  r.params = {{"bytes", bytes}};
  r.check.passed = true;
  r.gbps = gbps;
  r.stats.median_s = 0.01;
  return r;
}
}  // namespace

TEST(DecodePageModel, ChainScaledToTheFullModelWithItsCeiling) {
  const auto c1 = chain(1, 0.1), c2 = chain(2, 0.11), bw = triad(20, 64 << 20), small = triad(80, 1 << 20);
  const auto runs = chainRuns({{&c1, -1}, {&c2, -1}, {&bw, -1}, {&small, -1}});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].layers, 2);
  ASSERT_EQ(runs[0].steps.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0].steps[0].median_s, 0.1 * 16);  // 2 of 32 layers: time × 16
  EXPECT_DOUBLE_EQ(runs[0].steps[0].min_s, 0.09 * 16);
  EXPECT_DOUBLE_EQ(runs[0].bandwidth, 20e9);  // the DRAM-sized triad, not the cache-sized 80 GB/s
  EXPECT_NEAR(batchingGain(runs, 2), 2 * 0.1 / 0.11, 1e-12);
  EXPECT_TRUE(std::isnan(batchingGain(runs, 8)));
  EXPECT_EQ(measuredChainCount({{&c1, -1}, {&c2, -1}, {&c1, 0}}), 2);
}

TEST(DecodePageModel, AnotherPlansResultIsNotDrawn) {
  const auto mine = chain(1, 0.1), other = chain(2, 0.05, 2, gpulab::plan_name::quick),
             legacy = chain(4, 0.2, 2, "");
  const auto runs = chainRuns({{&mine, -1}, {&other, -1}, {&legacy, 0}});
  ASSERT_EQ(runs.size(), 2u);  // here (its own plan's) and the recording from before plans
  EXPECT_EQ(runs[0].steps.size(), 1u);
  EXPECT_EQ(runs[1].source, 0);
  EXPECT_EQ(measuredChainCount({{&other, -1}}), 0);
}

TEST(DecodePageModel, CeilingBandwidthOnePerSourceHereFirst) {
  const auto here = triad(20, 64 << 20, gpulab::plan_name::bandwidth), recCpu = triad(30, 1 << 30, "", "cpu"),
             recGpu = triad(4300, 1 << 30, "", "cuda"), recGpuCache = triad(9000, 4 << 20, "", "cuda"),
             otherGpu = triad(900, 1 << 30, "", "cuda");
  const auto b = ceilingBandwidths({{&recGpu, 0}, {&here, -1}});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_DOUBLE_EQ(b[0].bytesPerS, 20e9);
  EXPECT_EQ(b[0].source, -1);
  EXPECT_EQ(b[0].device.device_class, gpulab::DeviceClass::cpu);
  EXPECT_EQ(b[1].source, 0);
  const auto r = ceilingBandwidths({{&recCpu, 0}, {&recGpuCache, 0}, {&recGpu, 0}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_DOUBLE_EQ(r[0].bytesPerS, 4300e9);  // a recording's GPU triad, DRAM-sized; never its CPU's
  EXPECT_TRUE(ceilingBandwidths({{&recCpu, 0}}).empty());
  // Two recordings are two ceilings: the slower card's is not dropped for the faster's.
  const auto two = ceilingBandwidths({{&recGpu, 0}, {&otherGpu, 1}});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_DOUBLE_EQ(two[0].bytesPerS, 4300e9);
  EXPECT_DOUBLE_EQ(two[1].bytesPerS, 900e9);
  EXPECT_EQ(two[1].source, 1);
}

TEST(DecodePageModel, AChainOnLavapipeIsNotAGpu) {
  auto c = chain(1, 0.5, 1, gpulab::plan_name::decode, "vulkan");
  c.provenance["device"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
  c.provenance["device_type"] = "CPU (not a GPU)";
  const auto runs = chainRuns({{&c, -1}});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_FALSE(runs[0].device.is_gpu);
  EXPECT_EQ(runs[0].device.device_class, gpulab::DeviceClass::vulkan_on_cpu);
}

// The plan's prefill step (the chain with the prompt's tokens as one batch) is not a user count: it stays off the
// users' steps and is read as the prompt's pass. Worked by hand: 123 of a 1,000-token prompt through 1 of 32 layers
// in 0.5 s -> 16 s a pass of the full depth, 123 / 16 = 7.6875 tokens/s, the whole prompt 16 · 1000 / 123 = 130.08 s.
TEST(DecodePageModel, PrefillIsThePromptsPassNotAUserCount) {
  const auto c1 = chain(1, 0.1), c2 = chain(2, 0.11), bw = triad(20, 64 << 20);
  auto pre = chain(123, 0.5, 1);
  pre.params["prompt_tokens"] = 1000;
  pre.gflops = 99.6;
  auto one = c1;
  one.gbps = 16.2;
  const auto runs = chainRuns({{&one, -1}, {&c2, -1}, {&bw, -1}, {&pre, -1}});
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].steps.size(), 2u);  // users 1 and 2 only
  EXPECT_EQ(runs[0].layers, 2);
  EXPECT_DOUBLE_EQ(runs[0].batchOneGbps, 16.2);
  ASSERT_TRUE(runs[0].prefill.has_value());
  const Prefill& f = *runs[0].prefill;
  EXPECT_EQ(f.tokens, 123);
  EXPECT_EQ(f.promptTokens, 1000);
  EXPECT_TRUE(f.capped());
  EXPECT_DOUBLE_EQ(f.passS, 16.0);
  EXPECT_DOUBLE_EQ(f.tokensPerS(), 7.6875);
  EXPECT_NEAR(f.promptS(), 130.081, 0.001);
  EXPECT_DOUBLE_EQ(f.gflops, 99.6);
  EXPECT_EQ(measuredChainCount({{&one, -1}, {&c2, -1}, {&pre, -1}}), 2);
  // Not capped: the prompt's pass is the time to its first token on this machine.
  auto whole = chain(300, 0.5, 1);
  whole.params["prompt_tokens"] = 300;
  const auto uncapped = chainRuns({{&one, -1}, {&whole, -1}});
  ASSERT_TRUE(uncapped[0].prefill.has_value());
  EXPECT_FALSE(uncapped[0].prefill->capped());
  EXPECT_DOUBLE_EQ(uncapped[0].prefill->promptS(), 16.0);
}

// The ceiling chart's table is the model's, built before anything is drawn: the lesson's H100 (3.35 TB/s) with the
// 7B model in FP16 (14 GB a token) is 239 tokens/s; a measured CPU triad and a what-if make the other columns, and a
// CPU chain (FP32, wider than FP16) adds its own format, so run and ceiling compare in one precision.
TEST(DecodePageModel, TheCeilingTableIsBandwidthOverBytesPerToken) {
  const auto c1 = chain(1, 0.1), here = triad(20, 64 << 20);
  const CeilingTable t = ceilingTable({{&c1, -1}, {&here, -1}}, 3.35e12, 1e12, 7e9);
  ASSERT_EQ(t.bandwidths.size(), 3u);
  EXPECT_EQ(t.bandwidths[0].kind, CeilingColumn::Kind::datasheet);
  EXPECT_EQ(t.bandwidths[1].kind, CeilingColumn::Kind::measured);
  EXPECT_EQ(t.bandwidths[1].measured.source, -1);
  EXPECT_EQ(t.bandwidths[2].kind, CeilingColumn::Kind::whatIf);
  ASSERT_EQ(t.formats.size(), 4u);  // FP16, INT8, INT4 and the chain's FP32
  EXPECT_EQ(t.formats[0].name, "FP16");
  ASSERT_EQ(t.tokensPerS.size(), 3u);
  ASSERT_EQ(t.tokensPerS[0].size(), t.formats.size());
  EXPECT_NEAR(t.bytesPerToken[0], 14e9, 1);
  EXPECT_NEAR(t.tokensPerS[0][0], 239.29, 0.01);
  EXPECT_NEAR(t.tokensPerS[1][0], 20e9 / 14e9, 1e-9);
  EXPECT_NEAR(t.tokensPerS[2][0], 1e12 / 14e9, 1e-9);
  // No datasheet figure: no datasheet column; no chain: the three formats alone.
  const CeilingTable bare = ceilingTable({}, 0, 1e12, 7e9);
  ASSERT_EQ(bare.bandwidths.size(), 1u);
  EXPECT_EQ(bare.formats.size(), 3u);
}

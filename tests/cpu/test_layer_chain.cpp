// The CPU layer chain: correct against an FP64 reference (its own check and an independent one here), sized
// as the spec says, refused when it cannot run; and held host memory refused with the numbers.
#include "gpulab/backend.hpp"
#include "gpulab/decode_experiments.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/memory_hold.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace gpulab;

namespace {
TransformerShape tiny() {
  TransformerShape s;
  s.hidden = 64;
  s.heads = 4;
  s.kv_heads = 2;  // GQA: K and V are half as wide as Q
  s.head_dim = 16;
  s.intermediate = 96;
  s.layers = 4;
  return s;
}
}  // namespace

TEST(LayerChainShape, SevenBLayerHasTheLlamaWeightCount) {
  const LayerChainSpec spec = layer_chain_for(TransformerShape{}, 1, 1, Precision::fp16);
  ASSERT_EQ(spec.matrices.size(), 5u);
  EXPECT_EQ(spec.matrices[0].n, 3 * 4096);
  EXPECT_DOUBLE_EQ(layer_chain_params_per_layer(spec), 202375168.0);  // 4096·12288 + 4096² + 2·4096·11008 + 11008·4096
  EXPECT_DOUBLE_EQ(layer_chain_weight_bytes(spec), 202375168.0 * 2);
  // GQA with 8 KV heads: QKV is 4096 -> (32 + 16)·128 = 6144.
  TransformerShape g;
  g.kv_heads = 8;
  EXPECT_EQ(layer_chain_for(g, 1, 1, Precision::fp16).matrices[0].n, 6144);
}

TEST(LayerChainShape, LayersThatFitAreClamped) {
  const LayerChainSpec one = layer_chain_for(TransformerShape{}, 1, 1, Precision::fp32);
  const double per = layer_chain_weight_bytes(one);
  EXPECT_EQ(layer_chain_layers_that_fit(one, 2.5 * per, 32), 2);
  EXPECT_EQ(layer_chain_layers_that_fit(one, 0.1 * per, 32), 1);   // never zero: one layer is the smallest run
  EXPECT_EQ(layer_chain_layers_that_fit(one, 100 * per, 32), 32);  // never deeper than the model
}

TEST(LayerChainCpu, MatchesAnIndependentReference) {
  auto cpu = make_cpu_backend();
  for (long long batch : {1LL, 3LL}) {
    LayerChainSpec spec = layer_chain_for(tiny(), 3, batch, Precision::fp32);
    ASSERT_TRUE(cpu->supports(spec).ok) << cpu->supports(spec).reason;
    auto op = cpu->make_layer_chain(spec);
    ASSERT_TRUE(op);
    const Check c = op->verify();
    EXPECT_TRUE(c.passed) << c.message;
    EXPECT_GT(c.checked, 0);
    EXPECT_GT(op->run_once(), 0.0);
    double per_layer = 0;
    for (const auto& m : spec.matrices) per_layer += double(m.k) * double(m.n);
    EXPECT_DOUBLE_EQ(op->flops(), 2.0 * batch * per_layer * 3);
    EXPECT_GE(op->bytes(), per_layer * 3 * 4);  // at least every FP32 weight once
  }
}

TEST(LayerChainCpu, HandWorkedTwoMatrixChain) {
  // x (1×2) · W1 (2×1) · W2 (1×2): the chain's rule feeds W2 from W1's output. With the generator's weights we
  // cannot predict values by hand, but a wrong wiring shows up as a failed check, which the op reports.
  auto cpu = make_cpu_backend();
  LayerChainSpec spec;
  spec.matrices = {{2, 1}, {1, 2}};
  spec.layers = 2;
  spec.batch = 2;
  spec.precision = Precision::fp32;
  auto op = cpu->make_layer_chain(spec);
  EXPECT_TRUE(op->verify().passed);
}

TEST(LayerChainCpu, RunLayerChainFillsTheResult) {
  auto cpu = make_cpu_backend();
  RunContext ctx;
  ctx.policy.min_samples = 2;
  ctx.policy.max_samples = 3;
  ctx.policy.time_budget_s = 0.2;
  const Result r = run_layer_chain(*cpu, layer_chain_for(tiny(), 2, 4, Precision::fp32), ctx);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.experiment, "layer_chain");
  EXPECT_EQ(r.param("batch"), 4);
  EXPECT_EQ(r.param("layers"), 2);
  EXPECT_GT(r.stats.median_s, 0);
  EXPECT_GT(r.gflops, 0);
}

TEST(LayerChainCpu, RefusesWhatItCannotRun) {
  auto cpu = make_cpu_backend();
  LayerChainSpec fp16 = layer_chain_for(tiny(), 1, 1, Precision::fp16);
  EXPECT_FALSE(cpu->supports(fp16).ok);
  EXPECT_NE(cpu->supports(fp16).reason.find("FP32"), std::string::npos);
  EXPECT_THROW(cpu->make_layer_chain(fp16), std::invalid_argument);
  RunContext ctx;
  const Result r = run_layer_chain(*cpu, fp16, ctx);
  EXPECT_FALSE(r.error.empty());
  // A chain far larger than RAM is refused before anything is allocated.
  TransformerShape huge;
  huge.hidden = 1 << 20;
  huge.intermediate = 1 << 20;
  huge.heads = 1024;
  huge.kv_heads = 1024;
  huge.head_dim = 1024;
  EXPECT_THROW(cpu->make_layer_chain(layer_chain_for(huge, 64, 1, Precision::fp32)), std::invalid_argument);
}

TEST(HeldMemoryCpu, ImpossibleRequestIsRefusedWithTheNumbers) {
  auto cpu = make_cpu_backend();
  const MemoryInfo mem = cpu->memory_info();
  ASSERT_GT(mem.total_bytes, 0);
  try {
    cpu->hold_memory(mem.total_bytes * 10, 0);
    FAIL() << "ten times the RAM was not refused";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Refused"), std::string::npos) << what;
    EXPECT_NE(what.find("free of"), std::string::npos) << what;
    EXPECT_NE(what.find("short by"), std::string::npos) << what;
  }
}

TEST(HeldMemoryCpu, SmallRequestIsHeldAndShowsInTheReading) {
  auto cpu = make_cpu_backend();
  auto held = cpu->hold_memory(64.0 * 1024 * 1024, 256.0 * 1024 * 1024);
  ASSERT_TRUE(held);
  EXPECT_DOUBLE_EQ(held->bytes_held(), 64.0 * 1024 * 1024);
  EXPECT_GT(held->before().total_bytes, 0);
}

TEST(HeldMemoryCpu, RunHoldMemoryReportsStepsAndRelease) {
  auto cpu = make_cpu_backend();
  RunContext ctx;
  int holding = 0, released = 0, refused = 0;
  ctx.on_result = [&](const Result& r) {
    holding += r.variant == "holding";
    released += r.variant == "released";
    refused += r.variant == "refused";
  };
  run_hold_memory(*cpu, 32.0 * 1024 * 1024, 256.0 * 1024 * 1024, 4, 0.0, ctx);
  EXPECT_EQ(holding, 4);
  EXPECT_EQ(released, 1);
  EXPECT_EQ(refused, 0);
  const Result r = run_hold_memory(*cpu, cpu->memory_info().total_bytes * 4, 0, 4, 0.0, ctx);
  EXPECT_EQ(r.variant, "refused");
  EXPECT_EQ(refused, 1);
  EXPECT_EQ(holding, 4);  // nothing was attempted
}

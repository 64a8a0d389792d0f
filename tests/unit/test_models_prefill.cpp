// Prefill and decode (issue 28, section 2): a prompt of N tokens is one batch of N (compute-bound once N passes the
// ridge), each new token a batch of one (memory-bound). Figures worked by hand:
//   H100 SXM: 989.4 TFLOP/s dense FP16, 3,350 GB/s (data/gpu-specs.csv); 7B FP16: 7e9 params, 14e9 bytes.
//   1,000 tokens: 2 · 7e9 · 1000 = 1.4e13 FLOPs; 1.4e13 / 989.4e12 = 14.150 ms; 14e9 / 3.35e12 = 4.179 ms.
//   100 tokens: 1.415 ms of compute < 4.179 ms of weights: memory-bound.
//   Ridge: 989.4e12 · 14e9 / (2 · 7e9 · 3.35e12) = 295.34 tokens.
//   Mixtral 8x7B FP16 (12.9e9 active, 46,702,792,704 total = 93.41 GB, every expert read by a long prompt):
//   1,000 tokens: 26.08 ms of compute < 27.88 ms of weights (memory-bound); ridge 989.4e12 · 93.41e9 /
//   (2 · 12.9e9 · 3.35e12) = 1,069.25 tokens.
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/prefill_model.hpp"

#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(PrefillModel, LongPromptIsComputeBound) {
  const PrefillEstimate e = prefill_estimate(PrefillInputs{}, 1000);
  EXPECT_DOUBLE_EQ(e.flops, 1.4e13);
  EXPECT_NEAR(e.compute_s, 14.150e-3, 1e-6);
  EXPECT_NEAR(e.memory_s, 4.179e-3, 1e-6);
  EXPECT_DOUBLE_EQ(e.ttft_s, e.compute_s);
  EXPECT_TRUE(e.compute_bound);
  EXPECT_NEAR(e.prompt_tokens_s, 70671.4, 0.1);
}

TEST(PrefillModel, ShortPromptIsStillMemoryBound) {
  const PrefillEstimate e = prefill_estimate(PrefillInputs{}, 100);
  EXPECT_NEAR(e.compute_s, 1.415e-3, 1e-6);
  EXPECT_DOUBLE_EQ(e.ttft_s, e.memory_s);
  EXPECT_FALSE(e.compute_bound);
  // A one-token prompt is a decode step: the weights' time, 1 / 239.29 tokens/s.
  const PrefillEstimate one = prefill_estimate(PrefillInputs{}, 1);
  EXPECT_NEAR(1 / one.ttft_s, decode_ceiling_tokens_per_s(3350e9, 14e9), 1e-9);
}

TEST(PrefillModel, RidgeIsTheBatchRidge) {
  EXPECT_NEAR(prefill_compute_bound_from(PrefillInputs{}), 295.34, 0.01);
  DecodeInputs d;  // the same card and model: batched decode turns compute-bound at the same size
  EXPECT_NEAR(prefill_compute_bound_from(PrefillInputs{}), compute_bound_batch(d), 1e-9);
  // Either side of it the bound flips.
  EXPECT_FALSE(prefill_estimate(PrefillInputs{}, 295).compute_bound);
  EXPECT_TRUE(prefill_estimate(PrefillInputs{}, 296).compute_bound);
}

TEST(PrefillModel, MixtureOfExpertsReadsEveryExpertForAPrompt) {
  PrefillInputs mixtral;
  mixtral.params = 12.9e9;
  mixtral.weight_bytes = 46'702'792'704.0 * 2;
  const PrefillEstimate e = prefill_estimate(mixtral, 1000);
  EXPECT_NEAR(e.compute_s, 26.08e-3, 0.01e-3);
  EXPECT_NEAR(e.memory_s, 27.88e-3, 0.01e-3);
  EXPECT_FALSE(e.compute_bound);
  EXPECT_NEAR(prefill_compute_bound_from(mixtral), 1069.25, 0.01);
}

TEST(PrefillModel, NothingWithoutARoof) {
  PrefillInputs none;
  none.peak_flops = 0;
  EXPECT_EQ(prefill_estimate(none, 1000).ttft_s, 0.0);
  EXPECT_EQ(prefill_compute_bound_from(none), 0.0);
}

// A real GEMM reaches a share of the datasheet peak, so the compute part of the prefill stretches by 1 / share. The
// share here is the published best-shape cuBLAS BF16 on an H100 SXM: 794.5 of 989 TFLOP/s = 80.33 %
// (stas00/ml-engineering, data/reference-results.md). Worked by hand:
//   1,000 tokens: 1.4e13 / (989.4e12 · 0.80334) = 17.614 ms (against 14.150 ms at the roof); still compute-bound.
//   Ridge: 295.34 · 0.80334 = 237.26 tokens: from there on the prompt is compute-bound.
//   250 tokens: 3.5e12 / (989.4e12 · 0.80334) = 4.404 ms > 4.179 ms of weights: compute-bound at the share, while
//   at the roof (3.537 ms) the weights' time was longer.
TEST(PrefillModel, ShareOfPeakStretchesTheComputeTime) {
  PrefillInputs in;
  in.gemm_share = 794.5 / 989.0;
  const PrefillEstimate e = prefill_estimate(in, 1000);
  EXPECT_NEAR(e.compute_s, 17.614e-3, 1e-6);
  EXPECT_DOUBLE_EQ(e.ttft_s, e.compute_s);
  EXPECT_NEAR(prefill_compute_bound_from(in), 237.26, 0.01);
  EXPECT_TRUE(prefill_estimate(in, 250).compute_bound);
  EXPECT_FALSE(prefill_estimate(PrefillInputs{}, 250).compute_bound);
  EXPECT_NEAR(prefill_estimate(in, 250).ttft_s, 4.403e-3, 1e-6);
  // A share above 1 is the roof; none at all is no estimate.
  in.gemm_share = 1.5;
  EXPECT_DOUBLE_EQ(prefill_estimate(in, 1000).compute_s, prefill_estimate(PrefillInputs{}, 1000).compute_s);
  in.gemm_share = 0;
  EXPECT_EQ(prefill_estimate(in, 1000).ttft_s, 0.0);
}

// The decode verdict is read from the per-user curve: it can never say "memory-bound" while each user's speed
// falls 4×, nor name a bend the samples' spread cannot support.
#include "pages/decode/model/decode_verdict.h"

#include <gtest/gtest.h>

using namespace gpulab::models;

namespace {
ChainStep step(double users, double median, double spread = 0.02) {
  return {users, median, median * (1 - spread), median * (1 + spread)};
}
}  // namespace

TEST(DecodeVerdict, FlatStepTimeIsMemoryBound) {
  const DecodeVerdict v = decode_verdict({step(1, 1.0), step(2, 1.02), step(4, 1.05), step(8, 1.1)});
  EXPECT_EQ(v.bound, DecodeBound::memory);
  EXPECT_NEAR(v.last_share, 1 / 1.1, 1e-9);
  EXPECT_NE(v.text.find("memory-bound up to 8 users"), std::string::npos) << v.text;
}

TEST(DecodeVerdict, PerUserSpeedFallingFourTimesIsNotMemoryBound) {
  // The case: step time 4× longer at 64 users than at 1.
  const DecodeVerdict v = decode_verdict({step(1, 1.0), step(2, 1.05), step(4, 1.1), step(8, 1.6), step(16, 2.2),
                                          step(64, 4.0)});
  EXPECT_EQ(v.bound, DecodeBound::compute);
  EXPECT_EQ(v.bend_users, 8);
  EXPECT_NEAR(v.last_share, 0.25, 1e-9);
  EXPECT_EQ(v.text.find("memory-bound"), std::string::npos) << v.text;
  EXPECT_NE(v.text.find("from about 8 users"), std::string::npos) << v.text;
}

TEST(DecodeVerdict, WideSpreadIsUnclear) {
  // Medians say 70 % at 8 users, but the samples span 0.9…1.6 s: it may not have fallen at all.
  const DecodeVerdict v = decode_verdict({step(1, 1.0, 0.1), {8, 1.43, 0.9, 1.6}});
  EXPECT_EQ(v.bound, DecodeBound::unclear);
  EXPECT_NE(v.text.find("measure again"), std::string::npos);
}

TEST(DecodeVerdict, NeedsBatchOne) {
  EXPECT_EQ(decode_verdict({step(2, 1.0), step(4, 1.0)}).bound, DecodeBound::unknown);
  EXPECT_EQ(decode_verdict({step(1, 1.0)}).bound, DecodeBound::unknown);
}

TEST(DecodeVerdict, ScaleNoteSaysWhatRan) {
  EXPECT_EQ(chain_scale_note(2, 32), "2 of 32 layers run, time scaled ×16");
  EXPECT_EQ(chain_scale_note(3, 32), "3 of 32 layers run, time scaled ×10.7");
  EXPECT_EQ(chain_scale_note(32, 32), "all 32 layers run");
  EXPECT_EQ(chain_scale_note(0, 32), "");
}

// Issue 36: the chain runs the weight products only, so its "memory-bound up to N users" leaves out attention over
// the KV cache. The note says what the cache would add, from the model: the 7B shape in FP16 (13.5 GB of weights in
// the chain's 32 layers), 4,096 tokens (2 GiB a user), 16 users: (13.5 + 16 · 2.147) / 13.5 = 3.55× the bytes, so
// each user would get 28 % of the speed drawn.
TEST(DecodeVerdict, AttentionLeftOutIsSaidWithWhatItWouldAdd) {
  const double weights = 13.5e9, cache = 2'147'483'648.0;
  EXPECT_NEAR(chain_attention_factor(weights, cache, 16), (13.5e9 + 16 * cache) / 13.5e9, 1e-12);
  const std::string note = chain_attention_note(weights, cache, 4096, 16);
  EXPECT_NE(note.find("Left out: attention over the KV cache"), std::string::npos) << note;
  EXPECT_NE(note.find("4096 tokens"), std::string::npos) << note;
  EXPECT_NE(note.find("2.15 GB"), std::string::npos) << note;
  EXPECT_NE(note.find("3.5x"), std::string::npos) << note;
  EXPECT_NE(note.find("28 %"), std::string::npos) << note;
  EXPECT_EQ(chain_attention_note(weights, 0, 0, 16), "");  // no context: nothing left out to speak of
  EXPECT_DOUBLE_EQ(chain_attention_factor(weights, 0, 16), 1.0);
}

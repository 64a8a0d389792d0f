// The memory bandwidth that stands for DRAM: the largest arrays measured, not the fastest (cache-sized) ones.
#include "runner/dram_bandwidth.h"

#include <gtest/gtest.h>

namespace {
StoredResult bandwidth(const char* kind, double bytes, double gbps, int source = -1) {
  StoredResult s;
  s.source = source;
  s.result.experiment = "bandwidth";
  s.result.backend = "cpu";
  s.result.variant = kind;
  s.result.params = {{"bytes", bytes}, {"threads", 0}};
  s.result.check.passed = true;
  s.result.stats.median_s = 0.01;
  s.result.stats.n = 3;
  s.result.gbps = gbps;
  return s;
}
}  // namespace

TEST(DramBandwidth, LargestArraysWinOverFasterCacheSizedOnes) {
  // The reference VM's recording: 1 MiB arrays at 148 GB/s (cache), 256 MiB at 26-35 GB/s (DRAM).
  QVector<StoredResult> all = {bandwidth("copy", 1 << 20, 147.8), bandwidth("triad", 1 << 20, 81.5),
                               bandwidth("copy", 256 << 20, 25.8), bandwidth("triad", 256 << 20, 34.8),
                               bandwidth("triad", 64 << 20, 35.8)};
  const auto any = [](const StoredResult&) { return true; };
  const StoredResult* best = dramBandwidthResult(all, any);
  ASSERT_NE(best, nullptr);
  EXPECT_DOUBLE_EQ(best->result.gbps, 34.8);  // 256 MiB triad: largest size, then the faster kind
  EXPECT_EQ(best->result.variant, "triad");
  // The filter is honoured, and nothing picked gives null.
  const StoredResult* copy = dramBandwidthResult(all, [](const StoredResult& s) { return s.result.variant == "copy"; });
  ASSERT_NE(copy, nullptr);
  EXPECT_DOUBLE_EQ(copy->result.gbps, 25.8);
  EXPECT_EQ(dramBandwidthResult(all, [](const StoredResult&) { return false; }), nullptr);
}

TEST(DramBandwidth, TransfersCountTheirBytes) {
  gpulab::Result small, big;
  small.experiment = big.experiment = gpulab::experiment_name::transfer;  // read through the typed transfer view
  small.variant = big.variant = "h2h";
  small.params = {{"bytes", 1e6}};
  small.gbps = 900;
  big.params = {{"bytes", 1e9}};
  big.gbps = 700;
  EXPECT_DOUBLE_EQ(streamedArrayBytes(big), 1e9);
  EXPECT_TRUE(betterDramBandwidth(big, &small));
  EXPECT_FALSE(betterDramBandwidth(small, &big));
  EXPECT_TRUE(betterDramBandwidth(small, nullptr));
}

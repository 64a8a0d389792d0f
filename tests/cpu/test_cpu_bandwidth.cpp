// Copy and triad: values checked, byte counts per the STREAM convention, plausible rates.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace gpulab;

TEST(CpuBandwidth, CopyAndTriadVerifyAndCountBytes) {
  auto backend = make_cpu_backend();
  for (int threads : {1, 0, 3}) {  // 3: more threads than cores still works
    for (const char* kind : {"copy", "triad"}) {
      BandwidthSpec spec;
      spec.kind = kind;
      spec.bytes_per_array = (1u << 20) + 8 * 13;  // not a multiple of the thread count
      spec.threads = threads;
      auto op = backend->make_bandwidth(spec);
      const Check c = op->verify();
      EXPECT_TRUE(c.passed) << kind << " threads=" << threads << ": " << c.message;
      const double elements = double(spec.bytes_per_array / 8);
      EXPECT_DOUBLE_EQ(op->bytes(), (std::string(kind) == "copy" ? 2 : 3) * elements * 8);
      EXPECT_GT(op->run_once(), 0);
      // The check stays valid after timed runs (the kernel is idempotent).
      EXPECT_TRUE(op->verify().passed);
    }
  }
}

TEST(CpuBandwidth, BadSpecsThrow) {
  auto backend = make_cpu_backend();
  BandwidthSpec spec;
  spec.kind = "scale";
  EXPECT_THROW(backend->make_bandwidth(spec), std::invalid_argument);
  spec.kind = "triad";
  spec.bytes_per_array = 16;
  EXPECT_THROW(backend->make_bandwidth(spec), std::invalid_argument);
  spec.bytes_per_array = std::size_t(1) << 50;  // a petabyte
  try {
    backend->make_bandwidth(spec);
    FAIL() << "a petabyte triad was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("available"), std::string::npos) << e.what();
  }
  spec.bytes_per_array = 1 << 20;
  spec.threads = -2;
  EXPECT_THROW(backend->make_bandwidth(spec), std::invalid_argument);
}

TEST(CpuBandwidth, RunBandwidthGivesPlausibleRate) {
  auto backend = make_cpu_backend();
  BandwidthSpec spec;
  spec.kind = "triad";
  spec.bytes_per_array = 32u << 20;
  RunContext ctx;
  ctx.policy.time_budget_s = 0.5;
  const Result r = run_bandwidth(*backend, spec, ctx);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.experiment, "bandwidth");
  EXPECT_EQ(r.variant, "triad");
  EXPECT_DOUBLE_EQ(r.bytes, 3.0 * (32u << 20));
  // Between 0.5 GB/s (something is badly wrong) and 2 TB/s (not memory any more).
  EXPECT_GT(r.gbps, 0.5);
  EXPECT_LT(r.gbps, 2000);
  EXPECT_GE(r.stats.n, 3);
}

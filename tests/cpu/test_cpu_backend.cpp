// The CPU backend as a whole: device info is sane, bad sizes throw, unsupported work says why, cancel stops.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

using namespace gpulab;

TEST(CpuBackend, DeviceInfoIsSane) {
  auto backend = make_cpu_backend();
  EXPECT_EQ(backend->kind(), "cpu");
  const DeviceInfo d = backend->device_info();
  EXPECT_EQ(d.kind, "cpu");
  EXPECT_FALSE(d.name.empty());
  EXPECT_GE(d.compute_units, 1);
  EXPECT_LE(d.compute_units, 4096);
  EXPECT_GE(d.threads, 1);
  EXPECT_GT(d.memory_total_bytes, 64e6);
  EXPECT_GT(d.memory_free_bytes, 0);
  EXPECT_LE(d.memory_free_bytes, d.memory_total_bytes);
  EXPECT_FALSE(d.simd.empty());
  // A measured FMA peak: at least 0.5 GFLOP/s per core, below 1 TFLOP/s per core.
  EXPECT_GT(d.peak_gflops_fp32, 0.5 * d.compute_units);
  EXPECT_LT(d.peak_gflops_fp32, 1000.0 * d.compute_units);
  EXPECT_GT(d.peak_gflops_fp64, 0.25 * d.compute_units);
  EXPECT_LT(d.peak_gflops_fp64, d.peak_gflops_fp32 * 2.0);  // FP64 has half the lanes (wide margin: shared machines)
  bool has_measured = false, has_model = false;
  for (const auto& [k, v] : d.details) {
    if (k.find("measured") != std::string::npos) has_measured = true;
    if (k.find("model") != std::string::npos) has_model = true;
  }
  EXPECT_TRUE(has_measured);
  EXPECT_TRUE(has_model);
  const MemoryInfo m = backend->memory_info();
  EXPECT_GT(m.total_bytes, 0);
  EXPECT_GT(m.free_bytes, 0);
  const Provenance p = backend->provenance();
  EXPECT_EQ(p.at("backend"), "cpu");
  EXPECT_FALSE(p.at("device").empty());
}

TEST(CpuBackend, VariantsListed) {
  auto backend = make_cpu_backend();
  const auto v = backend->gemm_variants();
  EXPECT_EQ(v, (std::vector<std::string>{"naive", "reordered", "blas"}));
}

TEST(CpuBackend, BadGemmSizesThrow) {
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = 0;
  EXPECT_THROW(backend->make_gemm(spec), std::invalid_argument);
  spec.m = 4;
  spec.k = -1;
  EXPECT_THROW(backend->make_gemm(spec), std::invalid_argument);
  spec.k = 4;
  spec.threads = -1;
  EXPECT_THROW(backend->make_gemm(spec), std::invalid_argument);
  spec.threads = 0;
  // Far beyond any RAM: refused with the size and the memory named, never attempted.
  spec.m = spec.n = spec.k = 1000000;
  spec.variant = "naive";
  try {
    backend->make_gemm(spec);
    FAIL() << "a 12 TB GEMM was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1000000"), std::string::npos) << what;
    EXPECT_NE(what.find("TB"), std::string::npos) << what;
    EXPECT_NE(what.find("available"), std::string::npos) << what;
  }
  RunContext ctx;
  GemmSpec zero;
  zero.n = 0;
  EXPECT_THROW(run_gemm(*backend, zero, ctx), std::invalid_argument);
}

TEST(CpuBackend, UnsupportedPrecisionsGiveReasons) {
  auto backend = make_cpu_backend();
  for (Precision p : all_precisions) {
    GemmSpec spec;
    spec.precision = p;
    const Support s = backend->supports(spec);
    if (p == Precision::fp32 || p == Precision::fp64) {
      EXPECT_TRUE(s.ok) << s.reason;
    } else {
      EXPECT_FALSE(s.ok) << to_string(p);
      EXPECT_GT(s.reason.size(), 20u) << to_string(p);
      EXPECT_THROW(backend->make_gemm(spec), std::invalid_argument);
    }
  }
  GemmSpec bf;
  bf.precision = Precision::bf16;
  EXPECT_NE(backend->supports(bf).reason.find("BF16"), std::string::npos);
  GemmSpec unknown;
  unknown.variant = "cublas";
  EXPECT_FALSE(backend->supports(unknown).ok);
}

TEST(CpuBackend, RunGemmReportsUnsupportedAsError) {
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.precision = Precision::fp16;
  spec.m = spec.n = spec.k = 32;
  RunContext ctx;
  int results = 0;
  ctx.on_result = [&](const Result&) { ++results; };
  const Result r = run_gemm(*backend, spec, ctx);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("FP16"), std::string::npos) << r.error;
  EXPECT_EQ(results, 1);
  EXPECT_EQ(r.stats.n, 0);
}

TEST(CpuBackend, TransferOnlyHostToHost) {
  auto backend = make_cpu_backend();
  for (const char* dir : {"h2d", "d2h", "d2d"}) {
    TransferSpec spec;
    spec.direction = dir;
    const Support s = backend->supports(spec);
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("PCIe"), std::string::npos) << s.reason;
    EXPECT_THROW(backend->make_transfer(spec), std::invalid_argument);
  }
  TransferSpec h2h;
  h2h.direction = "h2h";
  h2h.bytes = 4u << 20;
  ASSERT_TRUE(backend->supports(h2h).ok);
  auto op = backend->make_transfer(h2h);
  EXPECT_TRUE(op->verify().passed);
  EXPECT_GT(op->run_once(), 0);
  EXPECT_DOUBLE_EQ(op->bytes(), double(4u << 20));

  RunContext ctx;
  ctx.policy.time_budget_s = 0.2;
  TransferSpec pcie;
  pcie.direction = "h2d";
  const Result r = run_transfer(*backend, pcie, ctx);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.error.empty());
  const Result ok = run_transfer(*backend, h2h, ctx);
  EXPECT_TRUE(ok.ok()) << ok.error;
  EXPECT_GT(ok.gbps, 0.1);
}

TEST(CpuBackend, RunGemmFillsTheResult) {
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = 96;
  spec.n = 80;
  spec.k = 64;
  spec.variant = "blas";
  spec.threads = 1;
  RunContext ctx;
  ctx.policy.time_budget_s = 0.2;
  std::vector<double> fractions;
  ctx.on_progress = [&](const Progress& p) { fractions.push_back(p.fraction); };
  const Result r = run_gemm(*backend, spec, ctx);
  ASSERT_TRUE(r.ok()) << r.error << " / " << r.check.message;
  EXPECT_EQ(r.experiment, "gemm");
  EXPECT_EQ(r.backend, "cpu");
  EXPECT_EQ(r.variant, "blas");
  EXPECT_EQ(r.param("m"), 96);
  EXPECT_EQ(r.param("threads"), 1);
  EXPECT_DOUBLE_EQ(r.flops, 2.0 * 96 * 80 * 64);
  EXPECT_DOUBLE_EQ(r.bytes, (96.0 * 64 + 64 * 80 + 96 * 80) * 4);
  EXPECT_GE(r.stats.n, 3);
  EXPECT_EQ(r.samples_s.size(), std::size_t(r.stats.n));
  EXPECT_NEAR(r.gflops, r.flops / r.stats.median_s / 1e9, 1e-9);
  for (const char* key : {"date", "device", "build_type", "compiler", "policy_min_samples", "warmup"})
    EXPECT_TRUE(r.provenance.count(key)) << key;
  ASSERT_FALSE(fractions.empty());
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
  for (std::size_t i = 1; i < fractions.size(); ++i) EXPECT_GE(fractions[i], fractions[i - 1]);
}

TEST(CpuBackend, MeasureStopsOnCancel) {
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = spec.n = spec.k = 128;
  spec.variant = "naive";
  auto op = backend->make_gemm(spec);
  MeasurePolicy policy;
  policy.min_samples = 1000;  // would take far longer than the test allows without cancel
  policy.max_samples = 1000;
  policy.time_budget_s = 1000;
  std::stop_source stop;
  int samples = 0;
  const Measurement m = measure(*op, policy, stop.get_token(), [&](int i, double) {
    samples = i + 1;
    if (samples == 4) stop.request_stop();
  });
  EXPECT_TRUE(m.cancelled);
  EXPECT_EQ(m.samples_s.size(), 4u);
  EXPECT_TRUE(m.check.passed);

  // And through run_gemm, with the stop requested from another thread while it runs.
  std::stop_source stop2;
  RunContext ctx;
  ctx.policy = policy;
  ctx.stop = stop2.get_token();
  std::atomic<int> seen{0};
  ctx.on_progress = [&](const Progress&) { seen.fetch_add(1); };
  std::thread canceller([&] {
    while (seen.load() < 5) std::this_thread::yield();
    stop2.request_stop();
  });
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = run_gemm(*backend, spec, ctx);
  canceller.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
  EXPECT_LT(r.stats.n, 1000);
  EXPECT_GT(r.stats.n, 0);
  EXPECT_TRUE(r.provenance.count("cancelled"));
}

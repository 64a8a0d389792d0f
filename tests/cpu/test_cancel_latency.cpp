// Cancel that answers (issue 13): a cancel lands within half a second in every phase of a long CPU run — the check
// (the kernel's own loop and the FP64 reference), the preparation, BLAS products, streaming kernels — and what was
// finished is kept. The only timing assertions in the suite: the bound (0.5 s, median of 3 tries) is ten times what
// an idle machine needs (the loops look at the token every few ms), so only a machine too busy to run the test
// thread for half a second fails it; the median keeps one descheduled moment from failing it.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

using namespace gpulab;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr double k_bound_s = 0.5;

struct Try {
  double latency_s = 0;  // request_stop() to the run's return
  Result result;
};

// Runs `run` on a thread, asks it to stop `after` later, and times how long it takes to return.
template <typename Run>
Try cancel_after(Run run, std::chrono::milliseconds after) {
  std::stop_source stop;
  Try t;
  std::thread worker([&] {
    RunContext ctx;
    ctx.stop = stop.get_token();
    t.result = run(ctx);
  });
  std::this_thread::sleep_for(after);
  const auto asked = clock_type::now();
  stop.request_stop();
  worker.join();
  t.latency_s = std::chrono::duration<double>(clock_type::now() - asked).count();
  return t;
}

template <typename Run>
double median_latency(Run run, std::chrono::milliseconds after, std::vector<Result>* results = nullptr) {
  std::vector<double> l;
  for (int i = 0; i < 3; ++i) {
    Try t = cancel_after(run, after);
    l.push_back(t.latency_s);
    if (results) results->push_back(t.result);
  }
  std::sort(l.begin(), l.end());
  std::printf("cancel latencies: %.3f %.3f %.3f s (median %.3f s)\n", l[0], l[1], l[2], l[1]);
  return l[1];
}

}  // namespace

TEST(CancelLatency, NaiveGemm2048InItsCheck) {
  // The naive loop at 2048³ takes a minute or more; 0.6 s in it is inside the check (estimate probe ~0.1 s,
  // inputs ~0.05 s before it).
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = spec.n = spec.k = 2048;
  spec.variant = "naive";
  std::vector<Result> results;
  const double median = median_latency([&](const RunContext& ctx) { return run_gemm(*backend, spec, ctx); },
                                       std::chrono::milliseconds(600), &results);
  EXPECT_LT(median, k_bound_s) << "median of 3 cancels of a naive 2048³ run";
  for (const Result& r : results) {
    EXPECT_FALSE(r.error.empty());
    EXPECT_NE(r.error.find("cancelled"), std::string::npos) << r.error;
    EXPECT_TRUE(r.samples_s.empty());
    ASSERT_TRUE(r.provenance.count("cancelled"));
  }
}

TEST(CancelLatency, BlasGemm4096OnOneThread) {
  // One OpenBLAS call cannot be interrupted: the product is cut into bands of ~0.1 s with a look between them.
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = spec.n = spec.k = 4096;
  spec.variant = "blas";
  spec.threads = 1;
  if (!backend->supports(spec).ok) GTEST_SKIP() << backend->supports(spec).reason;
  const double median = median_latency([&](const RunContext& ctx) { return run_gemm(*backend, spec, ctx); },
                                       std::chrono::milliseconds(400));
  EXPECT_LT(median, k_bound_s);
}

TEST(CancelLatency, BlasGemm4096WhileItsInputsAreMade) {
  // 30 ms in, A, B and C (192 MiB) are still being made. Zeroed vectors used to cost 0.5-0.8 s of memset on a busy
  // VM before the first look at the token (CI failed on it); the arrays are now first touched by fills that look.
  auto backend = make_cpu_backend();
  GemmSpec spec;
  spec.m = spec.n = spec.k = 4096;
  spec.variant = "blas";
  spec.threads = 1;
  if (!backend->supports(spec).ok) GTEST_SKIP() << backend->supports(spec).reason;
  std::vector<Result> results;
  const double median = median_latency([&](const RunContext& ctx) { return run_gemm(*backend, spec, ctx); },
                                       std::chrono::milliseconds(30), &results);
  EXPECT_LT(median, k_bound_s);
  for (const Result& r : results) EXPECT_TRUE(r.samples_s.empty());
}

TEST(CancelLatency, TheFp64ReferenceStopsOnItsOwn) {
  // The sampled reference walks a column of B per cell: at k = 8192 that is long enough to matter, and it polls the
  // current token itself. A token already stopped: the check throws Cancelled instead of finishing.
  const long long m = 300, n = 300, k = 8192;
  std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
      c(static_cast<std::size_t>(m * n), 0.0f);
  fill_random(a.data(), a.size(), 1);
  fill_random(b.data(), b.size(), 2);
  std::stop_source stop;
  stop.request_stop();
  const StopScope scope(stop.get_token());
  EXPECT_THROW(check_gemm(a.data(), b.data(), c.data(), m, n, k, 1e-3, 1e-3), Cancelled);
}

TEST(CancelLatency, OutsideAScopeNothingStops) {
  EXPECT_FALSE(current_stop().stop_possible());
  EXPECT_NO_THROW(throw_if_cancelled());
  std::stop_source stop;
  stop.request_stop();
  {
    const StopScope scope(stop.get_token());
    EXPECT_THROW(throw_if_cancelled(), Cancelled);
  }
  EXPECT_NO_THROW(throw_if_cancelled());  // the scope's end restores the token before it
}

TEST(CancelLatency, TriadOverLargeArrays) {
  // 3 × 128 MiB: first touch, check and samples each stream the arrays in chunks with a look in between.
  // (Returning includes freeing the arrays: ~0.15 s on a busy machine; larger arrays would time the kernel's munmap.)
  auto backend = make_cpu_backend();
  BandwidthSpec spec;
  spec.kind = "triad";
  spec.bytes_per_array = std::size_t{128} << 20;
  const double median = median_latency([&](const RunContext& ctx) { return run_bandwidth(*backend, spec, ctx); },
                                       std::chrono::milliseconds(400));
  EXPECT_LT(median, k_bound_s);
}

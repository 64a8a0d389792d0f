// Host preparation on every core (parallel_chunks.hpp): the ranges cover each item once, a throw or a cancel in
// any range reaches the caller, and the parallel random fill writes exactly what the serial generator would, so
// the inputs a seed names (and the recordings that quote it) do not change.
#include "gpulab/harness.hpp"
#include "gpulab/parallel_chunks.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace gpulab;

TEST(ParallelChunks, SplitsBigWorkByThreadsAndKeepsSmallWorkWhole) {
  EXPECT_EQ(parallel_chunk_count(0, 64, 16), 1u);
  EXPECT_EQ(parallel_chunk_count(100, 64, 16), 1u);
  EXPECT_EQ(parallel_chunk_count(640, 64, 16), 10u);
  EXPECT_EQ(parallel_chunk_count(std::size_t{1} << 26, std::size_t{1} << 20, 16), 16u);
  EXPECT_EQ(parallel_chunk_count(std::size_t{1} << 26, std::size_t{1} << 20, 0), 1u);
}

TEST(ParallelChunks, CoversEveryItemOnceOnSeveralThreads) {
  const std::size_t n = 1000003;
  std::vector<std::atomic<int>> hits(n);
  std::mutex m;
  std::set<std::thread::id> threads;
  parallel_chunks(n, 1000, [&](std::size_t b, std::size_t e) {
    {
      const std::lock_guard lock(m);
      threads.insert(std::this_thread::get_id());
    }
    for (std::size_t i = b; i < e; ++i) ++hits[i];
  });
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  if (std::thread::hardware_concurrency() > 1) EXPECT_GT(threads.size(), 1u);
}

TEST(ParallelChunks, AThrowInAnyRangeReachesTheCaller) {
  EXPECT_THROW(parallel_chunks(1 << 20, 1024,
                               [](std::size_t b, std::size_t e) {
                                 if (b <= 900000 && 900000 < e) throw std::runtime_error("range failed");
                               }),
               std::runtime_error);
}

TEST(ParallelChunks, TheCallersCancelStopsEveryWorker) {
  std::stop_source stop;
  stop.request_stop();
  const StopScope scope(stop.get_token());
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_chunks(1 << 20, 1024,
                               [&](std::size_t, std::size_t) {
                                 throw_if_cancelled();
                                 ++ran;
                               }),
               Cancelled);
  EXPECT_EQ(ran.load(), 0);
}

// The generator as it was before it ran in parallel (splitmix64, one state advanced element by element).
std::vector<float> serial_fill(std::size_t n, std::uint64_t seed) {
  std::vector<float> out(n);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    out[i] = static_cast<float>((static_cast<double>(static_cast<std::uint32_t>(z >> 40)) + 0.5) * 0x1p-23 - 1.0);
  }
  return out;
}

TEST(ParallelChunks, TheParallelRandomFillWritesTheSerialValues) {
  const std::size_t n = (std::size_t{1} << 22) + 12345;  // several ranges, the last one ragged
  std::vector<float> got(n);
  fill_random(got.data(), n, 42);
  const std::vector<float> want = serial_fill(n, 42);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], want[i]) << "element " << i;
  std::vector<double> d(n);
  fill_random(d.data(), n, 7);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_TRUE(d[i] > -1.0 && d[i] < 1.0 && d[i] != 0.0);
}

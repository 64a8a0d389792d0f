// parallel_chunks: see gpulab/parallel_chunks.hpp for why host preparation runs on every core.
#include "gpulab/parallel_chunks.hpp"

#include "gpulab/harness.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulab {

std::size_t parallel_chunk_count(std::size_t count, std::size_t min_chunk, unsigned threads) {
  const std::size_t by_size = count / std::max<std::size_t>(1, min_chunk);
  return std::max<std::size_t>(1, std::min<std::size_t>(std::max(1u, threads), by_size));
}

void parallel_chunks(std::size_t count, std::size_t min_chunk,
                     const std::function<void(std::size_t begin, std::size_t end)>& body) {
  if (count == 0) return;
  const std::size_t chunks = parallel_chunk_count(count, min_chunk, std::thread::hardware_concurrency());
  if (chunks == 1) {
    body(0, count);
    return;
  }
  auto bounds = [&](std::size_t c) { return count * c / chunks; };
  const std::stop_token stop = current_stop();  // workers answer the caller's cancel
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto run = [&](std::size_t c) {
    try {
      const StopScope scope(stop);
      body(bounds(c), bounds(c + 1));
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> workers;
    workers.reserve(chunks - 1);
    for (std::size_t c = 1; c < chunks; ++c) workers.emplace_back(run, c);
    run(0);
  }  // jthreads join here
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace gpulab

#pragma once
// Host-side preparation split over every core. A GPU measurement at 8192³ generates, rounds and transposes
// hundreds of MB on the host and checks thousands of 8192-term dot products: on one core that takes longer than
// the GPU work it prepares, so a capped device check would spend its minutes on the host. Each chunk is a
// contiguous range, so results are identical to a serial loop whatever the number of threads.
#include <cstddef>
#include <functional>

namespace gpulab {

// How many chunks parallel_chunks splits `count` items into: one per hardware thread, none smaller than
// `min_chunk` items (so small work stays on the calling thread), at least 1.
std::size_t parallel_chunk_count(std::size_t count, std::size_t min_chunk, unsigned threads);

// Calls body(begin, end) on disjoint ranges covering [0, count), on up to hardware_concurrency() threads (the
// calling thread takes the first range). The caller's StopScope reaches every worker, so throw_if_cancelled()
// inside the body stops them all; the first exception any range throws is rethrown here after all have ended.
void parallel_chunks(std::size_t count, std::size_t min_chunk,
                     const std::function<void(std::size_t begin, std::size_t end)>& body);

}  // namespace gpulab

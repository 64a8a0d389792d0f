#pragma once
// Large host arrays that are not zeroed on creation. A std::vector of 4096² floats is value-initialised: 64 MiB of
// memset and page faults on one core, ~0.25 s on a busy VM, where no cancel can be seen. Here the first touch is the
// fill that follows (fill_random or fill_value), which runs on every core and looks at the stop token as it goes.
#include "gpulab/harness.hpp"
#include "gpulab/parallel_chunks.hpp"
#include "gpulab/platform.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>

namespace gpulab::cpu {

template <typename T>
class HostArray {
 public:
  explicit HostArray(std::size_t count) : m_data(std::make_unique_for_overwrite<T[]>(count)), m_size(count) {}
  // Large arrays go back to the OS in pieces (platform.hpp, release_pages_before_free): one long unmap would hold
  // up the GUI thread.
  ~HostArray() { platform::release_pages_before_free(m_data.get(), m_size * sizeof(T)); }
  HostArray(HostArray&&) noexcept = default;
  HostArray& operator=(HostArray&&) noexcept = default;
  T* data() { return m_data.get(); }
  const T* data() const { return m_data.get(); }
  std::size_t size() const { return m_size; }
  T& operator[](std::size_t i) { return m_data[i]; }
  const T& operator[](std::size_t i) const { return m_data[i]; }

 private:
  std::unique_ptr<T[]> m_data;
  std::size_t m_size;
};

// Sets every element to `value` on all cores, looking at the current stop token every 2^20 elements.
template <typename T>
void fill_value(HostArray<T>& array, T value) {
  constexpr std::size_t step = std::size_t{1} << 20;
  T* p = array.data();
  parallel_chunks(array.size(), step, [p, value](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i += step) {
      throw_if_cancelled();
      std::fill(p + i, p + std::min(end, i + step), value);
    }
  });
}

}  // namespace gpulab::cpu

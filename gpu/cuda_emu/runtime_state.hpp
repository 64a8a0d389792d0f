#pragma once
// The little state the emulated runtime keeps besides memory: the per-thread last error (as CUDA keeps it per
// host thread) and each kernel's shared-memory opt-in.
#include <cstddef>
#include <map>
#include <mutex>

namespace gpulab::emu {

class RuntimeState {
 public:
  void set_opt_in(const void* kernel, std::size_t bytes) {
    const std::lock_guard lock(m_mutex);
    m_opt_in[kernel] = bytes;
  }
  std::size_t opted_in_shared(const void* kernel) const {
    const std::lock_guard lock(m_mutex);
    const auto it = m_opt_in.find(kernel);
    return it == m_opt_in.end() ? 0 : it->second;
  }

 private:
  mutable std::mutex m_mutex;
  std::map<const void*, std::size_t> m_opt_in;
};

RuntimeState& state();

// The last error a runtime call on this thread failed with (0 = cudaSuccess); cudaGetLastError reads and clears it.
int& last_error();

}  // namespace gpulab::emu

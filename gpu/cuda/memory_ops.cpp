// Device memory held for the VRAM page's live bars: really allocated and written, freed when the holder goes.
#include "backend_internal.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

// ---- held memory ---------------------------------------------------------------------------------------------------

// Device memory held until destruction, in chunks of at most 4 GiB (one huge cudaMalloc can fail on a fragmented
// card where several smaller ones succeed), each one written so it is really in use.
class DeviceHeld final : public HeldMemory {
 public:
  DeviceHeld(int device, double bytes, MemoryInfo before) : m_before(before) {
    use_device(device);
    constexpr std::size_t kChunk = std::size_t{4} << 30;
    std::size_t left = static_cast<std::size_t>(bytes);
    while (left > 0) {
      const std::size_t n = std::min(left, kChunk);
      m_chunks.emplace_back(n);
      GPULAB_CUDA_CHECK(cudaMemset(m_chunks.back().get(), 0x5A, n));
      left -= n;
    }
    GPULAB_CUDA_CHECK(cudaDeviceSynchronize());
    m_bytes = static_cast<double>(static_cast<std::size_t>(bytes));
    std::size_t free_b = 0, total_b = 0;
    GPULAB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    m_after = {static_cast<double>(total_b), static_cast<double>(free_b)};
  }
  double bytes_held() const override { return m_bytes; }
  MemoryInfo before() const override { return m_before; }
  MemoryInfo after() const override { return m_after; }

 private:
  std::vector<DeviceBuffer> m_chunks;
  double m_bytes = 0;
  MemoryInfo m_before, m_after;
};

}  // namespace

std::unique_ptr<HeldMemory> make_device_held(int device, double bytes, MemoryInfo before) {
  return std::make_unique<DeviceHeld>(device, bytes, before);
}

std::unique_ptr<HeldMemory> make_device_held_past_budget(int device, double bytes, MemoryInfo before) {
  try {
    return std::make_unique<DeviceHeld>(device, bytes, before);
  } catch (const CudaError& e) {
    // cudaMalloc's refusal is the out-of-memory moment the teacher asked for, not a failure of the run. The chunks
    // this step had allocated were freed as the half-built holder unwound; the error is not sticky and was cleared.
    if (e.code() != static_cast<int>(cudaErrorMemoryAllocation)) throw;
    throw DeviceOutOfMemory(std::string("cudaErrorMemoryAllocation from cudaMalloc asking for ") +
                            std::to_string(static_cast<long long>(bytes)) + " bytes");
  }
}

}  // namespace gpulab::cuda

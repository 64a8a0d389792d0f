// Device-local memory held for the memory page (held_memory.hpp).
#include "held_memory.hpp"

#include "gpulab/units.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace gpulab::vk {
namespace {

class VkHeld final : public HeldMemory {
 public:
  VkHeld(Ctx ctx, std::shared_ptr<HoldLedger> ledger, double bytes, MemoryInfo before,
         const std::function<MemoryInfo()>& read_after)
      : m_ledger(std::move(ledger)), m_before(before) {
    const double chunk = hold_chunk_bytes(ctx.facts());
    double left = std::floor(bytes);
    try {
      while (left > 0) {
        const auto n = static_cast<std::size_t>(std::min(left, chunk));
        m_chunks.emplace_back(*ctx.device, n, Memory::device);
        left -= double(n);
      }
      // Touch every byte on the device: a driver may defer the real allocation to first use (lavapipe's pages are
      // not resident until written), and untouched memory would make the reading lag the bars.
      Stream stream(*ctx.device);
      stream.run([&](VkCommandBuffer cb) {
        for (const Buffer& b : m_chunks) vkCmdFillBuffer(cb, b.get(), 0, VK_WHOLE_SIZE, 0x5A5A5A5Au);
      });
    } catch (const VkError& e) {
      // The chunks made so far are freed as m_chunks goes with this half-built object.
      if (e.result() == VK_ERROR_OUT_OF_DEVICE_MEMORY || e.result() == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw DeviceOutOfMemory(std::string(result_name(e.result())) + " from the driver asking for " +
                                format_bytes(std::min(left, chunk)) + " more");
      throw;
    }
    m_bytes = std::floor(bytes);
    m_ledger->bytes += m_bytes;
    m_after = read_after();
  }
  ~VkHeld() override {
    m_chunks.clear();  // vkFreeMemory each (Buffer's owners), before the ledger says they are gone
    m_ledger->bytes -= m_bytes;
  }
  double bytes_held() const override { return m_bytes; }
  MemoryInfo before() const override { return m_before; }
  MemoryInfo after() const override { return m_after; }

 private:
  std::shared_ptr<HoldLedger> m_ledger;
  std::vector<Buffer> m_chunks;
  double m_bytes = 0;
  MemoryInfo m_before, m_after;
};

}  // namespace

double hold_chunk_bytes(const DeviceFacts& f) {
  double chunk = 256.0 * 1024 * 1024;
  if (f.props.max_memory_allocation_size > 0) chunk = std::min(chunk, f.props.max_memory_allocation_size);
  return chunk;
}

std::unique_ptr<HeldMemory> make_held_memory(Ctx ctx, std::shared_ptr<HoldLedger> ledger, double bytes,
                                             MemoryInfo before, std::function<MemoryInfo()> read_after) {
  if (!(bytes >= 1)) throw std::invalid_argument("Nothing to hold: the request must be at least one byte");
  return std::make_unique<VkHeld>(std::move(ctx), std::move(ledger), bytes, before, read_after);
}

}  // namespace gpulab::vk

// Host <-> device copies through a staging buffer, poisoning, and the size limits of one binding (backend_internal.hpp).
#include "backend_internal.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpulab::vk {

namespace {
// Staging goes in pieces of at most this much, through one buffer reused for every piece: a GB of weights never
// needs a GB of host-visible memory (nor one allocation past maxMemoryAllocationSize).
constexpr std::size_t kStagingPieceBytes = std::size_t{64} << 20;
}  // namespace

void upload(Ctx& ctx, Stream& stream, const Buffer& dst, const void* src, std::size_t bytes, std::size_t dst_offset) {
  if (bytes == 0) return;
  Buffer staging(*ctx.device, std::min(bytes, kStagingPieceBytes), Memory::upload);
  for (std::size_t done = 0; done < bytes; done += kStagingPieceBytes) {
    const std::size_t piece = std::min(kStagingPieceBytes, bytes - done);
    std::memcpy(staging.mapped(), static_cast<const char*>(src) + done, piece);
    stream.run([&](VkCommandBuffer cb) {
      const VkBufferCopy region{0, dst_offset + done, piece};
      vkCmdCopyBuffer(cb, staging.get(), dst.get(), 1, &region);
    });
  }
}

void download(Ctx& ctx, Stream& stream, const Buffer& src, void* dst, std::size_t bytes, std::size_t src_offset) {
  if (bytes == 0) return;
  Buffer staging(*ctx.device, std::min(bytes, kStagingPieceBytes), Memory::readback);
  for (std::size_t done = 0; done < bytes; done += kStagingPieceBytes) {
    const std::size_t piece = std::min(kStagingPieceBytes, bytes - done);
    stream.run([&](VkCommandBuffer cb) {
      const VkBufferCopy region{src_offset + done, 0, piece};
      vkCmdCopyBuffer(cb, src.get(), staging.get(), 1, &region);
    });
    std::memcpy(static_cast<char*>(dst) + done, staging.mapped(), piece);
  }
}

void poison(VkCommandBuffer cb, const Buffer& b) { vkCmdFillBuffer(cb, b.get(), 0, VK_WHOLE_SIZE, 0xFFFFFFFFu); }

void require_buffer_fits(const DeviceFacts& f, double bytes, const std::string& what) {
  const double range = f.max_storage_buffer_range;
  if (range > 0 && bytes > range)
    throw std::invalid_argument(what + " needs a " + number_text(bytes / (1 << 20), 4) +
                                " MiB buffer; this Vulkan device binds at most " + number_text(range / (1 << 20), 4) +
                                " MiB to one shader buffer (maxStorageBufferRange)");
  if (f.max_allocation_bytes > 0 && bytes > f.max_allocation_bytes)
    throw std::invalid_argument(what + " needs a " + number_text(bytes / (1 << 20), 4) +
                                " MiB buffer; this Vulkan device allocates at most " +
                                number_text(f.max_allocation_bytes / (1 << 20), 4) + " MiB at once");
}

}  // namespace gpulab::vk

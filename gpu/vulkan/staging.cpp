// Host <-> device copies through a staging buffer, poisoning, and the size limits of one binding (backend_internal.hpp).
#include "backend_internal.hpp"

#include <cstring>
#include <stdexcept>

namespace gpulab::vk {

void upload(Ctx& ctx, Stream& stream, const Buffer& dst, const void* src, std::size_t bytes, std::size_t dst_offset) {
  Buffer staging(*ctx.device, bytes, Memory::host);
  std::memcpy(staging.mapped(), src, bytes);
  stream.run([&](VkCommandBuffer cb) {
    const VkBufferCopy region{0, dst_offset, bytes};
    vkCmdCopyBuffer(cb, staging.get(), dst.get(), 1, &region);
  });
}

void download(Ctx& ctx, Stream& stream, const Buffer& src, void* dst, std::size_t bytes, std::size_t src_offset) {
  Buffer staging(*ctx.device, bytes, Memory::host);
  stream.run([&](VkCommandBuffer cb) {
    const VkBufferCopy region{src_offset, 0, bytes};
    vkCmdCopyBuffer(cb, src.get(), staging.get(), 1, &region);
  });
  std::memcpy(dst, staging.mapped(), bytes);
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

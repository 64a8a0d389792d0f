// Host <-> device and device-to-device copies with vkCmdCopyBuffer. Host memory the device can read is a mapped,
// host-visible staging buffer (Vulkan's counterpart of CUDA's pinned memory): "pinned" copies go straight between it
// and the device buffer and are timed with timestamps; "pageable" ones also pay the memcpy from ordinary memory
// into the staging buffer, so they are timed on the host's steady clock. On an integrated GPU both ends are the
// same RAM: the copy is a memory-to-memory copy, not a trip over a bus, and the device info says so.
#include "backend_internal.hpp"

#include "gpulab/byte_pattern.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::vk {
namespace {

class TransferOp final : public TimedOp {
 public:
  TransferOp(Ctx ctx, const TransferSpec& spec)
      : m_ctx(std::move(ctx)), m_dir(spec.direction), m_pinned(spec.pinned), m_bytes(spec.bytes),
        m_stream(*m_ctx.device) {
    if (m_dir == "d2d") {
      m_src = Buffer(*m_ctx.device, m_bytes, Memory::device);
      m_dst = Buffer(*m_ctx.device, m_bytes, Memory::device);
    } else {
      // Host memory of the kind that direction is fast with (device_choices.hpp): a device-to-host copy lands in
      // cached memory, so the host's reads of it (the pageable copy's memcpy, the check) are not uncached reads.
      m_staging = Buffer(*m_ctx.device, m_bytes, m_dir == "h2d" ? Memory::upload : Memory::readback);
      m_device_buf = Buffer(*m_ctx.device, m_bytes, Memory::device);
      if (!m_pinned) m_pageable.resize(m_bytes);
    }
    // The pattern is made on every core and compared the same way (byte_pattern.hpp): byte by byte on one
    // thread, a 1 GiB job spent seconds there, more than its timed copies.
    m_pattern.reset(new std::uint8_t[m_bytes]);
    fill_pattern_bytes(m_pattern.get(), m_bytes, 0x5EEDu);
    // The source holds the pattern; verify() checks the destination against it.
    if (m_dir == "h2d") {
      std::memcpy(m_pinned ? m_staging.mapped() : m_pageable.data(), m_pattern.get(), m_bytes);
    } else if (m_dir == "d2h") {
      upload(m_ctx, m_stream, m_device_buf, m_pattern.get(), m_bytes);
    } else {
      upload(m_ctx, m_stream, m_src, m_pattern.get(), m_bytes);
    }
  }

  Check verify() override {
    const std::unique_ptr<std::uint8_t[]> got(new std::uint8_t[m_bytes]);  // every byte is written below
    if (m_dir == "h2d") {
      m_stream.run([&](VkCommandBuffer cb) { poison(cb, m_device_buf); });
      run_once();
      download(m_ctx, m_stream, m_device_buf, got.get(), m_bytes);
    } else if (m_dir == "d2h") {
      std::memset(m_staging.mapped(), 0xFF, m_bytes);
      if (!m_pinned) std::memset(m_pageable.data(), 0xFF, m_bytes);
      run_once();
      std::memcpy(got.get(), m_pinned ? m_staging.mapped() : m_pageable.data(), m_bytes);
    } else {
      m_stream.run([&](VkCommandBuffer cb) { poison(cb, m_dst); });
      run_once();
      download(m_ctx, m_stream, m_dst, got.get(), m_bytes);
    }
    return compare_pattern_bytes(got.get(), m_pattern.get(), m_bytes, m_dir + " copy");
  }

  double run_once() override {
    const VkBufferCopy region{0, 0, m_bytes};
    if (m_dir == "d2d")
      return m_stream.run([&](VkCommandBuffer cb) {
        m_stream.time_begin(cb);
        vkCmdCopyBuffer(cb, m_src.get(), m_dst.get(), 1, &region);
        m_stream.time_end(cb);
      });
    const bool h2d = m_dir == "h2d";
    const VkBuffer from = h2d ? m_staging.get() : m_device_buf.get();
    const VkBuffer to = h2d ? m_device_buf.get() : m_staging.get();
    if (m_pinned)
      return m_stream.run([&](VkCommandBuffer cb) {
        m_stream.time_begin(cb);
        vkCmdCopyBuffer(cb, from, to, 1, &region);
        m_stream.time_end(cb);
      });
    // Pageable: the memcpy into (or out of) the staging buffer is part of the transfer, so the host clock times it.
    const auto t0 = std::chrono::steady_clock::now();
    if (h2d) std::memcpy(m_staging.mapped(), m_pageable.data(), m_bytes);
    m_stream.run([&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, from, to, 1, &region); });
    if (!h2d) std::memcpy(m_pageable.data(), m_staging.mapped(), m_bytes);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  double flops() const override { return 0; }
  double bytes() const override { return static_cast<double>(m_bytes) * (m_dir == "d2d" ? 2.0 : 1.0); }

 private:
  Ctx m_ctx;
  std::string m_dir;
  bool m_pinned;
  std::size_t m_bytes;
  Stream m_stream;
  Buffer m_staging, m_device_buf, m_src, m_dst;
  std::vector<std::uint8_t> m_pageable;
  std::unique_ptr<std::uint8_t[]> m_pattern;
};

}  // namespace

std::unique_ptr<TimedOp> make_transfer_op(Ctx ctx, const TransferSpec& spec) {
  if (spec.bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
  return std::make_unique<TransferOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk

// Streaming bandwidth on a Vulkan device: the copy (y = x) and triad (x = y + s·z) shaders, bytes = read + written,
// every element checked exactly against values the host recomputes.
//
// Vulkan does not report cache sizes, so arrays are at least 256 MiB (more than the largest GPU last-level caches,
// AMD's 128 MiB Infinity Cache included) unless one shader buffer may not be that large (maxStorageBufferRange:
// 128 MiB on lavapipe); then they are as large as a binding allows, and provenance says so.
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

namespace gpulab::vk {
namespace {

// A pattern the check recomputes per element: small integers over 8, exact in FP32 through an FMA.
float pattern_value(std::size_t i, std::uint32_t salt) {
  std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u ^ salt;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return static_cast<float>(static_cast<int>(h % 2001u) - 1000) / 8.0f;
}

constexpr std::size_t kMinArrayBytes = std::size_t{256} << 20;

std::size_t array_bytes_for(const DeviceFacts& f, std::size_t asked) {
  std::size_t bytes = std::max(asked, kMinArrayBytes);
  if (f.max_storage_buffer_range > 0) bytes = std::min<std::size_t>(bytes, f.max_storage_buffer_range);
  if (f.max_allocation_bytes > 0) bytes = std::min<std::size_t>(bytes, static_cast<std::size_t>(f.max_allocation_bytes));
  return bytes;
}

class BandwidthOp final : public TimedOp {
 public:
  static constexpr float kScalar = 3.0f;
  static constexpr std::uint32_t kSaltA = 0xA11CEu, kSaltB = 0xB0Bu, kSaltC = 0xC0FFEEu;

  BandwidthOp(Ctx ctx, const BandwidthSpec& spec)
      : m_ctx(std::move(ctx)), m_triad(spec.kind == "triad"), m_stream(*m_ctx.device) {
    const DeviceFacts& f = m_ctx.facts();
    const std::size_t bytes = array_bytes_for(f, spec.bytes_per_array);
    m_count = bytes / 16 * 4;  // whole vec4s
    if (m_count == 0) throw std::invalid_argument("the bandwidth arrays must hold at least 16 bytes");
    if (m_count > 0xFFFFFFFFu) throw std::invalid_argument("the bandwidth arrays hold at most 2^32 floats here");
    m_fill_groups = static_cast<std::uint32_t>(std::min<std::size_t>((m_count + 255) / 256, 65535));
    const std::size_t array_bytes = m_count * sizeof(float);
    m_x = Buffer(*m_ctx.device, array_bytes, Memory::device);
    m_y = Buffer(*m_ctx.device, array_bytes, Memory::device);
    if (m_triad) m_z = Buffer(*m_ctx.device, array_bytes, Memory::device);
    // The inputs are made on the device by the same hash the check recomputes here.
    Program filler(*m_ctx.device, spirv("fill_pattern"), 1, 16, 3);
    m_stream.run([&](VkCommandBuffer cb) {
      if (m_triad) {
        fill(cb, filler, m_y, kSaltB);
        fill(cb, filler, m_z, kSaltC);
      } else {
        fill(cb, filler, m_x, kSaltA);
      }
    });
    if (m_triad) {
      m_program = std::make_unique<Program>(*m_ctx.device, spirv("triad"), 3, 12, 1);
      m_set = m_program->bind({&m_x, &m_y, &m_z});
    } else {
      m_program = std::make_unique<Program>(*m_ctx.device, spirv("copy"), 2, 8, 1);
      m_set = m_program->bind({&m_x, &m_y});
    }
    const auto count4 = static_cast<std::uint32_t>(m_count / 4);
    m_groups = std::min<std::uint32_t>((count4 + 255) / 256, 65535);
    m_push = {count4, m_groups * 256, kScalar};
  }

  Check verify() override {
    const Buffer& out = m_triad ? m_x : m_y;
    m_stream.run([&](VkCommandBuffer cb) {
      poison(cb, out);
      Stream::barrier(cb);
      dispatch(cb);
    });
    const std::unique_ptr<float[]> host(new float[m_count]);  // the download writes every element
    download(m_ctx, m_stream, out, host.get(), m_count * sizeof(float));
    return check_stream_output(host.get(), m_count, [this](std::size_t i) {
      return m_triad ? std::fmaf(kScalar, pattern_value(i, kSaltC), pattern_value(i, kSaltB)) : pattern_value(i, kSaltA);
    }, m_triad ? "triad" : "copy");
  }

  double run_once() override {
    return m_stream.run([&](VkCommandBuffer cb) {
      m_stream.time_begin(cb);
      dispatch(cb);
      m_stream.time_end(cb);
    });
  }

  double flops() const override { return m_triad ? 2.0 * static_cast<double>(m_count) : 0.0; }
  double bytes() const override { return static_cast<double>(m_count) * sizeof(float) * (m_triad ? 3.0 : 2.0); }

 private:
  struct Push {
    std::uint32_t count4, stride;
    float s;
  };
  void dispatch(VkCommandBuffer cb) { Stream::dispatch(cb, *m_program, m_set, &m_push, m_groups); }
  void fill(VkCommandBuffer cb, Program& filler, const Buffer& b, std::uint32_t salt) {
    const FillPush push{static_cast<std::uint32_t>(m_count), m_fill_groups * 256, salt, 0};
    Stream::dispatch(cb, filler, filler.bind({&b}), &push, m_fill_groups);
  }
  struct FillPush {
    std::uint32_t count, stride, salt, first;
  };

  Ctx m_ctx;
  bool m_triad;
  Stream m_stream;
  std::size_t m_count = 0;  // floats per array
  Buffer m_x, m_y, m_z;
  std::unique_ptr<Program> m_program;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  std::uint32_t m_groups = 1;
  std::uint32_t m_fill_groups = 1;
  Push m_push{};
};

}  // namespace

std::size_t bandwidth_array_floor(const DeviceFacts& f) { return array_bytes_for(f, 0); }
std::size_t bandwidth_array_ceiling(const DeviceFacts& f) { return array_bytes_for(f, ~std::size_t{0}); }

std::unique_ptr<TimedOp> make_bandwidth_op(Ctx ctx, const BandwidthSpec& spec) {
  if (spec.kind != "copy" && spec.kind != "triad")
    throw std::invalid_argument("bandwidth kind must be \"copy\" or \"triad\" (got \"" + spec.kind + "\")");
  return std::make_unique<BandwidthOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk

// Host-to-host memcpy: the only "transfer" a CPU-only machine has. It is the baseline the PCIe page compares
// against (a GPU's host<->device copy crosses a bus this one never sees).
#include "cpu_internal.hpp"
#include "host_array.hpp"
#include "gpulab/parallel_chunks.hpp"
#include "gpulab/units.hpp"

#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace gpulab::cpu {
namespace {

constexpr std::size_t kMinChunk = std::size_t{1} << 22;  // 4 MiB: smaller copies are prepared on one core

class HostCopyOp final : public TimedOp {
 public:
  explicit HostCopyOp(std::size_t bytes) : m_bytes(bytes), m_src(bytes), m_dst(bytes) {
    // A non-repeating pattern, so a copy that moved the wrong block cannot match by accident. Written on every
    // core: byte by byte, 1 GiB took seconds on one, longer than the copies it prepares are timed for.
    unsigned char* src = m_src.data();
    unsigned char* dst = m_dst.data();
    parallel_chunks(m_bytes, kMinChunk, [src, dst](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) src[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
      std::memset(dst + b, 0xA5, e - b);  // first touch: page faults are not part of a timed copy
    });
  }

  Check verify() override {
    std::memset(m_dst.data(), 0xA5, m_bytes);
    std::memcpy(m_dst.data(), m_src.data(), m_bytes);
    Check c;
    c.checked = static_cast<long long>(m_bytes);
    c.passed = true;
    if (std::memcmp(m_dst.data(), m_src.data(), m_bytes) == 0) return c;  // vectorised; the loop below names the byte
    for (std::size_t i = 0; i < m_bytes; ++i) {
      if (m_dst[i] != m_src[i]) {
        c.passed = false;
        c.first_bad_index = static_cast<long long>(i);
        c.message = "Copied bytes differ from the source, first at byte " + format_count(static_cast<long long>(i));
        break;
      }
    }
    return c;
  }

  double run_once() override {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(m_dst.data(), m_src.data(), m_bytes);
    const auto t1 = std::chrono::steady_clock::now();
    m_sink = m_dst[m_bytes / 2];
    return std::chrono::duration<double>(t1 - t0).count();
  }

  double flops() const override { return 0; }
  // Bytes moved, each counted once, as bandwidthTest counts a host<->device copy; read + write traffic is twice this.
  double bytes() const override { return static_cast<double>(m_bytes); }

 private:
  std::size_t m_bytes;
  // Up to 1 GiB each: HostArray hands them back in pieces, so the GUI thread is not held up by their unmap.
  HostArray<unsigned char> m_src, m_dst;
  volatile unsigned char m_sink = 0;
};

}  // namespace

std::unique_ptr<TimedOp> make_h2h_op(const TransferSpec& spec) {
  if (spec.direction != "h2h")
    throw std::invalid_argument("The CPU backend copies host to host (h2h) only, not \"" + spec.direction + "\"");
  if (spec.bytes < 1) throw std::invalid_argument("A transfer must move at least 1 byte");
  require_fits_in_memory(2.0 * static_cast<double>(spec.bytes),
                         "Host copy of " + format_bytes(static_cast<double>(spec.bytes)) + " (source and destination)");
  return std::make_unique<HostCopyOp>(spec.bytes);
}

}  // namespace gpulab::cpu

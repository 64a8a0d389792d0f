// Streaming kernels on the GPU: the copy/triad bandwidth ops (memory roof) and the launch-overhead chain (the GPU's
// serial part for the Amdahl page). Both verify every element exactly against values the host recomputes.
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"

#include "kernels/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

// ---- streaming bandwidth -------------------------------------------------------------------------------------------

class BandwidthOp final : public TimedOp {
 public:
  static constexpr float kScalar = 3.0f;
  static constexpr std::uint32_t kSaltA = 0xA11CEu, kSaltB = 0xB0Bu, kSaltC = 0xC0FFEEu;

  BandwidthOp(DeviceCtx ctx, const BandwidthSpec& spec) : m_ctx(std::move(ctx)), m_triad(spec.kind == "triad") {
    use_device(m_ctx.device);
    // Arrays smaller than 4× the L2 would partly live in the cache (writes especially, which the L2 absorbs) and
    // "measure" more than the memory can do; such requests are raised to 4× L2 and bytes() reports what ran.
    const std::size_t floor_bytes = 4 * std::max<std::size_t>(m_ctx.l2_bytes, std::size_t{16} << 20);
    std::size_t bytes = std::max(spec.bytes_per_array, floor_bytes);
    m_count = (bytes / sizeof(float) + 3) / 4 * 4;
    const int arrays = m_triad ? 3 : 2;
    require_host_fits(static_cast<double>(m_count) * sizeof(float), "The " + spec.kind + " kernel's check");
    require_fits(m_ctx, static_cast<double>(arrays) * m_count * sizeof(float), "The " + spec.kind + " kernel");
    m_x = DeviceBuffer(m_count * sizeof(float));
    m_y = DeviceBuffer(m_count * sizeof(float));
    if (m_triad) m_z = DeviceBuffer(m_count * sizeof(float));
    // copy: y = x. triad: x = y + s·z. Inputs are hash patterns the check can recompute per element.
    if (m_triad) {
      kernels::fill_pattern(m_y.as<float>(), m_count, kSaltB, m_ctx.sms, m_stream.get());
      kernels::fill_pattern(m_z.as<float>(), m_count, kSaltC, m_ctx.sms, m_stream.get());
    } else {
      kernels::fill_pattern(m_x.as<float>(), m_count, kSaltA, m_ctx.sms, m_stream.get());
    }
    m_stream.synchronize();
  }

  Check verify() override {
    use_device(m_ctx.device);
    float* out = m_triad ? m_x.as<float>() : m_y.as<float>();
    GPULAB_CUDA_CHECK(cudaMemsetAsync(out, 0xFF, m_count * sizeof(float), m_stream.get()));
    enqueue();
    m_stream.synchronize();
    // Uninitialised (the download writes every element): a zeroed 1 GiB vector was a serial pass of its own.
    const std::unique_ptr<float[]> host(new float[m_count]);
    download(m_stream, host.get(), out, m_count * sizeof(float));
    // The device computes the triad as one fused multiply-add (__fmaf_rn); std::fmaf rounds identically, so
    // every element must match exactly. The check runs on every core (check_stream_output).
    return check_stream_output(host.get(), m_count, [this](std::size_t i) {
      return m_triad ? std::fmaf(kScalar, kernels::pattern_value(i, kSaltC), kernels::pattern_value(i, kSaltB)) : kernels::pattern_value(i, kSaltA);
    }, m_triad ? "triad" : "copy");
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_ctx.flush->flush(m_stream.get());
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return m_triad ? 2.0 * static_cast<double>(m_count) : 0.0; }
  double bytes() const override { return (m_triad ? 3.0 : 2.0) * static_cast<double>(m_count) * sizeof(float); }

 private:
  void enqueue() {
    if (m_triad)
      kernels::stream_triad(m_x.as<float>(), m_y.as<const float>(), m_z.as<const float>(), kScalar, m_count, m_ctx.sms,
                            m_stream.get());
    else
      kernels::stream_copy(m_x.as<const float>(), m_y.as<float>(), m_count, m_ctx.sms, m_stream.get());
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  bool m_triad;
  std::size_t m_count = 0;  // floats per array
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_x, m_y, m_z;
};

// ---- launch overhead -----------------------------------------------------------------------------------------------

// `kernels` tiny kernels back to back on one stream, timed as one region: with so little work each, the time is
// the launch cost — the GPU's serial part for the Amdahl page.
class LaunchOverheadOp final : public TimedOp {
 public:
  LaunchOverheadOp(DeviceCtx ctx, const LaunchOverheadSpec& spec)
      : m_ctx(std::move(ctx)), m_kernels(spec.kernels), m_count(spec.elements),
        m_buf(checked_bytes(m_ctx, spec.elements * sizeof(float))) {}

  Check verify() override {
    use_device(m_ctx.device);
    GPULAB_CUDA_CHECK(cudaMemsetAsync(m_buf.get(), 0, m_buf.bytes(), m_stream.get()));
    launch_all();
    m_stream.synchronize();
    std::vector<float> host(m_count);
    download(m_stream, host.data(), m_buf.get(), m_buf.bytes());
    // Every kernel added exactly 1 to every element (exact in FP32 up to 2^24 kernels): anything else means a
    // launch was lost or ran on the wrong data.
    const auto want = static_cast<float>(m_kernels);
    Check c;
    c.checked = static_cast<long long>(m_count);
    for (std::size_t i = 0; i < m_count; ++i) {
      if (host[i] != want) {
        if (c.first_bad_index < 0) c.first_bad_index = static_cast<long long>(i);
        const double err = std::isfinite(host[i]) ? std::fabs(host[i] - want) : INFINITY;
        c.max_abs_err = std::max(c.max_abs_err, err);
        c.max_rel_err = std::max(c.max_rel_err, err / want);
      }
    }
    c.passed = c.first_bad_index < 0;
    if (!c.passed)
      c.message = "after " + std::to_string(m_kernels) + " kernels element " + std::to_string(c.first_bad_index) +
                  " holds " + number_text(host[static_cast<std::size_t>(c.first_bad_index)]) + " instead of " +
                  std::to_string(m_kernels);
    return c;
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_timer.start(m_stream.get());
    launch_all();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return static_cast<double>(m_kernels) * static_cast<double>(m_count); }
  double bytes() const override { return 8.0 * static_cast<double>(m_kernels) * static_cast<double>(m_count); }

 private:
  // The buffer is read back whole in verify(): refuse, with the numbers, a size that fits neither there nor here.
  static std::size_t checked_bytes(const DeviceCtx& ctx, std::size_t bytes) {
    require_host_fits(static_cast<double>(bytes), "The launch-overhead check");
    require_fits(ctx, static_cast<double>(bytes), "The launch-overhead buffer");
    return bytes;
  }

  void launch_all() {
    for (int i = 0; i < m_kernels; ++i) kernels::add_one(m_buf.as<float>(), m_count, m_stream.get());
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  int m_kernels;
  std::size_t m_count;
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_buf;
};

}  // namespace

std::unique_ptr<TimedOp> make_bandwidth_op(DeviceCtx ctx, const BandwidthSpec& spec) {
  return std::make_unique<BandwidthOp>(std::move(ctx), spec);
}

std::unique_ptr<TimedOp> make_launch_overhead_op(DeviceCtx ctx, const LaunchOverheadSpec& spec) {
  return std::make_unique<LaunchOverheadOp>(std::move(ctx), spec);
}

}  // namespace gpulab::cuda

// Copies the PCIe and many-GPU pages time: host->device and device->host (pinned or pageable), device-to-device,
// and GPU-to-GPU (peer). Each is verified byte for byte against a copy of the source pattern kept in ordinary
// (pageable) memory: only the host end of a pinned transfer is pinned, since page-locking a reference for every job
// (up to 1 GiB, about a quarter second each way) cost the transfer suite seconds and measured nothing.
#include "backend_internal.hpp"

#include "gpulab/byte_pattern.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

// ---- transfers -----------------------------------------------------------------------------------------------------

// A host buffer that is either page-locked (cudaMallocHost) or ordinary pageable memory.
class HostBuffer {
 public:
  HostBuffer(std::size_t bytes, bool pinned) : m_pinned(pinned) {
    if (pinned)
      m_pinned_buf = PinnedBuffer(bytes);
    else
      m_pageable.reset(new std::uint8_t[bytes]);
  }
  std::uint8_t* data() { return m_pinned ? m_pinned_buf.as<std::uint8_t>() : m_pageable.get(); }

 private:
  bool m_pinned;
  PinnedBuffer m_pinned_buf;
  std::unique_ptr<std::uint8_t[]> m_pageable;
};

class TransferOp final : public TimedOp {
 public:
  TransferOp(DeviceCtx ctx, const TransferSpec& spec)
      : m_ctx(std::move(ctx)), m_dir(spec.direction), m_bytes(host_checked(spec)), m_pinned(spec.pinned),
        m_pattern(spec.bytes, false) {
    use_device(m_ctx.device);
    if (m_bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
    const double device_need = static_cast<double>(m_bytes) * (m_dir == "d2d" ? 2 : 1);
    require_fits(m_ctx, device_need, "A " + m_dir + " transfer of " + bytes_text(static_cast<double>(m_bytes)));
    fill_pattern_bytes(m_pattern.data(), m_bytes, 0x7E57);
    m_dev_a = DeviceBuffer(m_bytes);
    if (m_dir == "h2d") {
      m_host = std::make_unique<HostBuffer>(m_bytes, m_pinned);
      // The same pattern, made in place on every core (it also commits every pageable page before timing).
      fill_pattern_bytes(m_host->data(), m_bytes, 0x7E57);
    } else if (m_dir == "d2h") {
      m_host = std::make_unique<HostBuffer>(m_bytes, m_pinned);
      std::memset(m_host->data(), 0, m_bytes);
      upload(m_stream, m_dev_a.get(), m_pattern.data(), m_bytes);
    } else {  // d2d
      m_dev_b = DeviceBuffer(m_bytes);
      upload(m_stream, m_dev_a.get(), m_pattern.data(), m_bytes);
    }
  }

  Check verify() override {
    use_device(m_ctx.device);
    // Poison the destination, copy, then compare it byte for byte with the source pattern.
    if (m_dir == "d2h")
      std::memset(m_host->data(), 0xFF, m_bytes);
    else
      GPULAB_CUDA_CHECK(cudaMemsetAsync(destination(), 0xFF, m_bytes, m_stream.get()));
    enqueue();
    m_stream.synchronize();
    if (m_dir == "d2h") return compare_pattern_bytes(m_host->data(), m_pattern.data(), m_bytes, "d2h");
    // Uninitialised: the download writes every byte (a zeroed vector cost a serial pass over up to 1 GiB).
    const std::unique_ptr<std::uint8_t[]> back(new std::uint8_t[m_bytes]);
    download(m_stream, back.get(), destination(), m_bytes);
    return compare_pattern_bytes(back.get(), m_pattern.data(), m_bytes, m_dir);
  }

  double run_once() override {
    use_device(m_ctx.device);
    if (m_dir == "d2d") m_ctx.flush->flush(m_stream.get());  // only the device-side copy could hit in L2
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return 0; }
  // Host↔device: bytes moved over the link. Device-to-device: bytes read + written, like the bandwidth kernels.
  double bytes() const override { return static_cast<double>(m_bytes) * (m_dir == "d2d" ? 2.0 : 1.0); }

 private:
  // Host memory the op holds: the pinned source pattern, the host end of h2d/d2h, and the copy read back in
  // verify() for h2d/d2d. Checked before the first of them is allocated.
  static std::size_t host_checked(const TransferSpec& spec) {
    const bool host_end = spec.direction == "h2d" || spec.direction == "d2h";
    const bool read_back = spec.direction != "d2h";
    const double need = static_cast<double>(spec.bytes) * (1 + (host_end ? 1 : 0) + (read_back ? 1 : 0));
    require_host_fits(need, "A " + spec.direction + " transfer of " + bytes_text(static_cast<double>(spec.bytes)));
    return spec.bytes;
  }

  void* destination() { return m_dir == "h2d" ? m_dev_a.get() : (m_dir == "d2d" ? m_dev_b.get() : m_host->data()); }
  void enqueue() {
    const cudaStream_t s = m_stream.get();
    if (m_dir == "h2d")
      GPULAB_CUDA_CHECK(cudaMemcpyAsync(m_dev_a.get(), m_host->data(), m_bytes, cudaMemcpyHostToDevice, s));
    else if (m_dir == "d2h")
      GPULAB_CUDA_CHECK(cudaMemcpyAsync(m_host->data(), m_dev_a.get(), m_bytes, cudaMemcpyDeviceToHost, s));
    else
      GPULAB_CUDA_CHECK(cudaMemcpyAsync(m_dev_b.get(), m_dev_a.get(), m_bytes, cudaMemcpyDeviceToDevice, s));
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  std::string m_dir;
  std::size_t m_bytes;
  bool m_pinned;
  HostBuffer m_pattern;  // pageable: the reference copy of what the source holds
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_dev_a, m_dev_b;
  std::unique_ptr<HostBuffer> m_host;
};

// ---- GPU to GPU ----------------------------------------------------------------------------------------------------

// A copy from this GPU's memory into a second GPU's (cudaMemcpyPeerAsync), timed with events on the source's
// stream. With peer access enabled the copy goes straight over NVLink or PCIe; without, the driver stages it
// through host memory — the backend's provenance says which.
class PeerCopyOp final : public TimedOp {
 public:
  PeerCopyOp(DeviceCtx ctx, int peer, const TransferSpec& spec)
      : m_ctx(std::move(ctx)), m_peer(peer), m_bytes(host_checked(spec)), m_pattern(spec.bytes, false) {
    if (m_bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
    fill_pattern_bytes(m_pattern.data(), m_bytes, 0x9EE2);
    // The destination lives on the peer: check its free memory and allocate it with the peer current.
    use_device(m_peer);
    require_fits(m_ctx, static_cast<double>(m_bytes), "A GPU-to-GPU copy of " + bytes_text(double(m_bytes)) +
                                                           " (on GPU " + std::to_string(m_peer) + ")");
    m_dst = DeviceBuffer(m_bytes);
    use_device(m_ctx.device);
    require_fits(m_ctx, static_cast<double>(m_bytes), "A GPU-to-GPU copy of " + bytes_text(double(m_bytes)));
    m_src = DeviceBuffer(m_bytes);
    upload(m_stream, m_src.get(), m_pattern.data(), m_bytes);
  }

  // The destination is freed with its own device current, then the source's device is made current again.
  ~PeerCopyOp() override {
    GPULAB_CUDA_CHECK_NOTHROW(cudaSetDevice(m_peer));
    m_dst.reset();
    GPULAB_CUDA_CHECK_NOTHROW(cudaSetDevice(m_ctx.device));
  }
  PeerCopyOp(const PeerCopyOp&) = delete;
  PeerCopyOp& operator=(const PeerCopyOp&) = delete;

  Check verify() override {
    use_device(m_peer);
    GPULAB_CUDA_CHECK(cudaMemset(m_dst.get(), 0xFF, m_bytes));  // poison: a copy that did not land cannot pass
    GPULAB_CUDA_CHECK(cudaDeviceSynchronize());
    use_device(m_ctx.device);
    enqueue();
    m_stream.synchronize();
    std::vector<std::uint8_t> back(m_bytes);
    use_device(m_peer);
    // m_stream belongs to the source GPU, so this read-back from the peer stays a plain cudaMemcpy: into pageable
    // memory it returns only once the copy is complete, and everything it reads was finished above.
    GPULAB_CUDA_CHECK(cudaMemcpy(back.data(), m_dst.get(), m_bytes, cudaMemcpyDeviceToHost));
    use_device(m_ctx.device);
    return compare_pattern_bytes(back.data(), m_pattern.data(), m_bytes, "p2p");
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return 0; }
  double bytes() const override { return static_cast<double>(m_bytes); }  // bytes that crossed, counted once

 private:
  // The pinned source pattern and the copy read back in verify().
  static std::size_t host_checked(const TransferSpec& spec) {
    require_host_fits(2.0 * static_cast<double>(spec.bytes),
                      "A GPU-to-GPU copy of " + bytes_text(static_cast<double>(spec.bytes)));
    return spec.bytes;
  }

  void enqueue() {
    GPULAB_CUDA_CHECK(cudaMemcpyPeerAsync(m_dst.get(), m_peer, m_src.get(), m_ctx.device, m_bytes, m_stream.get()));
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  int m_peer;
  std::size_t m_bytes;
  HostBuffer m_pattern;
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_src, m_dst;
};

}  // namespace

std::unique_ptr<TimedOp> make_transfer_op(DeviceCtx ctx, const TransferSpec& spec) {
  return std::make_unique<TransferOp>(std::move(ctx), spec);
}

std::unique_ptr<TimedOp> make_peer_copy_op(DeviceCtx ctx, int peer, const TransferSpec& spec) {
  return std::make_unique<PeerCopyOp>(std::move(ctx), peer, spec);
}

}  // namespace gpulab::cuda

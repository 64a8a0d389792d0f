#pragma once
// Pieces the backend's translation units share. Module-internal. One job per file:
//   cuda_backend.cpp   the Backend: device facts, peaks, what is supported, which op makes what
//   gemm_op.cpp        GEMM in every precision (ladder kernels, cuBLAS, cuBLASLt)
//   bandwidth_ops.cpp  streaming copy/triad and the launch-overhead chain
//   transfer_ops.cpp   host<->device, device-to-device and GPU-to-GPU copies
//   memory_ops.cpp     device memory held for the VRAM page
//   layer_chain.cpp    the decode page's chain of GEMMs
//   roofs_ops.cpp      the FMA peak and the eager overhead floor; graph_overhead_op.cpp the floor through a graph
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "gpulab/backend.hpp"
#include "host_memory.hpp"

#include <cstddef>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::cuda {

inline std::string bytes_text(double b) {
  std::ostringstream s;
  s.precision(3);
  if (b >= 1024.0 * 1024 * 1024)
    s << b / (1024.0 * 1024 * 1024) << " GiB";
  else if (b >= 1024.0 * 1024)
    s << b / (1024.0 * 1024) << " MiB";
  else if (b >= 1024.0)
    s << b / 1024.0 << " KiB";
  else
    s << b << " B";
  return s.str();
}

inline std::string number_text(double v, int precision = 4) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

// The runtime's current device is per host thread, and ops may run on a worker thread: every entry point sets it.
inline void use_device(int device) { GPULAB_CUDA_CHECK(cudaSetDevice(device)); }

// Declared right after an op's DeviceCtx so the device is current before its streams, events and buffers are made
// (they belong to whichever device is current at creation).
struct DeviceSelect {
  explicit DeviceSelect(int device) { use_device(device); }
};

// Everything an op needs to know about its device. The flush buffer is shared by all ops of a backend (held by
// shared_ptr so an op may outlive the backend object that made it).
struct DeviceCtx {
  int device = 0;
  int sms = 1;
  int cc_major = 0, cc_minor = 0;
  std::size_t l2_bytes = 0;
  std::shared_ptr<L2Flush> flush;
};

// Refuses, with the numbers, an allocation that would not leave a margin for cuBLAS workspaces and the context,
// rather than attempting it blindly.
inline void require_fits(const DeviceCtx&, double need_bytes, const std::string& what) {
  std::size_t free_b = 0, total_b = 0;
  GPULAB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (need_bytes > 0.9 * static_cast<double>(free_b))
    throw std::runtime_error(what + " needs " + bytes_text(need_bytes) + " of GPU memory; " +
                             bytes_text(static_cast<double>(free_b)) + " of " +
                             bytes_text(static_cast<double>(total_b)) + " is free");
}

// The same for host memory (MemAvailable): ops keep host copies of their inputs and read their outputs back, so a
// size that fits the card can still exhaust the host. Refuses with the numbers, before anything is allocated.
inline void require_host_fits(double need_bytes, const std::string& what) {
  const std::string refusal = host_memory_refusal(need_bytes, host_available_bytes(), what);
  if (!refusal.empty()) throw std::runtime_error(refusal);
}

// Copies between host and device go on the op's own (non-blocking) stream and are waited for, never through the
// legacy default stream: a cudaMemcpy from pageable memory may return before its DMA has landed, and work on a
// non-blocking stream does not wait for the legacy stream, so the op's first kernel could read a half-copied input.
inline void upload(const Stream& s, void* dst, const void* src, std::size_t bytes) {
  GPULAB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.get()));
  s.synchronize();  // the host buffer may be a temporary that dies right after
}
inline void download(const Stream& s, void* dst, const void* src, std::size_t bytes) {
  GPULAB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s.get()));
  s.synchronize();
}

// The ops (each file above makes its own).
std::unique_ptr<TimedOp> make_gemm_op(DeviceCtx ctx, const GemmSpec& spec);
std::string gemm_algo_note(const TimedOp& op);  // the cuBLASLt algorithm an INT8/FP8 op chose, else ""
const std::vector<std::string>& ladder_names();
bool is_ladder_variant(const std::string& variant);  // a hand-written kernel (listed or the self-test one)
std::unique_ptr<TimedOp> make_bandwidth_op(DeviceCtx ctx, const BandwidthSpec& spec);
// roofs_ops.cpp: the FMA peak (FP32, FP64, FP16 on the SMs) and the overhead floor (empty kernel, or the triad).
Support fma_peak_support(const PeakSpec& spec);
std::unique_ptr<TimedOp> make_fma_peak_op(DeviceCtx ctx, const PeakSpec& spec);
std::unique_ptr<TimedOp> make_overhead_op(DeviceCtx ctx, const OverheadSpec& spec);
// graph_overhead_op.cpp: the empty launch through a CUDA graph (refused on the CPU emulator, which has no graphs).
Support graph_overhead_support();
std::unique_ptr<TimedOp> make_graph_overhead_op(DeviceCtx ctx, const OverheadSpec& spec);
std::unique_ptr<TimedOp> make_launch_overhead_op(DeviceCtx ctx, const LaunchOverheadSpec& spec);
std::unique_ptr<TimedOp> make_transfer_op(DeviceCtx ctx, const TransferSpec& spec);
std::unique_ptr<TimedOp> make_peer_copy_op(DeviceCtx ctx, int peer, const TransferSpec& spec);
std::unique_ptr<HeldMemory> make_device_held(int device, double bytes, MemoryInfo before);
// The same without the free-memory check, for a hold the teacher asked to take until the device says no: a refused
// cudaMalloc throws DeviceOutOfMemory with the step's chunks already freed; any other CUDA error stays a CudaError.
std::unique_ptr<HeldMemory> make_device_held_past_budget(int device, double bytes, MemoryInfo before);

// The decode page's chain of GEMMs on the GPU (layer_chain.cpp).
Support layer_chain_support(const DeviceCtx& ctx, const LayerChainSpec& spec);
std::unique_ptr<TimedOp> make_layer_chain_op(DeviceCtx ctx, const LayerChainSpec& spec);

}  // namespace gpulab::cuda

#pragma once
// Pieces the backend's translation units share (cuda_backend.cpp, layer_chain.cpp). Module-internal.
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "gpulab/backend.hpp"

#include <cstddef>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

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

// The decode page's chain of GEMMs on the GPU (layer_chain.cpp).
Support layer_chain_support(const DeviceCtx& ctx, const LayerChainSpec& spec);
std::unique_ptr<TimedOp> make_layer_chain_op(DeviceCtx ctx, const LayerChainSpec& spec);

}  // namespace gpulab::cuda

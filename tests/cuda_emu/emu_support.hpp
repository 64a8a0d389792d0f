#pragma once
// Helpers for the emulator tests: device arrays from the emulated cudaMalloc (guarded, NaN-filled), uploads and
// downloads, and the GEMM check every ladder test uses (the app's own checker and tolerances, every cell).
#include "kernels.hpp"

#include <gpulab/harness.hpp>
#include <gpulab/precision.hpp>
#include <gpulab_emu/launch.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace emu_test {

class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : m_count(count) {
    if (cudaMalloc(reinterpret_cast<void**>(&m_data), count * sizeof(float)) != cudaSuccess)
      throw std::runtime_error("emulated cudaMalloc failed");
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(m_data); }
  float* get() const { return m_data; }
  std::size_t count() const { return m_count; }
  void upload(const std::vector<float>& host) const {
    if (cudaMemcpy(m_data, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("emulated upload failed");
  }
  std::vector<float> download() const {
    std::vector<float> host(m_count);
    if (cudaMemcpy(host.data(), m_data, m_count * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
      throw std::runtime_error("emulated download failed");
    return host;
  }

 private:
  float* m_data = nullptr;
  std::size_t m_count = 0;
};

inline std::vector<float> random_floats(std::size_t count, std::uint64_t seed) {
  std::vector<float> v(count);
  gpulab::fill_random(v.data(), count, seed);
  return v;
}

// The kernel the last launch on this thread ran, as written at the launch ("warptile_kernel<true>").
inline std::string last_kernel() { return gpulab::emu::last_launch().name; }

struct Shape {
  int m, n, k;
};
inline std::string to_string(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// Runs `launcher` on random inputs of `shape` (C starts as NaN) and checks every cell against FP64 dot products.
inline gpulab::Check run_and_check(gpulab::cuda::kernels::SgemmLauncher launcher, const Shape& s,
                                   std::uint64_t seed = 42) {
  const auto a = random_floats(std::size_t(s.m) * s.k, seed);
  const auto b = random_floats(std::size_t(s.k) * s.n, seed + 1);
  DeviceArray da(a.size()), db(b.size()), dc(std::size_t(s.m) * s.n);
  da.upload(a);
  db.upload(b);
  launcher(s.m, s.n, s.k, da.get(), db.get(), dc.get(), nullptr);
  const auto c = dc.download();
  const double rtol = gpulab::default_rtol(gpulab::Precision::fp32, s.k);
  const double atol = gpulab::default_atol(gpulab::Precision::fp32, s.k);
  return gpulab::check_gemm(a.data(), b.data(), c.data(), s.m, s.n, s.k, atol, rtol, /*full_limit=*/1LL << 40);
}

}  // namespace emu_test

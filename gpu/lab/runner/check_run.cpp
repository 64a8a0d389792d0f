#include "check_run.hpp"

#include "access_watch.hpp"
#include "fatal_signals.hpp"

#include <gpulab/harness.hpp>
#include <gpulab/precision.hpp>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <vector>

namespace gpulab::lab {
namespace {

constexpr int kWrongCellsShown = 5;

class DeviceFloats {
 public:
  explicit DeviceFloats(std::size_t count) : m_count(count) {
    if (cudaMalloc(reinterpret_cast<void**>(&m_p), bytes()) != cudaSuccess)
      throw std::runtime_error("the emulated device cannot hold " + std::to_string(count) + " floats");
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  ~DeviceFloats() { cudaFree(m_p); }
  float* get() const { return m_p; }
  std::size_t bytes() const { return m_count * sizeof(float); }

 private:
  float* m_p = nullptr;
  std::size_t m_count;
};

}  // namespace

nlohmann::json check_shape(emu::SgemmLauncher launcher, int m, int n, int k, std::uint64_t seed) {
  nlohmann::json out = {{"m", m}, {"n", n}, {"k", k}, {"pc", 0}, {"launch_line", 0}, {"wrong_count", 0},
                        {"wrong", nlohmann::json::array()}};
  const std::size_t um = std::size_t(m), un = std::size_t(n), uk = std::size_t(k);
  std::vector<float> a(um * uk), b(uk * un), c(um * un);
  fill_random(a.data(), a.size(), seed);
  fill_random(b.data(), b.size(), seed + 1);
  DeviceFloats da(a.size()), db(b.size()), dc(c.size());
  cudaMemcpy(da.get(), a.data(), da.bytes(), cudaMemcpyHostToDevice);
  cudaMemcpy(db.get(), b.data(), db.bytes(), cudaMemcpyHostToDevice);
  cudaMemset(dc.get(), 0xFF, dc.bytes());  // NaN: a cell no thread writes stays visibly wrong
  g_fatal.launch_line = 0;
  std::vector<CellWriter> writers;
  try {
    AccessWatch watch({"A", reinterpret_cast<const unsigned char*>(da.get()), da.bytes()},
                      {"B", reinterpret_cast<const unsigned char*>(db.get()), db.bytes()},
                      {"C", reinterpret_cast<const unsigned char*>(dc.get()), dc.bytes()});
    launcher(m, n, k, da.get(), db.get(), dc.get(), nullptr);
    writers = watch.writers();
  } catch (const AccessFault& e) {
    out["status"] = "fault";
    out["message"] = e.what();
    out["pc"] = reinterpret_cast<std::uintptr_t>(e.pc());
    out["launch_line"] = g_fatal.launch_line;
    return out;
  } catch (const std::exception& e) {
    out["status"] = "fault";
    out["message"] = e.what();
    out["launch_line"] = g_fatal.launch_line;
    return out;
  }
  if (cudaMemcpy(c.data(), dc.get(), dc.bytes(), cudaMemcpyDeviceToHost) != cudaSuccess)
    throw std::runtime_error("cannot read C back from the emulated device");

  const double atol = default_atol(Precision::fp32, k), rtol = default_rtol(Precision::fp32, k);
  long long wrong = 0;
  nlohmann::json shown = nlohmann::json::array();
  for (std::size_t i = 0; i < um; ++i)
    for (std::size_t j = 0; j < un; ++j) {
      double ref = 0;
      for (std::size_t p = 0; p < uk; ++p) ref += double(a[i * uk + p]) * double(b[p * un + j]);
      const double got = c[i * un + j];
      if (std::isfinite(got) && std::abs(got - ref) <= atol + rtol * std::abs(ref)) continue;
      ++wrong;
      if (shown.size() >= kWrongCellsShown) continue;
      const CellWriter& w = writers[i * un + j];
      nlohmann::json cell = {{"row", i}, {"col", j}, {"expected", ref}, {"written", w.written}};
      cell["got"] = std::isfinite(got) ? nlohmann::json(got) : nlohmann::json(std::isnan(got) ? "NaN" : got > 0 ? "inf" : "-inf");
      if (w.written) {
        cell["block"] = w.block;
        cell["thread"] = w.thread;
      }
      shown.push_back(cell);
    }
  out["status"] = wrong ? "wrong" : "ok";
  out["wrong_count"] = wrong;
  out["wrong"] = shown;
  out["tolerance"] = {{"atol", atol}, {"rtol", rtol}};
  return out;
}

}  // namespace gpulab::lab

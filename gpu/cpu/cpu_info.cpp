// What the CPU is: model, cores, SIMD, caches, clock, memory, BLAS library. Read from the operating system
// (gpulab/platform.hpp: /proc and /sys on Linux, Win32 on Windows), so a class sees the machine it is running on.
#include "cpu_internal.hpp"
#include "gpulab/platform.hpp"
#include "gpulab/units.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace gpulab::cpu {
namespace {


std::string simd_flags() {
  std::string s;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  auto add = [&](bool have, const char* name) {
    if (!have) return;
    if (!s.empty()) s += ' ';
    s += name;
  };
  add(__builtin_cpu_supports("sse4.2"), "SSE4.2");
  add(__builtin_cpu_supports("avx"), "AVX");
  add(__builtin_cpu_supports("avx2"), "AVX2");
  add(__builtin_cpu_supports("fma"), "FMA");
  add(__builtin_cpu_supports("avx512f"), "AVX-512F");
  add(platform::cpu_has_amx_bf16(), "AMX-BF16");  // Intel's matrix tiles: a CPU's Tensor Core
#endif
  return s.empty() ? "none detected" : s;
}

// Widest FP32 lanes the FMA model may assume: AVX2 is 8 floats. AVX-512 is left out on purpose: several CPUs
// (AMD Zen 4, some Intel parts) execute it as two 256-bit halves, and our kernels are compiled for AVX2 anyway.
int fp32_lanes() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 8;
  if (__builtin_cpu_supports("sse2")) return 4;
#endif
  return 1;
}
bool has_fma() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace

int logical_cores() {
  // The affinity mask, not the machine's core count: in a container or under taskset that is what we may use.
  if (const int n = platform::usable_logical_cores(); n > 0) return n;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

int resolve_threads(int requested) {
  if (requested == 0) return logical_cores();
  if (requested < 0 || requested > 4096)
    throw std::invalid_argument("Thread count " + std::to_string(requested) +
                                " is not valid (use 0 for all cores, or 1 to 4096)");
  return requested;
}

MemoryInfo read_meminfo() {
  const platform::MemoryFacts facts = platform::memory_facts();
  MemoryInfo info;
  info.total_bytes = facts.total_bytes;
  info.free_bytes = facts.available_bytes;
  return info;
}

void require_fits_in_memory(double bytes, const std::string& what) {
  const MemoryInfo mem = read_meminfo();
  // Half of what is available: the rest of the system (and the app's own plots) must keep running, and a run
  // that swaps measures the disk, not the CPU.
  const double limit = mem.free_bytes > 0 ? mem.free_bytes / 2 : 0;
  if (!(bytes > 0) || !std::isfinite(bytes) || (limit > 0 && bytes > limit)) {
    throw std::invalid_argument(what + " needs " + format_bytes(bytes) + " of memory; " +
                                format_bytes(mem.free_bytes) + " is available and at most half of that (" +
                                format_bytes(limit) + ") may be used");
  }
}

DeviceInfo read_device_info() {
  DeviceInfo d;
  d.kind = "cpu";
  d.name = platform::cpu_model_name();
  if (d.name.empty()) d.name = "unknown CPU";
  d.compute_units = logical_cores();
  d.threads = d.compute_units;
  d.clock_mhz = platform::cpu_clock_mhz();
  const MemoryInfo mem = read_meminfo();
  d.memory_total_bytes = mem.total_bytes;
  d.memory_free_bytes = mem.free_bytes;
  d.simd = simd_flags();
  const unsigned hw = std::thread::hardware_concurrency();
  d.details.emplace_back("Logical CPUs on the machine", std::to_string(hw));
  d.details.emplace_back("Logical CPUs this process may use", std::to_string(d.compute_units));
  for (auto& c : platform::cpu_caches()) d.details.push_back(std::move(c));
  if (blas_available()) {
    d.details.emplace_back("OpenBLAS version", blas_version());
    d.details.emplace_back("OpenBLAS config", blas_config());
    d.details.emplace_back("OpenBLAS kernel", blas_core());
  } else {
    d.details.emplace_back("OpenBLAS", "not in this build");
  }
  return d;
}

PeakModel peak_model(double mhz, int cores) {
  PeakModel m;
  const int lanes = fp32_lanes();
  // Without FMA a multiply and an add are separate instructions: one FLOP each per lane and pipe.
  const double per_fma = has_fma() ? 2 : 1;
  constexpr double pipes = 2;  // two FMA (or mul/add) pipes per core: true of current x86 cores
  m.gflops_fp32 = mhz * 1e-3 * cores * lanes * per_fma * pipes;
  m.gflops_fp64 = m.gflops_fp32 / 2;
  m.formula = std::to_string(cores) + " cores \u00d7 " + format_fixed(mhz, 0) + " MHz \u00d7 " +
              std::to_string(lanes) + " FP32 lanes \u00d7 " + format_fixed(per_fma, 0) + " FLOP/" +
              (has_fma() ? "FMA" : "op") + " \u00d7 2 pipes (assumed)";
  return m;
}

Provenance cpu_provenance() {
  const DeviceInfo d = read_device_info();
  Provenance p;
  p["backend"] = "cpu";
  p["device"] = d.name;
  p["cpu_logical_cores"] = std::to_string(d.compute_units);
  p["cpu_simd"] = d.simd;
  p["cpu_clock_mhz"] = std::to_string(static_cast<long long>(std::lround(d.clock_mhz)));
  p["memory_total"] = format_bytes(d.memory_total_bytes);
  for (const auto& [k, v] : d.details) {
    if (k.rfind("L", 0) == 0 && k.find("cache") != std::string::npos) p["cpu_" + k.substr(0, k.find(' '))] = v;
  }
  p["timer"] = platform::clock_description();
  p["openblas"] = blas_available() ? blas_version() + " (" + blas_core() + ")" : "not in this build";
  if (blas_available()) p["openblas_config"] = blas_config();
  return p;
}

}  // namespace gpulab::cpu

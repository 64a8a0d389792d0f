#pragma once
// Host memory for the GPU ops. Their inputs are generated, rounded and kept on the host (for the FP64 reference and
// the byte-for-byte checks), often in several copies: a GEMM that fits the card can still exhaust host RAM. Each op
// checks MemAvailable before it allocates and refuses with the numbers. Plain C++, unit-tested without a GPU.
#include <fstream>
#include <istream>
#include <optional>
#include <sstream>
#include <string>

#if defined(GPULAB_CUDA_EMULATED_MODULE)
namespace gpulab::emu {
std::optional<double> simulated_host_available_bytes();  // GPULAB_EMU_HOST_MEM_MB (gpu/cuda_emu/device_behaviour.hpp)
}
#endif

namespace gpulab::cuda {

// MemAvailable from /proc/meminfo text, in bytes; nullopt when the line is missing (kernels before 3.14).
inline std::optional<double> parse_mem_available(std::istream& in) {
  std::string key, unit;
  double kib = 0;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024.0;
  }
  return std::nullopt;
}

// Where host_available_bytes() reads from, in the words a refusal and the recording use.
inline std::string host_memory_source() {
#if defined(GPULAB_CUDA_EMULATED_MODULE)
  if (gpulab::emu::simulated_host_available_bytes()) return "GPULAB_EMU_HOST_MEM_MB, the emulator's simulated host";
#endif
  return "MemAvailable";
}

inline std::optional<double> host_available_bytes() {
#if defined(GPULAB_CUDA_EMULATED_MODULE)
  // The emulator can make the module believe in a smaller host, so CI sees what a job larger than the host does.
  if (const auto simulated = gpulab::emu::simulated_host_available_bytes()) return simulated;
#endif
  std::ifstream in("/proc/meminfo");
  if (!in) return std::nullopt;
  return parse_mem_available(in);
}

// The share of MemAvailable an op may take: the rest is left to the app, the OS and the page cache.
constexpr double kHostShare = 0.8;

// "" when `need_bytes` fits in kHostShare of `available_bytes` (or the amount is unknown, so cannot be judged);
// otherwise the refusal, with both numbers, in the words the result's error shows.
inline std::string host_memory_refusal(double need_bytes, std::optional<double> available_bytes,
                                       const std::string& what, const std::string& source = "MemAvailable") {
  if (!available_bytes || need_bytes <= kHostShare * *available_bytes) return {};
  auto gib = [](double b) {  // GiB, or MiB below one GiB (a small host, a simulated one): never "0.000977 GiB"
    std::ostringstream s;
    s.precision(3);
    if (b < 1024.0 * 1024 * 1024) s << b / (1024.0 * 1024) << " MiB";
    else s << b / (1024.0 * 1024 * 1024) << " GiB";
    return s.str();
  };
  return what + " needs " + gib(need_bytes) + " of host memory for its inputs and checks; " + gib(*available_bytes) +
         " is available (" + source + "), and at most " + std::to_string(static_cast<int>(kHostShare * 100)) +
         " % of it is used: choose a smaller size";
}

}  // namespace gpulab::cuda

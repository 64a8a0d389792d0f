// The CUDA ops' host-memory check (gpu/cuda/host_memory.hpp): a GEMM that fits the card can still need more host
// RAM than there is (inputs, their rounded copies, the output read back); it is refused with the numbers before
// anything is allocated. Runs without CUDA.
#include "../../gpu/cuda/host_memory.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using gpulab::cuda::host_memory_refusal;
using gpulab::cuda::parse_mem_available;

constexpr double GiB = 1024.0 * 1024 * 1024;

TEST(CudaHostMemory, ParsesMemAvailable) {
  std::istringstream in("MemTotal:       16303244 kB\nMemFree:         1234567 kB\nMemAvailable:    8388608 kB\n"
                        "Buffers:          123456 kB\n");
  const auto bytes = parse_mem_available(in);
  ASSERT_TRUE(bytes.has_value());
  EXPECT_DOUBLE_EQ(*bytes, 8.0 * GiB);
}

TEST(CudaHostMemory, MissingLineIsUnknown) {
  std::istringstream in("MemTotal:       16303244 kB\nMemFree:         1234567 kB\n");
  EXPECT_FALSE(parse_mem_available(in).has_value());
}

TEST(CudaHostMemory, ThisMachineHasAReading) {
  const auto bytes = gpulab::cuda::host_available_bytes();
  ASSERT_TRUE(bytes.has_value()) << "/proc/meminfo has no MemAvailable";
  EXPECT_GT(*bytes, 0);
}

TEST(CudaHostMemory, FitsIsSilent) {
  EXPECT_EQ(host_memory_refusal(1 * GiB, 8 * GiB, "GEMM"), "");
  EXPECT_EQ(host_memory_refusal(0.8 * 8 * GiB, 8 * GiB, "GEMM"), "");  // exactly the share
  EXPECT_EQ(host_memory_refusal(100 * GiB, std::nullopt, "GEMM"), "");  // unknown: cannot judge, do not refuse
}

TEST(CudaHostMemory, TooBigIsRefusedWithTheNumbers) {
  // A 32768² FP16 GEMM keeps ~(2·32768²)·10 + 32768²·6 bytes on the host: 26 GiB, on a 16 GiB laptop.
  const double n = 32768;
  const double need = 2 * n * n * 10 + n * n * 6;
  const std::string why = host_memory_refusal(need, 16 * GiB, "GEMM 32768x32768x32768 in FP16");
  ASSERT_FALSE(why.empty());
  EXPECT_NE(why.find("GEMM 32768x32768x32768 in FP16 needs 26 GiB of host memory"), std::string::npos) << why;
  EXPECT_NE(why.find("16 GiB is available (MemAvailable)"), std::string::npos) << why;
  EXPECT_NE(why.find("80 %"), std::string::npos) << why;
  EXPECT_NE(host_memory_refusal(0.81 * 8 * GiB, 8 * GiB, "x"), "");
}

TEST(CudaHostMemory, ASmallHostIsSaidInMiBWithWhereTheFigureCameFrom) {
  // The emulator's simulated host (GPULAB_EMU_HOST_MEM_MB) or a small machine: "1 MiB", not "0.000977 GiB".
  const std::string why = host_memory_refusal(20 * 1024.0 * 1024, 1024.0 * 1024, "GEMM 1024x1024x1024 in FP32",
                                              "GPULAB_EMU_HOST_MEM_MB, the emulator's simulated host");
  EXPECT_NE(why.find("needs 20 MiB of host memory"), std::string::npos) << why;
  EXPECT_NE(why.find("1 MiB is available (GPULAB_EMU_HOST_MEM_MB, the emulator's simulated host)"), std::string::npos)
      << why;
}

}  // namespace

// What the emulator must catch, shown on kernels that are wrong on purpose. The ladder's own source is mutated
// at build time (tests/CMakeLists.txt: a dropped __syncthreads, an off-by-one bounds guard, an early return before
// a barrier), so these prove the harness catches the mistakes the real kernels could make; small kernels written
// here cover the launch limits, shared-memory poisoning and guard zones.
#include "emu_support.hpp"

#include <gpulab_emu/device_memory.hpp>

#include "../cuda_check.hpp"

#include <cmath>

namespace gpulab::cuda::kernels {
// Launchers of the mutated copies (generated from 01_naive.cu and 03_shared_tiles.cu).
void sgemm_smem_missing_sync(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_smem_early_return(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
void sgemm_naive_off_by_one(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream);
}  // namespace gpulab::cuda::kernels

namespace {

namespace k = gpulab::cuda::kernels;
using emu_test::DeviceArray;
using gpulab::emu::KernelError;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(EmulatorCatches, AMissingSyncthreadsAsAWrongAnswer) {
  // The unmutated kernel passes at this shape; without the barrier after the inner loop, a fast thread loads the
  // next tile over values its neighbours are still reading.
  EXPECT_TRUE(emu_test::run_and_check(k::sgemm_smem, {64, 64, 100}).passed);
  const gpulab::Check broken = emu_test::run_and_check(k::sgemm_smem_missing_sync, {64, 64, 100});
  EXPECT_FALSE(broken.passed);
  EXPECT_GT(broken.max_abs_err, 1e-3);
}

TEST(EmulatorCatches, AnOffByOneBoundsGuard) {
  EXPECT_TRUE(emu_test::run_and_check(k::sgemm_naive, {60, 60, 60}).passed);
  if (kAsan) {
    // The guard zones are poisoned: AddressSanitizer stops the first read past A.
    EXPECT_DEATH(emu_test::run_and_check(k::sgemm_naive_off_by_one, {60, 60, 60}), "use-after-poison");
  } else {
    // Row m reads past A (NaN from the guard zone) and writes past C: the guard check names the kernel.
    const std::string what = error_of([] { emu_test::run_and_check(k::sgemm_naive_off_by_one, {60, 60, 60}); });
    EXPECT_NE(what.find("kernel naive_kernel wrote outside an allocation"), std::string::npos) << what;
  }
}

TEST(EmulatorCatches, ABarrierThatPartOfTheBlockNeverReaches) {
  const std::string what = error_of([] { emu_test::run_and_check(k::sgemm_smem_early_return, {60, 60, 60}); });
  EXPECT_NE(what.find("kernel smem_kernel"), std::string::npos) << what;
  EXPECT_NE(what.find("was reached by 896 of 1024 threads"), std::string::npos) << what;  // rows 60–63 returned
}

// ---- small kernels written here ----
__global__ void divergent_barrier_kernel(float* out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1.0f;
}

__global__ void read_shared_before_writing_kernel(float* out) {
  __shared__ float tile[64];
  out[threadIdx.x] = tile[threadIdx.x];  // nobody wrote it yet: a GPU gives garbage, the emulator gives NaN
  __syncthreads();
  tile[threadIdx.x] = 1.0f;  // written only now (and so not a constant the compiler could fold)
}

__global__ void write_past_end_kernel(float* out, int n) { out[n + static_cast<int>(threadIdx.x)] = 0.0f; }

__global__ void big_static_shared_kernel(float* out) {
  __shared__ float big[13 * 1024];  // 52 KiB: over the 48 KiB a kernel may declare
  big[threadIdx.x] = 1.0f;
  out[0] = big[0];
}

__global__ void noop_kernel(float* out) { out[0] = 0.0f; }

TEST(EmulatorCatches, ThreadsWaitingAtDifferentBarriers) {
  DeviceArray out(64);
  const std::string what = error_of([&] { GPULAB_LAUNCH(divergent_barrier_kernel, 1, 64, 0, nullptr)(out.get()); });
  EXPECT_NE(what.find("kernel divergent_barrier_kernel"), std::string::npos) << what;
  EXPECT_NE(what.find("different barriers"), std::string::npos) << what;
}

TEST(EmulatorCatches, SharedMemoryReadBeforeItIsWritten) {
  DeviceArray out(64);
  GPULAB_LAUNCH(read_shared_before_writing_kernel, 1, 64, 0, nullptr)(out.get());
  for (float v : out.download()) EXPECT_TRUE(std::isnan(v));
  EXPECT_EQ(gpulab::emu::last_launch().static_shared, 64 * sizeof(float));
}

TEST(EmulatorCatches, AWritePastTheEndOfAnAllocation) {
  DeviceArray out(100);
  if (kAsan) {
    EXPECT_DEATH(GPULAB_LAUNCH(write_past_end_kernel, 1, 4, 0, nullptr)(out.get(), 100), "use-after-poison");
  } else {
    const std::string what = error_of([&] { GPULAB_LAUNCH(write_past_end_kernel, 1, 4, 0, nullptr)(out.get(), 100); });
    EXPECT_NE(what.find("kernel write_past_end_kernel wrote outside an allocation of 400 bytes"), std::string::npos)
        << what;
  }
}

TEST(EmulatorEnforces, LaunchLimits) {
  DeviceArray out(4);
  const auto launch_error = [&](dim3 grid, dim3 block) {
    return error_of([&] { GPULAB_LAUNCH(noop_kernel, grid, block, 0, nullptr)(out.get()); });
  };
  EXPECT_EQ(launch_error(dim3(1), dim3(1024)), "");
  EXPECT_NE(launch_error(dim3(1), dim3(1025)).find("at most 1024 per block"), std::string::npos);
  EXPECT_NE(launch_error(dim3(1), dim3(32, 32, 2)).find("at most 1024 per block"), std::string::npos);
  EXPECT_NE(launch_error(dim3(1), dim3(1, 1, 65)).find("at most 1024 per block"), std::string::npos);
  EXPECT_NE(launch_error(dim3(1, 65536), dim3(1)).find("exceeds"), std::string::npos);
  EXPECT_NE(launch_error(dim3(0), dim3(1)).find("empty launch"), std::string::npos);
}

TEST(EmulatorEnforces, The48KiBStaticSharedLimit) {
  DeviceArray out(4);
  const std::string what = error_of([&] { GPULAB_LAUNCH(big_static_shared_kernel, 1, 32, 0, nullptr)(out.get()); });
  EXPECT_NE(what.find("kernel big_static_shared_kernel: 53248 bytes of static shared memory"), std::string::npos)
      << what;
}

TEST(EmulatorEnforces, DynamicSharedMemoryNeedsTheOptIn) {
  DeviceArray out(4);
  const std::string what = error_of([&] { GPULAB_LAUNCH(noop_kernel, 1, 32, 64 * 1024, nullptr)(out.get()); });
  EXPECT_NE(what.find("without cudaFuncSetAttribute"), std::string::npos) << what;
}

TEST(EmulatedRuntime, AFailedAllocationLeavesItsErrorLikeTheRealRuntime) {
  void* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, gpulab::emu::kMaxAllocationBytes + 1), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // read and cleared
}

TEST(EmulatedRuntime, ARefusedAllocationIsNotBlamedOnTheNextLaunch) {
  // The module's checking macro must clear the non-sticky error a refused cudaMalloc leaves behind; otherwise the
  // next launch check (cudaGetLastError) would report "out of memory" as the kernel's failure.
  void* p = nullptr;
  EXPECT_THROW(GPULAB_CUDA_CHECK(cudaMalloc(&p, gpulab::emu::kMaxAllocationBytes + 1)), gpulab::cuda::CudaError);
  EXPECT_NO_THROW(emu_test::run_and_check(k::sgemm_naive, {8, 8, 8}));
}

TEST(EmulatedRuntime, CopiesOutsideAnAllocationAreRefused) {
  DeviceArray a(16);
  std::vector<float> host(32);
  EXPECT_EQ(cudaMemcpy(a.get(), host.data(), 32 * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  EXPECT_EQ(cudaMemcpy(a.get(), host.data(), 16 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
}

TEST(EmulatedRuntime, EveryAllocationOfTheseTestsWasFreed) {
  EXPECT_EQ(gpulab::emu::live_allocations(), 0u);
}

}  // namespace

// The CUDA module's rule for the thread's last error after a failed call (gpu/cuda/cuda_error_policy.hpp): a
// refused cudaMalloc/cudaMallocHost is cleared where it is thrown, so the next launch check does not report it as
// the kernel's failure; a sticky error (the context is broken) is left alone. Runs without CUDA.
#include "../../gpu/cuda/cuda_error_policy.hpp"

#include <gtest/gtest.h>

namespace {

using gpulab::cuda::clear_recoverable_error;
using gpulab::cuda::is_sticky_cuda_error;

TEST(CudaErrorPolicy, RefusedAllocationIsClearedOnce) {
  int clears = 0;
  EXPECT_TRUE(clear_recoverable_error(2, [&] { ++clears; }));  // cudaErrorMemoryAllocation
  EXPECT_EQ(clears, 1);
}

TEST(CudaErrorPolicy, OtherRecoverableErrorsAreCleared) {
  for (int code : {1 /* invalid value */, 35 /* insufficient driver */, 101 /* invalid device */,
                   701 /* launch out of resources */, 9 /* invalid configuration */, 704 /* peer access already */}) {
    int clears = 0;
    EXPECT_TRUE(clear_recoverable_error(code, [&] { ++clears; })) << code;
    EXPECT_EQ(clears, 1) << code;
  }
}

TEST(CudaErrorPolicy, SuccessIsNotTouched) {
  int clears = 0;
  EXPECT_FALSE(clear_recoverable_error(0, [&] { ++clears; }));
  EXPECT_EQ(clears, 0);
}

TEST(CudaErrorPolicy, StickyErrorsAreLeftForEveryLaterCall) {
  // 226 cudaErrorContained and 911 cudaErrorExternalDevice: "any further CUDA work will return the same error".
  for (int code : {700, 702, 710, 714, 715, 716, 717, 718, 719, 721, 810, 226, 911}) {
    EXPECT_TRUE(is_sticky_cuda_error(code)) << code;
    int clears = 0;
    EXPECT_FALSE(clear_recoverable_error(code, [&] { ++clears; })) << code;
    EXPECT_EQ(clears, 0) << code;
  }
  EXPECT_FALSE(is_sticky_cuda_error(2));
  EXPECT_FALSE(is_sticky_cuda_error(701));
}

// The first sticky fault is what the backend names ("device_fault"); its echoes and recoverable errors are not kept.
TEST(CudaErrorPolicy, TheFirstStickyFaultIsRecorded) {
  gpulab::cuda::StickyFaultRecord record;
  record.note(2, "CUDA error 2 (cudaErrorMemoryAllocation)");
  EXPECT_EQ(record.description(), "");
  record.note(700, "CUDA error 700 (cudaErrorIllegalAddress) in the launch");
  record.note(700, "CUDA error 700 (cudaErrorIllegalAddress) in the next call");
  EXPECT_EQ(record.description(), "CUDA error 700 (cudaErrorIllegalAddress) in the launch");
}

// The sequence the issue describes, with a fake runtime: a refused allocation, then a kernel that launched fine.
// The launch check reads the last error; before the fix it saw the allocation's code.
TEST(CudaErrorPolicy, LaunchCheckAfterRefusedAllocationSeesSuccess) {
  int last_error = 0;
  auto fake_malloc_refused = [&] { last_error = 2; return 2; };
  auto get_last_error = [&] { const int e = last_error; last_error = 0; return e; };
  const int err = fake_malloc_refused();
  clear_recoverable_error(err, [&] { (void)get_last_error(); });  // what throw_cuda_error does before throwing
  EXPECT_EQ(get_last_error(), 0);                                  // GPULAB_CUDA_CHECK_LAUNCH after a good launch
}

}  // namespace

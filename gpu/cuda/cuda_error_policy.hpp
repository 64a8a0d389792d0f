#pragma once
// What to do with CUDA's "last error" after a call failed. Plain C++ (no CUDA headers), so tests/unit can check the
// rule without a GPU; cuda_check.hpp applies it with the real cudaGetLastError and static_asserts the codes below.
//
// Why: the runtime keeps the last error of the host thread until cudaGetLastError() reads it. A refused
// cudaMalloc / cudaMallocHost (cudaErrorMemoryAllocation) leaves it set, and the next launch check
// (GPULAB_CUDA_CHECK_LAUNCH, which reads cudaGetLastError) would then report the old allocation failure as the
// kernel's. So every error we throw or report is cleared first — unless it is sticky: then the context is broken,
// cudaGetLastError cannot clear it, and every later call must keep failing with it.

namespace gpulab::cuda {

// The runtime's sticky errors: those whose description in driver_types.h (CUDA 13.0) says "the process must be
// terminated and relaunched" after a kernel fault. Numeric so this header needs no CUDA include.
constexpr bool is_sticky_cuda_error(int code) noexcept {
  switch (code) {
    case 700:  // cudaErrorIllegalAddress
    case 702:  // cudaErrorLaunchTimeout
    case 710:  // cudaErrorAssert
    case 714:  // cudaErrorHardwareStackError
    case 715:  // cudaErrorIllegalInstruction
    case 716:  // cudaErrorMisalignedAddress
    case 717:  // cudaErrorInvalidAddressSpace
    case 718:  // cudaErrorInvalidPc
    case 719:  // cudaErrorLaunchFailure
    case 721:  // cudaErrorTensorMemoryLeak (CUDA 12.8 and newer; older runtimes never return it)
    case 810:  // cudaErrorMpsClientTerminated
      return true;
    default:
      return false;
  }
}

// Called with the code of a call that failed: runs `clear` (cudaGetLastError) when the error is one that can be
// cleared, so it cannot be blamed on a later call. Returns whether it cleared.
template <class Clear>
bool clear_recoverable_error(int code, Clear&& clear) {
  if (code == 0 || is_sticky_cuda_error(code)) return false;
  clear();
  return true;
}

}  // namespace gpulab::cuda

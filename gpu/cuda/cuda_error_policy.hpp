#pragma once
// What to do with CUDA's "last error" after a call failed. Plain C++ (no CUDA headers), so tests/unit can check the
// rule without a GPU; cuda_check.hpp applies it with the real cudaGetLastError and static_asserts the codes below.
//
// Why: the runtime keeps the last error of the host thread until cudaGetLastError() reads it. A refused
// cudaMalloc / cudaMallocHost (cudaErrorMemoryAllocation) leaves it set, and the next launch check
// (GPULAB_CUDA_CHECK_LAUNCH, which reads cudaGetLastError) would then report the old allocation failure as the
// kernel's. So every error we throw or report is cleared first — unless it is sticky: then the context is broken,
// cudaGetLastError cannot clear it, and every later call must keep failing with it.

#include <mutex>
#include <string>

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
    // Two more whose description says the same: "any further CUDA work will return the same error ... the process
    // must be terminated and relaunched". By number only, like 721: the module never names them, so no toolkit's
    // headers need to have them, and a runtime that predates them never returns them.
    case 226:  // cudaErrorContained: a device exception held by the GPU's error containment (NVLink, hardware)
    case 911:  // cudaErrorExternalDevice: an external device signalled that the data it shares is not valid
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

// The first sticky error this process met. After one, the device's context is lost: every later call on it fails
// with the same error, so a run would go on recording failed results one after another. The backend names the
// fault in its provenance ("device_fault"), and gpulab bench ends the run non-zero with a sentence naming it.
class StickyFaultRecord {
 public:
  static StickyFaultRecord& instance() {
    static StickyFaultRecord record;
    return record;
  }
  // Keeps the first fault; later ones are its echoes.
  void note(int code, const std::string& description) {
    if (!is_sticky_cuda_error(code)) return;
    const std::lock_guard lock(m_mutex);
    if (m_description.empty()) m_description = description;
  }
  std::string description() const {
    const std::lock_guard lock(m_mutex);
    return m_description;
  }

 private:
  mutable std::mutex m_mutex;
  std::string m_description;
};

}  // namespace gpulab::cuda

#pragma once
// The emulator's errors, in a header of their own so code that only calls the tracer (the app's "Inside the kernel"
// page) can catch them without seeing the emulator's CUDA-like types.
#include <stdexcept>

namespace gpulab::emu {

// A fault a GPU would punish (a partial barrier, an over-limit launch, a write outside an allocation), naming the
// kernel.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by a launch that was asked to stop (set_stop_check in launch.hpp) between two blocks.
class LaunchStopped : public KernelError {
 public:
  using KernelError::KernelError;
};

}  // namespace gpulab::emu

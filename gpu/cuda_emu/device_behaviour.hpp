#pragma once
// A real GPU's behaviour that a measurement meets, simulated by the emulated runtime when asked (environment, read
// once per process; unset = the plain emulator, a steady device with nothing simulated):
//   GPULAB_EMU_CLOCK=ramp          an idle clock ramping to boost: device work runs at 345/1980 of full speed at
//                                  first, then faster in steps (as a driver raises the clock), at full speed once the
//                                  device has been busy 150 ms; the first launch of the module costs ~30 ms (context
//                                  and module load) and each kernel's first launch ~2 ms (lazy loading, PTX JIT).
//                                  Idle time cools the device again: boost holds through gaps under ~1 s, and
//                                  the clock is back at idle after ~2 s without work.
//                                  "steady" or unset: today's device, no slowdown, no first-launch cost.
//   GPULAB_EMU_FAULT=sticky-after:N  launch N (1-based, kernels and library GEMMs counted together) faults with
//                                  cudaErrorIllegalAddress, and that error sticks: every later runtime call returns it.
//   GPULAB_EMU_HOST_MEM_MB=N       the host memory the module believes is available (its MemAvailable reading).
// The launch entry points (block_scheduler.cpp's run_grid, the emulated cuBLAS and cuBLASLt GEMMs) call
// begin_launch() and hold a DeviceWork for the work; every runtime call checks sticky_fault() first.
#include <chrono>
#include <optional>

namespace gpulab::emu {

// Counts the launch. Returns 0 to run it, or the sticky error it faults with (the launch must not run; the caller
// reports the error as a launch error: cudaGetLastError and every later call return it).
int begin_launch();

// The sticky error the device is in (cudaErrorIllegalAddress after the simulated fault), else 0.
int sticky_fault();

// Brackets one launch's device work, named by `key` (the kernel's address, or a library entry's name): the
// constructor pays the first-launch costs, the destructor stretches the work to what the ramping clock makes it.
// Costs nothing while the clock is steady.
class DeviceWork {
 public:
  explicit DeviceWork(const void* key);
  ~DeviceWork();
  DeviceWork(const DeviceWork&) = delete;
  DeviceWork& operator=(const DeviceWork&) = delete;

 private:
  bool m_active = false;
  std::chrono::steady_clock::time_point m_start{};
};

// GPULAB_EMU_HOST_MEM_MB in bytes, when set; nullopt: the module reads /proc/meminfo as on a real machine.
std::optional<double> simulated_host_available_bytes();

}  // namespace gpulab::emu

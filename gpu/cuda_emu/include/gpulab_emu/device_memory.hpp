#pragma once
// Device memory for the emulator: every cudaMalloc is surrounded by guard zones, and the allocation itself starts
// out as NaN, as uninitialised device memory would be garbage. A kernel that reads past an array gets NaN (and an
// AddressSanitizer report in the ASan build, where the guards are poisoned); one that writes past it is named
// after the launch, when the guards are checked.
#include <cstddef>

namespace gpulab::emu {

// The emulated device's memory: cudaMemGetInfo reports it, and cudaMalloc refuses what would not fit.
constexpr std::size_t kDeviceMemoryBytes = std::size_t{4} << 30;
// Single allocations larger than this are refused with cudaErrorMemoryAllocation, like a card whose free memory
// is not one block; GPULAB_EMU_MAX_ALLOCATION_BYTES lowers it (read at every call), so tests can provoke a refused
// cudaMalloc after a free-memory check has passed.
constexpr std::size_t kMaxAllocationBytes = kDeviceMemoryBytes;
std::size_t max_allocation_bytes();

void* allocate_guarded(std::size_t bytes);  // nullptr when refused
bool free_guarded(void* data);              // false: not an allocation of ours
// True when [p, p + bytes) lies inside one live allocation.
bool inside_allocation(const void* p, std::size_t bytes);
// Throws KernelError naming `kernel` when a launch wrote into any guard zone.
void check_guard_zones(const char* kernel);
// Live allocations (tests check that every one was freed) and the bytes they hold (for cudaMemGetInfo).
std::size_t live_allocations();
std::size_t live_device_bytes();

}  // namespace gpulab::emu

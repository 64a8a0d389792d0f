#pragma once
// Device memory for the emulator: every cudaMalloc is surrounded by guard zones, and the allocation itself starts
// out as NaN, as uninitialised device memory would be garbage. A kernel that reads past an array gets NaN (and an
// AddressSanitizer report in the ASan build, where the guards are poisoned); one that writes past it is named
// after the launch, when the guards are checked.
#include <cstddef>

namespace gpulab::emu {

// Allocations larger than this are refused with cudaErrorMemoryAllocation, like a card that is full; tests use
// it to provoke a failed cudaMalloc.
constexpr std::size_t kMaxAllocationBytes = std::size_t{4} << 30;

void* allocate_guarded(std::size_t bytes);  // nullptr when refused
bool free_guarded(void* data);              // false: not an allocation of ours
// True when [p, p + bytes) lies inside one live allocation.
bool inside_allocation(const void* p, std::size_t bytes);
// Throws KernelError naming `kernel` when a launch wrote into any guard zone.
void check_guard_zones(const char* kernel);
// Live allocations (tests check that every one was freed).
std::size_t live_allocations();

}  // namespace gpulab::emu

#pragma once
// Device-local memory held on purpose for the memory page (Backend::hold_memory on Vulkan): allocated in chunks,
// each bound to a buffer and filled on the device so the memory is really in use, freed when the holder goes.
// Every allocation is owned by a Buffer (vk_device.hpp); a refusal by the device frees what the step had taken
// and becomes gpulab::DeviceOutOfMemory.
#include "backend_internal.hpp"

#include <atomic>
#include <functional>
#include <memory>

namespace gpulab::vk {

// What this process holds through holds right now: the reading without VK_EXT_memory_budget subtracts it.
struct HoldLedger {
  std::atomic<double> bytes{0};
};

// The largest single allocation a hold makes: small enough that a fragmented heap still fits the chunks, and
// within the device's maxMemoryAllocationSize.
double hold_chunk_bytes(const DeviceFacts& f);

std::unique_ptr<HeldMemory> make_held_memory(Ctx ctx, std::shared_ptr<HoldLedger> ledger, double bytes,
                                             MemoryInfo before, std::function<MemoryInfo()> read_after);

}  // namespace gpulab::vk

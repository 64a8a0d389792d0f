#include <gpulab_emu/device_memory.hpp>

#include "asan.hpp"

#include <gpulab_emu/launch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>


namespace gpulab::emu {
namespace {

constexpr std::size_t kAlignment = 256;  // what cudaMalloc guarantees
constexpr std::size_t kGuardBytes = 1024;
constexpr unsigned char kFreshByte = 0xFF;  // a new allocation's contents: all bits set, NaN in every float format
// Guard zones hold a *signalling* NaN (0x7FA5A5A5 as a float). A read gives NaN, as fresh memory does, but any
// arithmetic on it yields a quiet NaN with other bits: so even a kernel that writes NaN computed from a guard back
// past the end of an array changes the guard's bytes, and the check below sees it.
constexpr unsigned char kGuardPattern[4] = {0xA5, 0xA5, 0xA5, 0x7F};

// Guard bytes follow the pattern by their offset from the (256-aligned) base, wherever a zone starts.
void fill_guard(unsigned char* base, std::size_t from, std::size_t count) {
  for (std::size_t i = from; i < from + count; ++i) base[i] = kGuardPattern[i % 4];
}
[[maybe_unused]] std::size_t count_changed(const unsigned char* base, std::size_t from, std::size_t count) {
  std::size_t changed = 0;
  for (std::size_t i = from; i < from + count; ++i) changed += base[i] != kGuardPattern[i % 4];
  return changed;
}

struct Allocation {
  unsigned char* base = nullptr;  // start of the front guard
  std::size_t bytes = 0;          // what the caller asked for
  std::size_t total = 0;          // guard + bytes rounded up + guard
};

std::mutex g_mutex;
std::map<std::uintptr_t, Allocation> g_allocations;  // keyed by the address handed out

unsigned char* data_of(const Allocation& a) { return a.base + kGuardBytes; }

// The bytes after the array up to the end of the back guard, including the rounding slack (reading the slack
// would not fault on a GPU, but it is still outside the array).
std::size_t tail_bytes(const Allocation& a) { return a.total - kGuardBytes - a.bytes; }

}  // namespace

std::size_t max_allocation_bytes() {
  const char* v = std::getenv("GPULAB_EMU_MAX_ALLOCATION_BYTES");
  if (!v || !*v) return kMaxAllocationBytes;
  return std::min<std::size_t>(kMaxAllocationBytes, std::strtoull(v, nullptr, 10));
}

void* allocate_guarded(std::size_t bytes) {
  if (bytes > max_allocation_bytes() || bytes > kDeviceMemoryBytes - live_device_bytes()) return nullptr;
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  Allocation a;
  a.bytes = bytes;
  a.total = kGuardBytes + rounded + kGuardBytes;
  a.base = static_cast<unsigned char*>(std::aligned_alloc(kAlignment, a.total));
  if (!a.base) return nullptr;
  std::memset(a.base, kFreshByte, a.total);
  fill_guard(a.base, 0, kGuardBytes);
  fill_guard(a.base, kGuardBytes + bytes, tail_bytes(a));
#if defined(GPULAB_EMU_ASAN)
  ASAN_POISON_MEMORY_REGION(a.base, kGuardBytes);
  ASAN_POISON_MEMORY_REGION(data_of(a) + bytes, tail_bytes(a));
#endif
  const std::lock_guard lock(g_mutex);
  g_allocations.emplace(reinterpret_cast<std::uintptr_t>(data_of(a)), a);
  return data_of(a);
}

bool free_guarded(void* data) {
  Allocation a;
  {
    const std::lock_guard lock(g_mutex);
    const auto it = g_allocations.find(reinterpret_cast<std::uintptr_t>(data));
    if (it == g_allocations.end()) return false;
    a = it->second;
    g_allocations.erase(it);
  }
#if defined(GPULAB_EMU_ASAN)
  ASAN_UNPOISON_MEMORY_REGION(a.base, a.total);
#endif
  std::free(a.base);
  return true;
}

bool inside_allocation(const void* p, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  const std::lock_guard lock(g_mutex);
  auto it = g_allocations.upper_bound(address);
  if (it == g_allocations.begin()) return false;
  --it;
  return address >= it->first && address + bytes <= it->first + it->second.bytes;
}

void check_guard_zones(const char* kernel) {
#if defined(GPULAB_EMU_ASAN)
  // The guards are poisoned: AddressSanitizer has already stopped any kernel that touched them.
  (void)kernel;
#else
  const std::lock_guard lock(g_mutex);
  for (const auto& [address, a] : g_allocations) {
    const std::size_t before = count_changed(a.base, 0, kGuardBytes);
    const std::size_t after = count_changed(a.base, kGuardBytes + a.bytes, tail_bytes(a));
    if (before + after == 0) continue;
    fill_guard(a.base, 0, kGuardBytes);  // report each overrun once
    fill_guard(a.base, kGuardBytes + a.bytes, tail_bytes(a));
    throw KernelError(std::string("kernel ") + kernel + " wrote outside an allocation of " + std::to_string(a.bytes) +
                      " bytes: " + std::to_string(before) + " bytes changed before its start, " +
                      std::to_string(after) + " after its end");
  }
#endif
}

std::size_t live_allocations() {
  const std::lock_guard lock(g_mutex);
  return g_allocations.size();
}

std::size_t live_device_bytes() {
  const std::lock_guard lock(g_mutex);
  std::size_t sum = 0;
  for (const auto& [address, a] : g_allocations) sum += a.bytes;
  return sum;
}

}  // namespace gpulab::emu

#include "access_watch.hpp"

#include "kernel_symbols.hpp"  // the emulator's own lookup of a kernel's __shared__ arrays

#include <gpulab_emu/builtins.hpp>
#include <gpulab_emu/kernel_trace.hpp>

#include <algorithm>
#include <cctype>

namespace gpulab::lab {
namespace {

// The emulator's guard zones are 1 KiB on each side of an allocation: an access there is an array's neighbour,
// not some other object.
constexpr std::uintptr_t kGuardBytes = 1024;
// No allocation lives in the first 64 KiB: an access there is a null (or nearly null) pointer.
constexpr std::uintptr_t kNullPage = 64 * 1024;

thread_local AccessWatch* t_watch = nullptr;

void watch_hook(const void* address, int bytes, bool store, const void* pc) {
  g_last_access.pc = pc;
  if (t_watch) t_watch->access(address, bytes, store, pc);
}

std::uint32_t linear_thread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

std::string where_now() {
  return "thread " + triple(threadIdx.x, threadIdx.y, threadIdx.z) + " of block " +
         triple(blockIdx.x, blockIdx.y, blockIdx.z);
}

std::string thread_name(std::uint32_t linear) {
  const std::uint32_t x = linear % blockDim.x, y = linear / blockDim.x % blockDim.y,
                      z = linear / (blockDim.x * blockDim.y);
  return "thread " + triple(x, y, z);
}

// `_ZZ<function>E2As` → "As" (a function-local static's own name).
std::string shared_name(const std::string& symbol) {
  const std::size_t e = symbol.rfind('E');
  if (e == std::string::npos) return symbol;
  std::size_t i = e + 1, length = 0;
  while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i]))) length = length * 10 + (symbol[i++] - '0');
  return length > 0 && i + length <= symbol.size() ? symbol.substr(i, length) : symbol;
}

}  // namespace

LastAccess g_last_access;

void remember_last_access(const void*, int, bool, const void* pc) { g_last_access.pc = pc; }

std::string triple(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

AccessWatch::AccessWatch(const Array& a, const Array& b, const Array& c) : m_arrays{a, b, c} {
  m_writers.assign(c.bytes / sizeof(float), CellWriter{});
  t_watch = this;
  emu::set_access_hook(&watch_hook);
  m_previous_observer = emu::set_block_observer(this);
}

AccessWatch::~AccessWatch() {
  emu::set_block_observer(m_previous_observer);
  emu::set_access_hook(&remember_last_access);
  t_watch = nullptr;
}

void AccessWatch::block_started(const emu::LaunchRequest& request, const uint3&) {
  m_phase = 0;
  if (request.function != m_kernel) {
    m_kernel = request.function;
    m_shared.clear();
    for (const emu::SharedArray& s : emu::kernel_symbols(request.function).shared)
      m_shared.push_back(SharedArrayShadow{shared_name(s.symbol), s.address, s.bytes, {}});
  }
  for (SharedArrayShadow& s : m_shared) s.words.assign((s.bytes + 3) / 4, SharedWord{});
}

void AccessWatch::check_global(const Array& array, std::uintptr_t address, int bytes, bool store, const void* pc) const {
  const auto base = reinterpret_cast<std::uintptr_t>(array.base);
  const std::uintptr_t end = base + array.bytes;
  if (address >= base && address + static_cast<std::uintptr_t>(bytes) <= end) return;
  const bool before = address + kGuardBytes >= base && address < base;
  const bool after = address + static_cast<std::uintptr_t>(bytes) > end && address < end + kGuardBytes;
  if (!before && !after) return;
  const long long element = (static_cast<long long>(address) - static_cast<long long>(base)) / 4;
  const long long count = static_cast<long long>(array.bytes / 4);
  const std::string what = std::string(store ? "writes " : "reads ") + array.name + "[" + std::to_string(element) +
                           "], " +
                           (before ? std::to_string(-element) + " element(s) before its start"
                                   : std::to_string(element - count + 1) + " element(s) past its end") +
                           " (" + array.name + " has " + std::to_string(count) + ")";
  throw AccessFault(where_now() + " " + what, pc);
}

void AccessWatch::watch_shared(SharedArrayShadow& array, std::uintptr_t address, int bytes, bool store, const void* pc) {
  const std::uintptr_t offset = address - reinterpret_cast<std::uintptr_t>(array.base);
  const std::uint32_t me = linear_thread();
  const std::uint32_t phase = m_phase + 1;
  for (std::uintptr_t w = offset / 4; w <= (offset + static_cast<std::uintptr_t>(bytes) - 1) / 4 && w < array.words.size(); ++w) {
    SharedWord& word = array.words[w];
    const std::string element = array.name + " element " + std::to_string(w);
    if (store) {
      if (word.read_phase == phase && word.reader != me)
        throw AccessFault(where_now() + " writes " + element + ", which " + thread_name(word.reader) +
                              " read since the last __syncthreads(): a race (is a __syncthreads() missing before "
                              "this write, after the reads of the previous tile?)",
                          pc);
      word.write_phase = phase;
      word.writer = me;
    } else {
      if (word.write_phase == 0)
        throw AccessFault(where_now() + " reads " + element +
                              " before any thread of the block wrote it (shared memory starts as garbage; here NaN): is a "
                              "__syncthreads() missing between the writes and this read?",
                          pc);
      if (word.write_phase == phase && word.writer != me)
        throw AccessFault(where_now() + " reads " + element + ", which " + thread_name(word.writer) +
                              " wrote since the last __syncthreads(): a race (is a __syncthreads() missing between "
                              "the writes and this read?)",
                          pc);
      word.read_phase = phase;
      word.reader = me;
    }
  }
}

void AccessWatch::access(const void* address, int bytes, bool store, const void* pc) {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  if (a < kNullPage)
    throw AccessFault(where_now() + (store ? " writes" : " reads") + " address " + std::to_string(a) +
                          ": a null pointer (or an offset from one)",
                      pc);
  for (SharedArrayShadow& s : m_shared) {
    const auto base = reinterpret_cast<std::uintptr_t>(s.base);
    if (a >= base && a < base + s.bytes) return watch_shared(s, a, bytes, store, pc);
  }
  for (const Array& array : m_arrays) check_global(array, a, bytes, store, pc);
  const Array& c = m_arrays[2];
  const auto c_base = reinterpret_cast<std::uintptr_t>(c.base);
  if (store && a >= c_base && a < c_base + c.bytes) {
    for (std::uintptr_t cell = (a - c_base) / 4; cell <= (a - c_base + static_cast<std::uintptr_t>(bytes) - 1) / 4 && cell < m_writers.size(); ++cell) {
      CellWriter& w = m_writers[cell];
      w.block = {blockIdx.x, blockIdx.y, blockIdx.z};
      w.thread = {threadIdx.x, threadIdx.y, threadIdx.z};
      w.written = true;
    }
  }
}

}  // namespace gpulab::lab

#include "trace_recorder.hpp"

#include "../kernel_symbols.hpp"

#include <gpulab_emu/builtins.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace gpulab::emu {
namespace {


// The array's name from a static local's mangled symbol: `_ZZ<function>E2As` (maybe `_0` after it) → "As".
std::string shared_array_name(const std::string& symbol) {
  const std::size_t e = symbol.rfind('E');
  if (e == std::string::npos) return symbol;
  std::size_t i = e + 1, len = 0;
  while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i]))) len = len * 10 + (symbol[i++] - '0');
  return len > 0 && i + len <= symbol.size() ? symbol.substr(i, len) : symbol;
}

unsigned linear_thread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

}  // namespace

namespace {
thread_local TraceRecorder* t_recorder = nullptr;
thread_local AccessHook t_access_hook = nullptr;
}  // namespace

TraceRecorder* active_trace_recorder() { return t_recorder; }
AccessHook active_access_hook() { return t_access_hook; }

AccessHook set_access_hook(AccessHook hook) {
  const AccessHook previous = t_access_hook;
  t_access_hook = hook;
  return previous;
}

void TraceRecorder::add_global(const std::string& name, const void* base, std::size_t bytes) {
  m_regions.insert(m_regions.begin() + static_cast<long>(m_global_regions),
                   Region{name, static_cast<const unsigned char*>(base), bytes, false, 0});
  ++m_global_regions;
}

void TraceRecorder::set_output(const void* base, int cells) {
  m_output = static_cast<const unsigned char*>(base);
  m_output_cells = cells;
  m_owner_block.assign(static_cast<std::size_t>(cells), -1);
  m_owner_warp.assign(static_cast<std::size_t>(cells), -1);
  m_owner_lane.assign(static_cast<std::size_t>(cells), -1);
}

void TraceRecorder::start() {
  if (t_recorder && t_recorder != this) throw std::logic_error("a kernel trace is already running on this thread");
  t_recorder = this;
  set_block_observer(this);
  m_active = true;
}

void TraceRecorder::stop() {
  if (!m_active) return;
  m_active = false;
  t_recorder = nullptr;
  set_block_observer(nullptr);
}

int TraceRecorder::region_of(const void* address) const {
  const auto* p = static_cast<const unsigned char*>(address);
  for (std::size_t i = 0; i < m_regions.size(); ++i)
    if (p >= m_regions[i].base && p < m_regions[i].base + m_regions[i].bytes) return static_cast<int>(i);
  return -1;
}

int TraceRecorder::site_for(const void* pc, int region, bool store, int bytes) {
  const auto found = m_sites.find(pc);
  if (found != m_sites.end()) return found->second;
  const Region& r = m_regions[static_cast<std::size_t>(region)];
  int group = -1;
  for (std::size_t i = 0; i < m_instructions.size(); ++i) {
    const InstructionTrace& t = m_instructions[i];
    if (t.array == r.name && t.store == store && t.access_bytes == bytes) group = static_cast<int>(i);
  }
  if (group < 0) {
    InstructionTrace t;
    t.array = r.name;
    t.shared = r.shared;
    t.store = store;
    t.access_bytes = bytes;
    t.name = std::string(store ? "store " : "load ") + r.name;
    if (bytes != 4) t.name += " (" + std::to_string(bytes) + " B)";
    m_instructions.push_back(t);
    group = static_cast<int>(m_instructions.size()) - 1;
    for (auto& seen : m_group_seen) seen.resize(m_instructions.size(), false);
  }
  const int site = static_cast<int>(m_site_group.size());
  m_site_group.push_back(group);
  m_sites.emplace(pc, site);
  for (auto& per_thread : m_executions) per_thread.resize(m_site_group.size(), 0);
  return site;
}

void TraceRecorder::access(const void* address, int bytes, bool store, const void* pc) {
  const int region = region_of(address);
  if (region < 0) return;  // the thread's own stack, the launch's parameters: not device memory
  const int site = site_for(pc, region, store, bytes);
  const int inst = m_site_group[static_cast<std::size_t>(site)];
  const unsigned thread = linear_thread();
  const unsigned warp = thread / 32, lane = thread % 32;
  std::uint32_t& executions = m_executions[thread][static_cast<std::size_t>(site)];
  const std::uint64_t key = (std::uint64_t{warp} << 48) | (std::uint64_t(site) << 32) | executions;
  ++executions;
  Request& req = m_requests[key];
  req.instruction = inst;
  if (req.count < 32) {
    req.lanes[req.count] = static_cast<int>(lane);
    req.address[req.count] = reinterpret_cast<std::uintptr_t>(address);
    ++req.count;
  }
  const Region& r = m_regions[static_cast<std::size_t>(region)];
  const auto element = static_cast<std::int32_t>((static_cast<const unsigned char*>(address) - r.base) / 4);
  if (store && m_output && r.base == m_output) {
    for (int b = 0; b < bytes / 4 || b == 0; ++b) {
      const std::int32_t cell = element + b;
      if (cell < 0 || cell >= m_output_cells) continue;
      m_owner_block[cell] = m_block_linear;
      m_owner_warp[cell] = static_cast<std::int32_t>(warp);
      m_owner_lane[cell] = static_cast<std::int32_t>(lane);
    }
  }
  if (m_block0) {
    if (m_events.size() < kEventCap)
      m_events.push_back(BlockEvent{m_phase, static_cast<std::uint16_t>(thread), static_cast<std::uint8_t>(inst), element});
    else
      ++m_events_dropped;
    std::vector<bool>& seen = m_group_seen[thread];
    if (!seen[static_cast<std::size_t>(inst)]) {  // this thread's first access of the group: the warp's sample
      seen[static_cast<std::size_t>(inst)] = true;
      auto it = std::find_if(m_samples.begin(), m_samples.end(), [&](const WarpSample& s) {
        return s.instruction == inst && s.warp == static_cast<int>(warp);
      });
      if (it == m_samples.end()) {
        WarpSample s;
        s.instruction = inst;
        s.warp = static_cast<int>(warp);
        s.element.fill(-1);
        m_samples.push_back(s);
        it = m_samples.end() - 1;
      }
      it->element[lane] = element;
    }
  }
}

void TraceRecorder::block_started(const LaunchRequest& request, const uint3& block) {
  m_block_dim = request.block;
  m_threads = request.block.x * request.block.y * request.block.z;
  m_block_linear = static_cast<int>(block.x + request.grid.x * (block.y + request.grid.y * block.z));
  m_block0 = block.x == 0 && block.y == 0 && block.z == 0;
  m_phase = 0;
  m_executions.assign(m_threads, std::vector<std::uint32_t>(m_site_group.size(), 0));
  if (m_block0) m_group_seen.assign(m_threads, std::vector<bool>(m_instructions.size(), false));
  m_requests.clear();
  if (m_block0) {
    // The kernel's __shared__ arrays, laid out one after another as the GPU would place them (for bank numbers).
    m_regions.resize(m_global_regions);
    std::size_t offset = 0;
    std::vector<SharedArray> arrays = kernel_symbols(request.function).shared;
    std::sort(arrays.begin(), arrays.end(), [](const SharedArray& a, const SharedArray& b) { return a.address < b.address; });
    for (const SharedArray& a : arrays) {
      m_regions.push_back(Region{shared_array_name(a.symbol), a.address, a.bytes, true, offset});
      offset += (a.bytes + 15) / 16 * 16;
    }
  }
}

void TraceRecorder::barrier_passed() {
  ++m_phase;
  if (m_block0) ++m_block0_barriers;
}

void TraceRecorder::finish_request(const Request& r) {
  InstructionTrace& t = m_instructions[static_cast<std::size_t>(r.instruction)];
  const int size = t.access_bytes;
  ++t.requests;
  t.thread_accesses += r.count;
  // Distinct bytes: merge the lanes' [address, address + size) ranges.
  std::vector<std::uintptr_t> starts(r.address, r.address + r.count);
  std::sort(starts.begin(), starts.end());
  std::uintptr_t covered_to = 0;
  for (std::uintptr_t a : starts) {
    const std::uintptr_t from = std::max(a, covered_to);
    if (a + size > from) t.bytes_used += static_cast<long long>(a + size - from);
    covered_to = std::max(covered_to, a + size);
  }
  if (!t.shared) {
    std::vector<std::uintptr_t> sectors;
    for (std::uintptr_t a : starts)
      for (std::uintptr_t s = a / 32; s <= (a + size - 1) / 32; ++s) sectors.push_back(s);
    std::sort(sectors.begin(), sectors.end());
    t.sectors += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
    return;
  }
  // Shared memory: 32 banks of 4 bytes. A request of 8- or 16-byte accesses is served in 2 or 4 phases of 16 or 8
  // lanes; in each phase a bank serves one 4-byte word at a time (the same word to several lanes is a broadcast).
  const Region* region = nullptr;
  for (const Region& reg : m_regions)
    if (reg.shared && reg.name == t.array) region = &reg;
  const int lanes_per_phase = size >= 8 ? 32 / (size / 4) : 32;
  const int phases = 32 / lanes_per_phase;
  for (int phase = 0; phase < phases; ++phase) {
    std::vector<std::uintptr_t> words[32];
    bool any = false;
    for (int i = 0; i < r.count; ++i) {
      if (r.lanes[i] / lanes_per_phase != phase) continue;
      any = true;
      const std::uintptr_t offset = r.address[i] - reinterpret_cast<std::uintptr_t>(region->base) + region->bank_offset;
      for (int w = 0; w < std::max(1, size / 4); ++w) {
        const std::uintptr_t word = offset / 4 + static_cast<std::uintptr_t>(w);
        auto& bank = words[word % 32];
        if (std::find(bank.begin(), bank.end(), word) == bank.end()) bank.push_back(word);
      }
    }
    if (!any) continue;
    std::size_t worst = 1;
    for (const auto& bank : words) worst = std::max(worst, bank.size());
    t.wavefronts += static_cast<long long>(worst);
    ++t.ideal_wavefronts;
  }
}

void TraceRecorder::block_finished() {
  for (const auto& [key, request] : m_requests) finish_request(request);
  m_requests.clear();
  m_block0 = false;
}

void TraceRecorder::take(StepTrace& out) {
  out.instructions = std::move(m_instructions);
  out.owner_block = std::move(m_owner_block);
  out.owner_warp = std::move(m_owner_warp);
  out.owner_lane = std::move(m_owner_lane);
  std::sort(m_samples.begin(), m_samples.end(), [](const WarpSample& a, const WarpSample& b) {
    return a.instruction != b.instruction ? a.instruction < b.instruction : a.warp < b.warp;
  });
  out.samples = std::move(m_samples);
  out.block0_events = std::move(m_events);
  out.block0_events_dropped = m_events_dropped;
  out.block0_barriers = m_block0_barriers;
}

}  // namespace gpulab::emu

// ---- the callbacks the traced kernel objects call (clang -fsanitize-coverage=trace-pc-guard,trace-loads,...) ----
// The edge callbacks are required by the instrumentation mode but unused: weak, so a fuzzing runtime's own
// definitions win where one is linked in.
extern "C" {
__attribute__((weak)) void __sanitizer_cov_trace_pc_guard_init(std::uint32_t*, std::uint32_t*) {}
__attribute__((weak)) void __sanitizer_cov_trace_pc_guard(std::uint32_t*) {}

// `store` and the size come from the callback's name; the return address is the kernel's load or store
// instruction, which names it across threads and executions.
#define GPULAB_TRACE_CALLBACK(name, bytes, store)                                                   \
  void name(void* address) {                                                                       \
    if (gpulab::emu::AccessHook hook = gpulab::emu::active_access_hook())                         \
      hook(address, bytes, store, __builtin_return_address(0));                                   \
    if (gpulab::emu::TraceRecorder* r = gpulab::emu::active_trace_recorder())                     \
      r->access(address, bytes, store, __builtin_return_address(0));                              \
  }
GPULAB_TRACE_CALLBACK(__sanitizer_cov_load1, 1, false)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_load2, 2, false)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_load4, 4, false)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_load8, 8, false)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_load16, 16, false)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_store1, 1, true)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_store2, 2, true)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_store4, 4, true)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_store8, 8, true)
GPULAB_TRACE_CALLBACK(__sanitizer_cov_store16, 16, true)
#undef GPULAB_TRACE_CALLBACK

// A float4 copy in the traced kernels (types.hpp): one 16-byte load of the source and one 16-byte store of the
// destination. This file is compiled without the callbacks, so the copy itself is not counted again.
void gpulab_emu_traced_copy16(void* dst, const void* src) {
  if (gpulab::emu::AccessHook hook = gpulab::emu::active_access_hook()) {
    const void* pc = __builtin_return_address(0);
    hook(src, 16, false, pc);
    hook(dst, 16, true, pc);
  }
  if (gpulab::emu::TraceRecorder* r = gpulab::emu::active_trace_recorder()) {
    const void* pc = __builtin_return_address(0);
    r->access(src, 16, false, pc);
    r->access(dst, 16, true, static_cast<const char*>(pc) + 1);  // a different instruction from the load
  }
  std::memcpy(dst, src, 16);
}
}  // extern "C"

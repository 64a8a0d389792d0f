#pragma once
// Collects the memory accesses of an emulated launch into per-instruction statistics (kernel_trace.hpp). The
// traced kernel objects call the sanitizer-coverage callbacks defined in trace_recorder.cpp for every load and
// store; while a recorder is active on the thread, accesses that fall in a registered array are grouped into warp
// requests and, at the end of each block, turned into sectors (global) or bank wavefronts (shared). Memory stays
// bounded: only the running block's requests are kept.
#include <gpulab_emu/kernel_trace.hpp>
#include <gpulab_emu/launch.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpulab::emu {

class TraceRecorder final : public BlockObserver {
 public:
  static constexpr std::size_t kEventCap = 1 << 20;

  // A global array the kernel will be given (A, B, C): accesses inside it are traced under `name`.
  void add_global(const std::string& name, const void* base, std::size_t bytes);
  // C's cells get an owner (block, warp, lane) from the stores into it.
  void set_output(const void* base, int cells);

  // Installs itself as the thread's block observer and access sink; the destructor (or stop) removes it.
  void start();
  void stop();
  ~TraceRecorder() override { stop(); }

  void access(const void* address, int bytes, bool store, const void* pc);

  void block_started(const LaunchRequest& request, const uint3& block) override;
  void barrier_passed() override;
  void block_finished() override;

  // Moves what was recorded into `out` (instructions, owners, samples, block-0 events).
  void take(StepTrace& out);

 private:
  struct Region {
    std::string name;
    const unsigned char* base = nullptr;
    std::size_t bytes = 0;
    bool shared = false;
    std::size_t bank_offset = 0;  // shared: the array's byte offset in the block's shared window (bank mapping)
  };
  struct Request {
    int instruction = 0;  // the group
    int count = 0;
    int lanes[32];
    std::uintptr_t address[32];
  };

  int region_of(const void* address) const;
  // A load or store site of the kernel (one per unrolled copy, as on the GPU), and the group it is shown under:
  // every site that accesses the same array the same way (load/store, width).
  int site_for(const void* pc, int region, bool store, int bytes);
  void finish_request(const Request& r);

  std::vector<Region> m_regions;
  std::size_t m_global_regions = 0;
  const unsigned char* m_output = nullptr;
  int m_output_cells = 0;
  bool m_active = false;

  std::unordered_map<const void*, int> m_sites;  // return address → site id
  std::vector<int> m_site_group;                  // site id → index into m_instructions
  std::vector<InstructionTrace> m_instructions;   // one per group
  std::vector<std::vector<std::uint32_t>> m_executions;  // [thread][site]: executions so far this block
  std::vector<std::vector<bool>> m_group_seen;          // block 0, [thread][group]: sampled already
  std::unordered_map<std::uint64_t, Request> m_requests;  // (warp, site, k) → the lanes' addresses
  std::vector<std::int32_t> m_owner_block, m_owner_warp, m_owner_lane;
  std::vector<WarpSample> m_samples;
  std::vector<BlockEvent> m_events;
  long long m_events_dropped = 0;
  long long m_block0_barriers = 0;

  int m_block_linear = 0;
  bool m_block0 = false;
  std::uint32_t m_phase = 0;
  unsigned m_threads = 0;
  dim3 m_block_dim;
};

// The recorder started on this thread, or nullptr (the callbacks' fast path).
TraceRecorder* active_trace_recorder();
// The hook set_access_hook installed on this thread, or nullptr.
AccessHook active_access_hook();

}  // namespace gpulab::emu

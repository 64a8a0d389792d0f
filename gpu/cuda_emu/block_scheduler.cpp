// Runs a grid on the CPU the way CUDA's execution model defines it: blocks one after another, and within a block
// every thread on its own fiber (ucontext), so a thread can stop at __syncthreads and let the others catch up.
//
// A block runs in phases. In each phase every ready thread runs until it reaches a barrier or returns; then the
// phase is judged: if all live threads wait at the same barrier they are released together, and the next phase
// starts. Each thread runs alone up to its barrier, in thread order (reversed every other phase), which is the
// least forgiving order for a missing barrier: a thread that reads a tile before its neighbours wrote it sees
// the NaN the block started with, and a thread that overwrites a tile early clobbers values its neighbours have
// not read yet. It says nothing about speed.
#include <gpulab_emu/device_memory.hpp>
#include "asan.hpp"
#include "device_behaviour.hpp"
#include "kernel_symbols.hpp"
#include "runtime_state.hpp"

#include <gpulab_emu/builtins.hpp>
#include <gpulab_emu/launch.hpp>

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstring>
#include <exception>
#include <string>
#include <vector>


thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

namespace gpulab::emu {
namespace {

#if defined(GPULAB_EMU_ASAN)
constexpr std::size_t kStackBytes = 512 * 1024;  // ASan's redzones make frames several times larger
#else
constexpr std::size_t kStackBytes = 128 * 1024;
#endif

enum class ThreadState { ready, waiting, exited };

struct Fiber {
  ucontext_t context;
  ThreadState state = ThreadState::ready;
  bool started = false;
  uint3 index{};
  unsigned char* stack = nullptr;
  const char* barrier_file = nullptr;
  int barrier_line = 0;
  void* asan_fake_stack = nullptr;
};

// One mapping of fiber stacks, each with an inaccessible guard page below it (stacks grow down), reused by every
// launch on this thread that needs no more threads than it holds.
class StackPool {
 public:
  ~StackPool() { release(); }
  unsigned char* stack(std::size_t i) const { return m_base + i * kSlot + page(); }
  // A launch that stopped with an error leaves fibers abandoned mid-frame; under ASan their stacks keep those
  // frames' redzones, so the next launch clears them (once: clearing every stack per thread start is slow).
  void mark_abandoned() { m_abandoned = true; }
  void clean_if_abandoned() {
#if defined(GPULAB_EMU_ASAN)
    if (m_abandoned)
      for (std::size_t i = 0; i < m_count; ++i) ASAN_UNPOISON_MEMORY_REGION(stack(i), kStackBytes);
#endif
    m_abandoned = false;
  }
  void reserve(std::size_t threads) {
    clean_if_abandoned();
    if (threads <= m_count) return;
    release();
    const std::size_t bytes = threads * kSlot;
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw KernelError("emulator: cannot map " + std::to_string(bytes >> 20) + " MiB of fiber stacks");
    m_base = static_cast<unsigned char*>(p);
    m_count = threads;
    for (std::size_t i = 0; i < threads; ++i) ::mprotect(m_base + i * kSlot, page(), PROT_NONE);
  }

 private:
  static std::size_t page() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }
  void release() {
    if (m_base) ::munmap(m_base, m_count * kSlot);
    m_base = nullptr;
    m_count = 0;
  }
  static constexpr std::size_t kSlot = kStackBytes + 64 * 1024;  // stack + room for the guard page
  unsigned char* m_base = nullptr;
  std::size_t m_count = 0;
  bool m_abandoned = false;
};

struct BlockRun {
  std::vector<Fiber> fibers;
  ucontext_t scheduler;
  Fiber* current = nullptr;
  void (*body)(void*) = nullptr;
  void* context = nullptr;
  std::exception_ptr failure;
  const void* scheduler_stack_bottom = nullptr;
  std::size_t scheduler_stack_size = 0;
};

thread_local BlockRun* t_run = nullptr;
thread_local StackPool t_stacks;
thread_local LaunchRecord t_last_launch;
thread_local BlockObserver* t_observer = nullptr;
thread_local StopRequest t_stop;

// ---- fiber switches, told to ASan so it follows the stack pointer onto and off the fiber stacks ----
void switch_to_fiber(BlockRun& run, Fiber& fiber) {
#if defined(GPULAB_EMU_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, fiber.stack, kStackBytes);
  ::swapcontext(&run.scheduler, &fiber.context);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  ::swapcontext(&run.scheduler, &fiber.context);
#endif
}

void arrived_on_fiber(BlockRun& run, Fiber& fiber) {
#if defined(GPULAB_EMU_ASAN)
  __sanitizer_finish_switch_fiber(fiber.asan_fake_stack, &run.scheduler_stack_bottom, &run.scheduler_stack_size);
#else
  (void)run;
  (void)fiber;
#endif
}

void switch_to_scheduler(BlockRun& run, Fiber& fiber) {
#if defined(GPULAB_EMU_ASAN)
  __sanitizer_start_switch_fiber(&fiber.asan_fake_stack, run.scheduler_stack_bottom, run.scheduler_stack_size);
#endif
  ::swapcontext(&fiber.context, &run.scheduler);
  arrived_on_fiber(run, fiber);
}

void fiber_entry() {
  BlockRun& run = *t_run;
  Fiber& fiber = *run.current;
  arrived_on_fiber(run, fiber);
  try {
    run.body(run.context);
  } catch (...) {
    if (!run.failure) run.failure = std::current_exception();
  }
  fiber.state = ThreadState::exited;
#if defined(GPULAB_EMU_ASAN)
  __sanitizer_start_switch_fiber(nullptr, run.scheduler_stack_bottom, run.scheduler_stack_size);  // this fiber ends
#endif
  // Returning follows uc_link back to the scheduler.
}

void resume(BlockRun& run, Fiber& fiber) {
  threadIdx = fiber.index;
  run.current = &fiber;
  if (!fiber.started) {
    fiber.started = true;
    ::getcontext(&fiber.context);
    fiber.context.uc_stack.ss_sp = fiber.stack;
    fiber.context.uc_stack.ss_size = kStackBytes;
    fiber.context.uc_link = &run.scheduler;
    ::makecontext(&fiber.context, &fiber_entry, 0);
  }
  switch_to_fiber(run, fiber);
  run.current = nullptr;
}

std::string block_name(const uint3& b) {
  return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

std::string where(const char* file, int line) {
  const char* slash = std::strrchr(file, '/');
  return std::string(slash ? slash + 1 : file) + ":" + std::to_string(line);
}

// Runs one block to the end; throws KernelError when its threads disagree about a barrier.
void run_block(BlockRun& run, const LaunchRequest& request, long long& barriers) {
  const std::size_t n = run.fibers.size();
  for (std::size_t i = 0; i < n; ++i) {
    Fiber& f = run.fibers[i];
    f.state = ThreadState::ready;
    f.started = false;
    f.stack = t_stacks.stack(i);
  }
  for (long long phase = 0;; ++phase) {
    const bool reverse = phase % 2 == 1;
    for (std::size_t j = 0; j < n; ++j) {
      Fiber& f = run.fibers[reverse ? n - 1 - j : j];
      if (f.state == ThreadState::ready) resume(run, f);
      if (run.failure) std::rethrow_exception(run.failure);
    }
    std::size_t waiting = 0, exited = 0;
    const Fiber* first = nullptr;
    const Fiber* other = nullptr;
    std::size_t at_first = 0;
    for (const Fiber& f : run.fibers) {
      if (f.state == ThreadState::exited) {
        ++exited;
        continue;
      }
      ++waiting;
      if (!first) first = &f;
      if (f.barrier_line == first->barrier_line && std::strcmp(f.barrier_file, first->barrier_file) == 0)
        ++at_first;
      else if (!other)
        other = &f;
    }
    if (waiting == 0) return;
    const std::string kernel = std::string("kernel ") + request.name + ", " + block_name(blockIdx) + ": ";
    if (exited > 0)
      throw KernelError(kernel + "__syncthreads at " + where(first->barrier_file, first->barrier_line) +
                        " was reached by " + std::to_string(waiting) + " of " + std::to_string(n) +
                        " threads; the other " + std::to_string(exited) +
                        " had returned (a barrier must be reached by every thread of the block)");
    if (other)
      throw KernelError(kernel + "threads wait at different barriers: " + std::to_string(at_first) + " at " +
                        where(first->barrier_file, first->barrier_line) + ", others at " +
                        where(other->barrier_file, other->barrier_line) +
                        " (a branch around a __syncthreads that not every thread takes)");
    for (Fiber& f : run.fibers) f.state = ThreadState::ready;
    ++barriers;
    if (t_observer) t_observer->barrier_passed();
  }
}

void check_launch(const LaunchRequest& r, const KernelSymbols& symbols) {
  const DeviceLimits& lim = device_limits();
  const std::string kernel = std::string("kernel ") + r.name + ": ";
  const auto dims = [](const dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  };
  const unsigned long long threads = 1ull * r.block.x * r.block.y * r.block.z;
  if (threads == 0 || r.grid.x == 0 || r.grid.y == 0 || r.grid.z == 0)
    throw KernelError(kernel + "empty launch, grid " + dims(r.grid) + " block " + dims(r.block));
  if (r.block.x > lim.max_block_x || r.block.y > lim.max_block_y || r.block.z > lim.max_block_z ||
      threads > lim.max_threads_per_block)
    throw KernelError(kernel + "block " + dims(r.block) + " has " + std::to_string(threads) +
                      " threads; at most 1024 per block (x, y <= 1024, z <= 64)");
  if (r.grid.x > lim.max_grid_x || r.grid.y > lim.max_grid_y || r.grid.z > lim.max_grid_z)
    throw KernelError(kernel + "grid " + dims(r.grid) + " exceeds 2^31-1 x 65535 x 65535 blocks");
  // Static shared memory is capped at 48 KiB on every target (ptxas refuses more); beyond that a kernel must use
  // dynamic shared memory, and a launch may ask for more than 48 KiB of it only after the kernel's opt-in.
  const std::size_t declared = symbols.shared_bytes();
  if (declared > lim.shared_without_opt_in)
    throw KernelError(kernel + std::to_string(declared) + " bytes of static shared memory; at most " +
                      std::to_string(lim.shared_without_opt_in) + " may be declared");
  const std::size_t opted = state().opted_in_shared(r.function);
  const std::size_t dynamic_limit = opted > 0 ? opted : lim.shared_without_opt_in - declared;
  if (r.dynamic_shared > dynamic_limit || declared + r.dynamic_shared > lim.shared_with_opt_in)
    throw KernelError(kernel + std::to_string(declared + r.dynamic_shared) + " bytes of shared memory per block (" +
                      std::to_string(declared) + " static + " + std::to_string(r.dynamic_shared) + " dynamic) " +
                      (opted > 0 ? "exceeds the opt-in of " + std::to_string(opted)
                                 : std::string("exceeds 48 KiB without cudaFuncSetAttribute(MaxDynamicSharedMemorySize)")));
  if (r.dynamic_shared > 0)
    throw KernelError(kernel + "dynamic (extern __shared__) memory is not emulated; the module's kernels use none");
}

}  // namespace

const LaunchRecord& last_launch() { return t_last_launch; }

StopRequest set_stop_check(StopRequest request) {
  const StopRequest previous = t_stop;
  t_stop = request;
  return previous;
}

BlockObserver* set_block_observer(BlockObserver* observer) {
  BlockObserver* previous = t_observer;
  t_observer = observer;
  return previous;
}

const DeviceLimits& device_limits() {
  static const DeviceLimits limits;
  return limits;
}

void sync_threads(const char* file, int line) {
  BlockRun* run = t_run;
  if (!run || !run->current) throw KernelError("__syncthreads called outside a kernel");
  Fiber& fiber = *run->current;
  fiber.state = ThreadState::waiting;
  fiber.barrier_file = file;
  fiber.barrier_line = line;
  switch_to_scheduler(*run, fiber);
}

void run_grid(const LaunchRequest& request, void (*thread_body)(void*), void* context) {
  if (t_run) throw KernelError(std::string("kernel ") + request.name + ": launched from inside a kernel");
  const KernelSymbols& symbols = kernel_symbols(request.function);
  check_launch(request, symbols);
  // A simulated fault (GPULAB_EMU_FAULT): the kernel does not run and its error sticks, reported by the launch check
  // (cudaGetLastError) as a GPU's asynchronous fault would be at the next call.
  if (const int fault = begin_launch()) {
    last_error() = fault;
    return;
  }
  const DeviceWork device_work(request.function);  // a simulated clock (GPULAB_EMU_CLOCK) stretches the work

  LaunchRecord record;
  record.name = request.name;
  record.grid = request.grid;
  record.block = request.block;
  record.static_shared = symbols.shared_bytes();
  record.shared_found = symbols.found;

  const std::size_t threads = std::size_t{request.block.x} * request.block.y * request.block.z;
  t_stacks.reserve(threads);
  BlockRun run;
  run.fibers.resize(threads);
  run.body = thread_body;
  run.context = context;
  std::size_t i = 0;
  for (unsigned z = 0; z < request.block.z; ++z)
    for (unsigned y = 0; y < request.block.y; ++y)
      for (unsigned x = 0; x < request.block.x; ++x) run.fibers[i++].index = uint3{x, y, z};

  blockDim = request.block;
  gridDim = request.grid;
  struct ActiveRun {  // t_run is cleared however the launch ends
    explicit ActiveRun(BlockRun* r) { t_run = r; }
    ~ActiveRun() { t_run = nullptr; }
  } active(&run);
  for (unsigned bz = 0; bz < request.grid.z; ++bz)
    for (unsigned by = 0; by < request.grid.y; ++by)
      for (unsigned bx = 0; bx < request.grid.x; ++bx) {
        if (t_stop.check && t_stop.check(t_stop.context))
          throw LaunchStopped(std::string("kernel ") + request.name + ": stopped on request before block " +
                              std::to_string(record.blocks_run) + " of the grid");
        blockIdx = uint3{bx, by, bz};
        // A block starts with its shared memory full of NaN (all bits set: NaN as float, double, half and bf16).
        for (const SharedArray& a : symbols.shared) std::memset(a.address, 0xFF, a.bytes);
        if (t_observer) t_observer->block_started(request, blockIdx);
        try {
          run_block(run, request, record.barriers_passed);
          if (t_observer) t_observer->block_finished();
        } catch (...) {
          t_stacks.mark_abandoned();
          throw;
        }
        ++record.blocks_run;
      }
  t_last_launch = record;
  check_guard_zones(request.name);
}

}  // namespace gpulab::emu

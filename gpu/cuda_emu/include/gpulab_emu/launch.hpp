#pragma once
// The emulator's kernel launch: what `kernel<<<grid, block, shared, stream>>>(args...)` does under nvcc, the
// GPULAB_LAUNCH macro (gpu/cuda/kernels/launch.hpp) does here by calling gpulab::emu::launch(...)(args...).
// The launch runs synchronously: every block of the grid, one after another, each block's threads as fibers on
// the calling thread (block_scheduler.cpp). Problems a GPU would punish come back as a KernelError naming the
// kernel: an over-limit launch, a __syncthreads that only part of a block reached, a write outside an allocation.
#include "errors.hpp"
#include "types.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

struct CUstream_st;

namespace gpulab::emu {

// While set, every launch on this thread asks `stop()` before each block and stops with LaunchStopped when it says
// so: a long emulated launch (the tracer at 256³) answers a cancel within one block's time. Returns the previous.
using StopCheck = bool (*)(const void* context);
struct StopRequest {
  StopCheck check = nullptr;
  const void* context = nullptr;
};
StopRequest set_stop_check(StopRequest request);

struct LaunchRequest {
  const char* name = "";             // the kernel as written at the launch, e.g. "vectorized_kernel<true>"
  const void* function = nullptr;    // its address: finds its __shared__ arrays in the symbol table
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared = 0;    // bytes, the third launch parameter
  CUstream_st* stream = nullptr;     // ignored: the launch has finished when it returns
};

// What the last launch on this thread did; tests read it to see which kernel variant a launcher chose.
struct LaunchRecord {
  std::string name;
  dim3 grid;
  dim3 block;
  std::size_t static_shared = 0;  // bytes of the kernel's __shared__ arrays
  bool shared_found = false;      // false when the symbol table was unavailable (a stripped binary)
  long long blocks_run = 0;
  long long barriers_passed = 0;  // summed over blocks
};
const LaunchRecord& last_launch();

// Sees a launch block by block, on the launching thread (the kernel tracer is one). Installed per thread.
class BlockObserver {
 public:
  virtual ~BlockObserver() = default;
  virtual void block_started(const LaunchRequest& request, const uint3& block) = 0;
  virtual void barrier_passed() = 0;  // every live thread of the block was released from a __syncthreads
  virtual void block_finished() = 0;
};
// Returns the previous observer; nullptr removes it.
BlockObserver* set_block_observer(BlockObserver* observer);

// Runs the grid; `thread_body(context)` is one thread's kernel body, called on each thread's fiber.
void run_grid(const LaunchRequest& request, void (*thread_body)(void*), void* context);

template <class... Params>
class KernelLaunch {
 public:
  KernelLaunch(const LaunchRequest& request, void (*kernel)(Params...)) : m_request(request), m_kernel(kernel) {}

  template <class... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params), "a kernel launch passes one argument per parameter");
    // The arguments are converted to the parameter types once, as a launch copies them into the kernel's
    // parameter space; every thread then calls the kernel with the same values.
    Bound bound{m_kernel, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
    run_grid(m_request, &Bound::run, &bound);
  }

 private:
  struct Bound {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> args;
    static void run(void* self) {
      const Bound& b = *static_cast<const Bound*>(self);
      std::apply(b.kernel, b.args);
    }
  };
  LaunchRequest m_request;
  void (*m_kernel)(Params...);
};

template <class... Params>
KernelLaunch<Params...> launch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                               std::size_t dynamic_shared, CUstream_st* stream) {
  LaunchRequest request;
  request.name = name;
  request.function = reinterpret_cast<const void*>(kernel);
  request.grid = grid;
  request.block = block;
  request.dynamic_shared = dynamic_shared;
  request.stream = stream;
  return KernelLaunch<Params...>(request, kernel);
}

// Launch limits of the devices the module targets (sm_75 … sm_90), checked before any block runs.
struct DeviceLimits {
  unsigned max_threads_per_block = 1024;
  unsigned max_block_x = 1024, max_block_y = 1024, max_block_z = 64;
  unsigned long long max_grid_x = 2147483647ull;
  unsigned max_grid_y = 65535, max_grid_z = 65535;
  std::size_t shared_without_opt_in = 48 * 1024;
  std::size_t shared_with_opt_in = 227 * 1024;  // sm_90; sm_80 allows 163 KiB
};
const DeviceLimits& device_limits();

}  // namespace gpulab::emu

#pragma once
// Watches every load and store of a student's kernel (the access hook of the traced build) while the lab checks
// it, and stops the kernel at the first access a GPU would punish or leave undefined, naming the instruction:
//   - an access to A, B or C just outside the array (in the emulator's guard zones), or near address 0;
//   - a read of shared memory that no thread of the block has written yet (it holds the block's NaN fill);
//   - a data race on shared memory: a word one thread wrote and another read between the same two barriers.
// It also remembers which block and thread last wrote each cell of C, for the report of a wrong answer.
#include <gpulab_emu/errors.hpp>
#include <gpulab_emu/launch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::lab {

// The kernel stopped at an access the watcher refuses; `pc` is the instruction (a return address into it).
class AccessFault : public emu::KernelError {
 public:
  AccessFault(const std::string& what, const void* pc) : emu::KernelError(what), m_pc(pc) {}
  const void* pc() const { return m_pc; }

 private:
  const void* m_pc;
};

struct CellWriter {
  std::array<std::uint32_t, 3> block{};
  std::array<std::uint32_t, 3> thread{};
  bool written = false;
};

class AccessWatch final : public emu::BlockObserver {
 public:
  struct Array {
    std::string name;
    const unsigned char* base = nullptr;
    std::size_t bytes = 0;
  };
  AccessWatch(const Array& a, const Array& b, const Array& c);
  ~AccessWatch() override;
  AccessWatch(const AccessWatch&) = delete;
  AccessWatch& operator=(const AccessWatch&) = delete;

  const std::vector<CellWriter>& writers() const { return m_writers; }

  void block_started(const emu::LaunchRequest& request, const uint3& block) override;
  void barrier_passed() override { ++m_phase; }
  void block_finished() override {}

  void access(const void* address, int bytes, bool store, const void* pc);

 private:
  struct SharedWord {
    std::uint32_t write_phase = 0;  // phase + 1 of the last write (0 = never written in this block)
    std::uint32_t writer = 0;
    std::uint32_t read_phase = 0;   // phase + 1 of the last read
    std::uint32_t reader = 0;
  };
  struct SharedArrayShadow {
    std::string name;
    unsigned char* base = nullptr;
    std::size_t bytes = 0;
    std::vector<SharedWord> words;
  };
  void check_global(const Array& array, std::uintptr_t address, int bytes, bool store, const void* pc) const;
  void watch_shared(SharedArrayShadow& array, std::uintptr_t address, int bytes, bool store, const void* pc);

  std::array<Array, 3> m_arrays;
  std::vector<CellWriter> m_writers;
  std::vector<SharedArrayShadow> m_shared;
  const void* m_kernel = nullptr;
  std::uint32_t m_phase = 0;
  emu::BlockObserver* m_previous_observer = nullptr;
};

// The instruction and place of the most recent traced access on this thread, kept for the report of a kernel
// that crashed or ran out of time (read from a signal handler: plain words only).
struct LastAccess {
  const void* volatile pc = nullptr;
};
extern LastAccess g_last_access;
// The hook that only keeps g_last_access (while the tracer runs, the watcher is not installed).
void remember_last_access(const void* address, int bytes, bool store, const void* pc);

// "(1,0,0)"
std::string triple(std::uint32_t x, std::uint32_t y, std::uint32_t z);

}  // namespace gpulab::lab

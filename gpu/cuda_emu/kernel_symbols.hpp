#pragma once
// Finds a kernel's __shared__ arrays. In the emulator's build __shared__ is a function-local static, so each array
// is a local symbol of the object file named after its function: the kernel `_Z<name>` owns `_ZZ<name>E<array>`.
// Reading the symbol table of the loaded object that holds the kernel gives each array's address and size: the
// scheduler poisons exactly those bytes before every block and sums them against the 48 KiB static limit.
#include <cstddef>
#include <string>
#include <vector>

namespace gpulab::emu {

struct SharedArray {
  std::string symbol;  // mangled, e.g. _ZZN6gpulab4cuda7kernels12_GLOBAL__N_111smem_kernelEiiiPKfS4_PfE2As
  unsigned char* address = nullptr;
  std::size_t bytes = 0;
};

struct KernelSymbols {
  bool found = false;      // false: no symbol table (stripped) or the kernel's symbol is not in it
  std::string kernel;      // the kernel's mangled name
  std::vector<SharedArray> shared;
  std::size_t shared_bytes() const;
};

// Looked up once per kernel and cached (thread-safe).
const KernelSymbols& kernel_symbols(const void* function);

}  // namespace gpulab::emu

#pragma once
// Force-included (clang -include) into a student's kernel file when the lab compiles it for the CPU emulator, as
// nvcc force-includes cuda_runtime.h. It adds what the file may use without including it, and the launch that a
// `kernel<<<grid, block, shared, stream>>>(args)` becomes: the lab rewrites each such launch into
// `::gpulab::lab::launch_at(__LINE__, "kernel", kernel, grid, block, shared, stream)(args)` on the same line, so
// the emulator's reports about a launch name the line it is on.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>

namespace gpulab::lab {
// Defined by the lab's runner (exported to the student's library): the line of the launch about to run.
void note_launch_line(int line);

template <class... Params>
::gpulab::emu::KernelLaunch<Params...> launch_at(int line, const char* name, void (*kernel)(Params...), dim3 grid,
                                                dim3 block, std::size_t shared = 0, cudaStream_t stream = nullptr) {
  note_launch_line(line);
  return ::gpulab::emu::launch(name, kernel, grid, block, shared, stream);
}
}  // namespace gpulab::lab

// Device functions CUDA declares for every kernel. Blocks run one at a time on one OS thread, so the atomics are
// plain read-modify-writes.
template <class T>
inline T __ldg(const T* p) { return *p; }
inline float atomicAdd(float* p, float v) { const float old = *p; *p = old + v; return old; }
inline int atomicAdd(int* p, int v) { const int old = *p; *p = old + v; return old; }
inline unsigned atomicAdd(unsigned* p, unsigned v) { const unsigned old = *p; *p = old + v; return old; }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }

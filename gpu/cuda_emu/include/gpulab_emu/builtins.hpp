#pragma once
// What nvcc gives a kernel for free, supplied for the emulator's host build: the execution-space keywords (empty
// here), the thread-index built-ins (per-fiber values the block scheduler sets before it resumes a thread),
// __syncthreads (a switch to the next thread of the block) and the intrinsics the module's kernels use.
//
// __shared__ becomes a function-local `static`: one copy that every fiber of the running block sees, as a block's
// threads see one shared array. Blocks run one after another, and the scheduler fills a kernel's shared arrays
// with NaN before each block (it finds them in the symbol table: see kernel_symbols.hpp), so a thread that reads
// a tile before anyone wrote it gets NaN, never a neighbour block's leftovers.
#include "types.hpp"

#include <cmath>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __constant__ static
#define __align__(n) __attribute__((aligned(n)))

namespace gpulab::emu {
// Called by __syncthreads(); file and line name the barrier, so threads waiting at two different barriers (a
// branch around one) are told apart however the compiler arranged the code.
void sync_threads(const char* file, int line);
}  // namespace gpulab::emu

#define __syncthreads() ::gpulab::emu::sync_threads(__FILE__, __LINE__)

// Set by the block scheduler for the thread it is about to resume (all fibers of a block share one OS thread).
extern thread_local uint3 threadIdx;
extern thread_local uint3 blockIdx;
extern thread_local dim3 blockDim;
extern thread_local dim3 gridDim;
constexpr int warpSize = 32;

// Round-to-nearest-even fused multiply-add, as __fmaf_rn is on the GPU.
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
using std::fmaf;

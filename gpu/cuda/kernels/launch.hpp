#pragma once
// GPULAB_LAUNCH(kernel, grid, block, shared_bytes, stream)(args...) — the one way the module's kernel files
// launch a kernel. Under nvcc it is exactly `kernel<<<grid, block, shared_bytes, stream>>>(args...)`; in the CPU
// emulator's build of the same files (gpu/cuda_emu, GPULAB_CUDA_EMULATOR defined) it runs the kernel there, so
// the kernels' own source executes in every CI build without a GPU.
#if defined(GPULAB_CUDA_EMULATOR)
#define GPULAB_LAUNCH(kernel, grid, block, shared_bytes, stream) \
  ::gpulab::emu::launch(#kernel, kernel, grid, block, shared_bytes, stream)
#else
#define GPULAB_LAUNCH(kernel, grid, block, shared_bytes, stream) kernel<<<grid, block, shared_bytes, stream>>>
#endif

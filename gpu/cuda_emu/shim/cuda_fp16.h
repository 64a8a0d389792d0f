#pragma once
// Emulator shim for <cuda_fp16.h>: see gpu/cuda_emu/include/gpulab_emu/half_types.hpp.
#include <gpulab_emu/half_types.hpp>

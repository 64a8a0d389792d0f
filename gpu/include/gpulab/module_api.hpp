#pragma once
// The one entry point the CUDA module exports. Bump the version whenever Backend's layout changes: a module
// built against another version is refused with a clear reason.
#include "gpulab/backend.hpp"

#define GPULAB_MODULE_API_VERSION 4
#define GPULAB_MODULE_FACTORY "gpulab_create_cuda_backend"

extern "C" {
// Returns a new Backend (ownership to the caller) or null with a reason written into `why` (NUL-terminated).
using gpulab_factory_fn = gpulab::Backend* (*)(int api_version, char* why, unsigned long why_size);
}

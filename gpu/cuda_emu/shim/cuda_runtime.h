#pragma once
// Emulator shim for <cuda_runtime.h>.
#include "cuda_runtime_api.h"

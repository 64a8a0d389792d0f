#pragma once
// The CUDA implementation of gpulab::Backend (kind "cuda"). Created only by the module's factory (module_entry.cpp),
// after it has made sure a driver and a device are there.
#include "gpulab/backend.hpp"

#include <memory>

namespace gpulab::cuda {

// Throws CudaError when the device cannot be opened.
std::unique_ptr<Backend> make_cuda_backend(int device);

}  // namespace gpulab::cuda

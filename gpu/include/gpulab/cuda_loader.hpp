#pragma once
// Loads the CUDA backend module (libgpulab_cuda.so) at run time with dlopen. The binaries that use this have
// no link dependency on CUDA: a missing module, driver or device becomes a reason, never a crash.
#include "gpulab/backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gpulab {

struct CudaLoadResult {
  std::unique_ptr<Backend> backend;  // null when unavailable
  std::string reason;                // why unavailable ("CUDA driver not found", ...); empty when loaded
  std::string module_path;           // the file that was tried (or loaded)
  std::vector<std::string> searched;  // every path considered
};

// Search order: $GPULAB_CUDA_MODULE; beside the executable; ../lib/gpulab/ and ../lib/<multiarch>/gpulab from
// it (an installed tree); the build tree's module directory.
CudaLoadResult load_cuda_backend();
CudaLoadResult load_cuda_backend_from(const std::string& path);

}  // namespace gpulab

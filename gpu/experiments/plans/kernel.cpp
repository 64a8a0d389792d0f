// The kernel page: a page that measures nothing of its own, so no suite; `gpulab bench --suite kernel` says why.
#include "gpulab/suite_registry.hpp"

namespace gpulab {

GPULAB_PLAN_FILE(kernel) {
  registry.page_measures_nothing("kernel", "it traces the CUDA ladder's kernels on the emulator inside the app (deterministic, about a second), and shows recordings made on a GPU");
}

}  // namespace gpulab

// The lab page: it measures nothing of its own, so no suite; `gpulab bench --suite lab` says why.
#include "gpulab/suite_registry.hpp"

namespace gpulab {

GPULAB_PLAN_FILE(lab) {
  registry.page_measures_nothing("lab", "it compiles and checks the student's own kernel on the CPU emulator, in a child process (gpulab kernels --file does the same without a window)");
}

}  // namespace gpulab

// The software-stack page: a page that measures nothing of its own, so no suite; `gpulab bench --suite stack` says why.
#include "gpulab/suite_registry.hpp"

namespace gpulab {

GPULAB_PLAN_FILE(stack) {
  registry.page_measures_nothing("stack", "it draws the software stack under the other pages' results (which layer ran each one)");
}

}  // namespace gpulab

// What a GPU is: a page that measures nothing of its own, so no suite; `gpulab bench --suite whatgpu` says why.
#include "gpulab/suite_registry.hpp"

namespace gpulab {

GPULAB_PLAN_FILE(whatgpu) {
  registry.page_measures_nothing("whatgpu", "it draws the datasheets and the lesson's model of a CPU beside a GPU, and the other pages' results");
}

}  // namespace gpulab

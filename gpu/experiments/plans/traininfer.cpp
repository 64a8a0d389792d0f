// Training and inference: a page that measures nothing of its own, so no suite; `gpulab bench --suite traininfer` says why.
#include "gpulab/suite_registry.hpp"

namespace gpulab {

GPULAB_PLAN_FILE(traininfer) {
  registry.page_measures_nothing("traininfer", "it draws the lesson's model of training beside inference (memory per parameter, steps), from the model alone");
}

}  // namespace gpulab

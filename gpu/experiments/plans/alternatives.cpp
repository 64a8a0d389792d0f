// The alternatives page: a page that measures nothing of its own, so no suite; `gpulab bench --suite alternatives` says why.
#include "gpulab/suite_registry.hpp"

namespace gpulab {

GPULAB_PLAN_FILE(alternatives) {
  registry.page_measures_nothing("alternatives", "it draws published figures for other accelerators, each with its source");
}

}  // namespace gpulab

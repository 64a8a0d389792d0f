// The one version line both front ends print, and the recording stores as gpulab_version: part of provenance,
// so the experiments name their build without reaching for the CLI.
#include "gpulab/harness.hpp"

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "unknown"
#endif
#ifndef GPULAB_BUILD_TYPE
#define GPULAB_BUILD_TYPE ""
#endif

namespace gpulab {

std::string version_string() {
  std::string build = GPULAB_BUILD_TYPE;
  std::string line = std::string("gpulab ") + GPULAB_VERSION;
  if (!build.empty()) line += " (" + build + " build)";
  return line;
}

}  // namespace gpulab

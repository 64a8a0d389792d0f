// Provenance every result carries, whichever backend produced it.
#include "gpulab/harness.hpp"
#include "gpulab/platform.hpp"

#include <chrono>
#include <ctime>
#include <string>

// gpulab_harness is also linked into the CUDA module, which may be built without these definitions.
#ifndef GPULAB_VERSION
#define GPULAB_VERSION "unknown"
#endif
#ifndef GPULAB_BUILD_TYPE
#define GPULAB_BUILD_TYPE "unknown"
#endif

namespace gpulab {
namespace {

std::string compiler_version() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown compiler";
#endif
}

}  // namespace

std::string iso_date_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  const std::tm utc = platform::utc_calendar(now);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

Provenance base_provenance() {
  Provenance p;
  p["date"] = iso_date_now();
  p["gpulab_version"] = GPULAB_VERSION;
  p["build_type"] = std::string(GPULAB_BUILD_TYPE).empty() ? "unspecified" : GPULAB_BUILD_TYPE;
  p["compiler"] = compiler_version();
  p["host"] = platform::host_name();
  p["os"] = platform::os_description();
  return p;
}

}  // namespace gpulab

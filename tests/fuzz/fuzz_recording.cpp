// libFuzzer target: the recording loader must reject any input with a RecordingError — never crash, hang or
// throw anything else. Built only with -DGPULAB_FUZZ=ON and clang (tests/sanitizers.sh).
#include "gpulab/recording.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    gpulab::Recording rec = gpulab::parse_recording(text);
    // Whatever parses must survive a round trip unchanged in size.
    const gpulab::Recording again = gpulab::parse_recording(gpulab::to_json_text(rec));
    if (again.results.size() != rec.results.size()) std::abort();
  } catch (const gpulab::RecordingError&) {
    // Expected for bad input.
  }
  return 0;
}

#pragma once
// The CPU's memory bandwidth on "What a GPU is": this machine's triad when one was measured here (any page's: the
// roofline's, the decode page's), else a recording's triad of a CPU with this one's name, else none (the page then
// says "typical desktop, not measured"). Within a source, the DRAM rule: the largest arrays, then the fastest
// (cache-sized arrays run several times faster than the memory a model streams from). Qt-free, unit-tested.
#include "models/sourced_result.h"

#include <string>

namespace whatgpu_model {

struct CpuBandwidth {
  double bytesPerS = 0;  // 0: none measured or recorded
  int source = -1;       // -1 measured here; else the recording's index
  double arrayBytes = 0;
  bool found() const { return bytesPerS > 0; }
};

CpuBandwidth cpuBandwidth(const SourcedResults& results, const std::string& cpuName);

}  // namespace whatgpu_model

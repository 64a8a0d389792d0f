// Progress reporting of one run inside a larger job, and the measurement policy a backend's ops get.
#include "gpulab/experiments.hpp"

#include "gpulab/device_words.hpp"

#include <algorithm>

namespace gpulab {

void RunContext::report(double fraction_of_this_run, const std::string& message) const {
  if (!on_progress) return;
  const double f = std::clamp(fraction_of_this_run, 0.0, 1.0);
  on_progress(Progress{progress_base + progress_span * f, message});
}

MeasurePolicy policy_for(const MeasurePolicy& policy, const Backend& backend) {
  MeasurePolicy p = policy;
  if (backend.kind_id() == BackendKind::cpu) return p;
  if (backend.kind_id() == BackendKind::vulkan &&
      device_words(backend.device_info()).device_class == DeviceClass::vulkan_on_cpu)
    return p;
  p.warmup_min_s = std::max(p.warmup_min_s, p.device_warmup_s);
  p.device = &backend;  // a device that finished timed work moments ago skips the warm-up (kDeviceStaysWarmS)
  return p;
}

}  // namespace gpulab

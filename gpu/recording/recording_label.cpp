// The badge text for numbers that came from a recording: which device, and when.
#include "gpulab/recording.hpp"

namespace gpulab {
namespace {

std::string context_value(const Recording& rec, const char* key) {
  auto it = rec.context.find(key);
  return it == rec.context.end() ? std::string() : it->second;
}

}  // namespace

std::string recording_device(const Recording& rec) {
  // A recording made on a GPU server is about the GPU; one made on a laptop is about its CPU.
  // Suites write gpu = "none" (and the reason in gpu_reason) when there was no GPU.
  std::string device = context_value(rec, "gpu");
  if (device.empty() || device.rfind("none", 0) == 0) device = context_value(rec, "cpu");
  if (device.empty()) device = context_value(rec, "host");
  if (device.empty()) device = "an unknown device";
  return device;
}

std::string recording_label(const Recording& rec) {
  const std::string device = recording_device(rec);
  std::string date = context_value(rec, "date");
  if (date.size() > 10) date.resize(10);  // "2026-11-30T07:40:00Z" -> the day is enough on a badge
  // DESIGN's badge wording: "recorded on <device>, <date>".
  return date.empty() ? "recorded on " + device : "recorded on " + device + ", " + date;
}

}  // namespace gpulab

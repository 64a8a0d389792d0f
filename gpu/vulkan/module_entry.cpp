// The module's two exported symbols (gpulab/vulkan_module_api.hpp); everything else is hidden. Neither throws nor
// crashes on a machine without a driver: they return null or -1 and write the reason.
#include "gpulab/vulkan_module_api.hpp"
#include "vulkan_backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace {

void write_text(char* out, unsigned long size, const std::string& text) {
  if (!out || size == 0) return;
  const std::size_t n = std::min<std::size_t>(text.size(), size - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

std::string version_refusal(int api_version) {
  return "the Vulkan module was built for gpulab module API version " + std::to_string(GPULAB_MODULE_API_VERSION) +
         " but the program asked for version " + std::to_string(api_version) + ": rebuild the module with the program";
}

bool validation_requested() {
  const char* v = std::getenv("GPULAB_VULKAN_VALIDATION");
  return v && *v && std::string(v) != "0";
}

std::string clean(std::string s) {  // tabs and newlines separate the fields of the list
  std::replace(s.begin(), s.end(), '\t', ' ');
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) gpulab::Backend* gpulab_create_vulkan_backend(
    int api_version, int device, int allow_cpu, char* why, unsigned long why_size) {
  try {
    if (api_version != GPULAB_MODULE_API_VERSION) {
      write_text(why, why_size, version_refusal(api_version));
      return nullptr;
    }
    gpulab::vk::BackendOptions options;
    options.device = device;
    options.allow_cpu = allow_cpu != 0;
    options.validation = validation_requested();
    gpulab::vk::Created created = gpulab::vk::create_backend(options);
    write_text(why, why_size, created.reason);
    return created.backend.release();
  } catch (const std::exception& e) {
    write_text(why, why_size, std::string("Vulkan: the backend failed to start: ") + e.what());
  } catch (...) {
    write_text(why, why_size, "Vulkan: the backend failed to start (unknown error)");
  }
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) int gpulab_list_vulkan_devices(int api_version, char* out,
                                                                                 unsigned long out_size) {
  try {
    if (api_version != GPULAB_MODULE_API_VERSION) {
      write_text(out, out_size, version_refusal(api_version));
      return -1;
    }
    gpulab::vk::Created listed = gpulab::vk::list_only({});
    if (!listed.instance) {
      write_text(out, out_size, listed.reason);
      return -1;
    }
    std::string text;
    for (const auto& d : listed.devices)
      text += std::to_string(d.index) + "\t" + clean(d.label()) + "\t" + clean(d.name) + "\t" + clean(d.vendor) + "\t" +
              clean(d.type) + "\t" + d.api_version + "\t" + clean(d.driver) + "\t" + (d.is_cpu ? "1" : "0") + "\n";
    write_text(out, out_size, text);
    return static_cast<int>(listed.devices.size());
  } catch (const std::exception& e) {
    write_text(out, out_size, std::string("Vulkan: could not list devices: ") + e.what());
  }
  return -1;
}

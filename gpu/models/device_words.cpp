#include "gpulab/device_words.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace gpulab {

namespace {
bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }
bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "Vulkan on the CPU (llvmpipe) — not a GPU" (the module's label for a CPU-type device) → "llvmpipe";
// "llvmpipe (LLVM 15.0.6, 256 bits)" (its raw name, e.g. in an older recording) → "llvmpipe".
std::string cpu_driver_name(const std::string& device_name) {
  const std::string prefix = "Vulkan on the CPU (";
  if (starts_with(device_name, prefix.c_str())) {
    const auto close = device_name.find(')', prefix.size());
    if (close != std::string::npos) return device_name.substr(prefix.size(), close - prefix.size());
  }
  if (starts_with(device_name, "llvmpipe")) return "llvmpipe";
  return device_name;
}

std::string with_name(const std::string& noun, const std::string& name) {
  return name.empty() ? noun : noun + " (" + name + ")";
}
}  // namespace

DeviceWords device_words(const std::string& backend, const std::string& device_type, const std::string& device_name) {
  DeviceWords w;
  if (backend == "vulkan") {
    // The provenance writes "CPU (not a GPU)" for a CPU-type device and the label carries "not a GPU" too; either
    // one is enough, so a recording that kept only one of them still reads as not a GPU.
    const bool on_cpu = starts_with(device_type, "CPU") || contains(device_name, "not a GPU") ||
                        starts_with(device_name, "llvmpipe");
    if (on_cpu) {
      const std::string driver = cpu_driver_name(device_name);
      w.device_class = DeviceClass::vulkan_on_cpu;
      w.noun = "Vulkan on the CPU";
      w.label = with_name(w.noun, driver.empty() ? "llvmpipe" : driver) + " — not a GPU";
      return w;
    }
    if (device_type.empty() && device_name.empty()) {
      // Nothing says what the device was (a note written before it opened, an old recording): not claimed a GPU.
      w.device_class = DeviceClass::vulkan_unknown;
      w.noun = "Vulkan";
      w.label = "Vulkan (device not recorded)";
      return w;
    }
    w.device_class = DeviceClass::vulkan_gpu;
    w.noun = "Vulkan GPU";
    w.label = with_name(w.noun, device_name);
    w.is_gpu = true;
    return w;
  }
  if (backend == "cuda") {
    // The CUDA emulator stands in for the module on machines without a GPU; its device says "not a GPU".
    if (contains(device_name, "not a GPU") || contains(device_name, "emulator")) {
      w.device_class = DeviceClass::emulator;
      w.noun = "CPU emulator";
      w.label = "CPU emulator — not a GPU";
      return w;
    }
    w.device_class = DeviceClass::cuda_gpu;
    w.noun = "GPU";
    w.label = with_name(w.noun, device_name);
    w.is_gpu = true;
    return w;
  }
  w.device_class = DeviceClass::cpu;
  w.noun = "CPU";
  w.label = with_name(w.noun, device_name);
  return w;
}

DeviceWords device_words(const Result& r) {
  auto at = [&](const char* key) {
    const auto it = r.provenance.find(key);
    return it == r.provenance.end() ? std::string() : it->second;
  };
  return device_words(r.backend, at("device_type"), at("device"));
}

DeviceWords device_words(const DeviceInfo& d) {
  std::string type;
  for (const auto& [k, v] : d.details)
    if (k == "device type") type = v;
  return device_words(d.kind, type, d.name);
}

std::string short_device_name(const std::string& name) {
  std::string s = name;
  for (const std::string mark : {"(R)", "(TM)"})
    for (std::size_t at; (at = s.find(mark)) != std::string::npos;) s.erase(at, mark.size());
  if (const std::size_t cut = s.find(" ("); cut != std::string::npos) s.erase(cut);
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  // The model number is what tells devices apart: keep up to the first word with a digit (when it is among the
  // first four), and a suffix that changes the chip ("4070 Ti", "7900 XTX", "M2 Pro"); otherwise three words.
  std::size_t keep = std::min<std::size_t>(3, words.size());
  for (std::size_t i = 0; i < words.size() && i < 4; ++i) {
    if (words[i].find_first_of("0123456789") == std::string::npos) continue;
    keep = i + 1;
    static const char* const suffixes[] = {"Ti", "SUPER", "Super", "XT", "XTX", "GRE", "Pro", "Max", "Ultra"};
    if (keep < words.size() && std::find(std::begin(suffixes), std::end(suffixes), words[keep]) != std::end(suffixes))
      ++keep;
    break;
  }
  std::string out;
  for (std::size_t i = 0; i < keep; ++i) out += (out.empty() ? "" : " ") + words[i];
  return out;
}

}  // namespace gpulab

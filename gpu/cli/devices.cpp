// `gpulab devices`: what this machine has to measure with. Always exits 0 when the arguments are right: a
// machine with no GPU is an answer, not an error.
#include "gpulab/cli.hpp"
#include "option_tables.hpp"
#include "gpulab/cuda_loader.hpp"
#include "gpulab/vulkan_loader.hpp"
#include "gpulab/units.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace gpulab {
namespace {

using json = nlohmann::ordered_json;

json to_json(const DeviceInfo& d) {
  json details = json::object();
  for (const auto& [key, value] : d.details) details[key] = value;
  return {{"kind", d.kind},
          {"name", d.name},
          {"compute_units", d.compute_units},
          {"threads", d.threads},
          {"compute_capability", d.compute_capability},
          {"clock_mhz", d.clock_mhz},
          {"memory_total_bytes", d.memory_total_bytes},
          {"memory_free_bytes", d.memory_free_bytes},
          {"driver_version", d.driver_version},
          {"runtime_version", d.runtime_version},
          {"simd", d.simd},
          {"peak_gflops_fp32", d.peak_gflops_fp32},
          {"peak_gflops_fp64", d.peak_gflops_fp64},
          {"peak_source", d.peak_source},
          {"details", std::move(details)}};
}

void print_device(const DeviceInfo& d) {
  if (d.kind == "cuda") {
    std::printf("GPU: %s\n", d.name.c_str());
    if (!d.compute_capability.empty()) std::printf("  compute capability %s\n", d.compute_capability.c_str());
    if (d.compute_units > 0) std::printf("  %d SMs\n", d.compute_units);
    if (d.memory_total_bytes > 0)
      std::printf("  memory: %s (%s free)\n", format_bytes(d.memory_total_bytes).c_str(),
                  format_bytes(d.memory_free_bytes).c_str());
    if (!d.driver_version.empty()) std::printf("  driver %s\n", d.driver_version.c_str());
    if (!d.runtime_version.empty()) std::printf("  runtime %s\n", d.runtime_version.c_str());
  } else {
    std::printf("CPU: %s\n", d.name.c_str());
    std::printf("  %d logical cores; the CPU backend uses %d threads\n", d.compute_units, d.threads);
    if (!d.simd.empty()) std::printf("  vector units: %s\n", d.simd.c_str());
  }
  if (d.clock_mhz > 0) std::printf("  clock: %.0f MHz\n", d.clock_mhz);
  if (d.peak_gflops_fp32 > 0)
    std::printf("  peak FP32 (%s): %s\n", d.peak_source.empty() ? "as the backend estimates it" : d.peak_source.c_str(),
                format_si(d.peak_gflops_fp32 * 1e9, "FLOP/s").c_str());
  if (d.peak_gflops_fp64 > 0)
    std::printf("  peak FP64 (%s): %s\n", d.peak_source.empty() ? "as the backend estimates it" : d.peak_source.c_str(),
                format_si(d.peak_gflops_fp64 * 1e9, "FLOP/s").c_str());
  for (const auto& [key, value] : d.details) std::printf("  %s: %s\n", key.c_str(), value.c_str());
}

// Every Vulkan device the drivers show, the one a Vulkan run would use marked, or why there is none.
json vulkan_json(const VulkanLoadResult& v) {
  json list = json::array();
  for (const auto& d : v.devices)
    list.push_back({{"index", d.index}, {"label", d.label}, {"name", d.name}, {"vendor", d.vendor}, {"type", d.type},
                    {"api_version", d.api_version}, {"driver", d.driver}, {"is_gpu", !d.is_cpu}});
  return {{"available", static_cast<bool>(v.backend)},
          {"chosen", v.backend ? json(v.backend->device_info().name) : json(nullptr)},
          {"reason", v.reason},
          {"devices", std::move(list)},
          {"module_path", v.module_path}};
}

void print_vulkan(const VulkanLoadResult& v) {
  if (v.devices.empty()) {
    std::printf("%s\n", v.reason.c_str());  // the reason starts "Vulkan: "
    return;
  }
  std::printf("Vulkan devices:\n");
  for (const auto& d : v.devices) {
    std::printf("  %d: %s\n", d.index, d.label.c_str());
    std::printf("     vendor %s, Vulkan %s, driver %s\n", d.vendor.c_str(), d.api_version.c_str(), d.driver.c_str());
  }
  if (v.backend) std::printf("  used by --device vulkan: %s\n", v.backend->device_info().name.c_str());
  else std::printf("  not used: %s\n", v.reason.c_str());
}

int run_devices(bool as_json) {
  DeviceInfo cpu;
  std::string cpu_error;
  try {
    cpu = make_cpu_backend()->device_info();
  } catch (const std::exception& e) {
    cpu_error = e.what();
  }
  CudaLoadResult cuda = load_cuda_backend();
  DeviceInfo gpu;
  if (cuda.backend) {
    try {
      gpu = cuda.backend->device_info();
    } catch (const std::exception& e) {
      cuda.reason = std::string("the GPU could not be queried: ") + e.what();
      cuda.backend.reset();
    }
  }

  const VulkanLoadResult vulkan = load_vulkan_backend();

  if (as_json) {
    json doc = json::object();
    doc["gpulab_version"] = version_string();
    doc["cpu"] = cpu_error.empty() ? to_json(cpu) : json(nullptr);
    if (!cpu_error.empty()) doc["cpu_error"] = cpu_error;
    doc["gpu_available"] = static_cast<bool>(cuda.backend);
    doc["gpu"] = cuda.backend ? to_json(gpu) : json(nullptr);
    doc["gpu_reason"] = cuda.reason;
    doc["module_path"] = cuda.module_path;
    doc["module_searched"] = cuda.searched;
    doc["vulkan"] = vulkan_json(vulkan);
    std::cout << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return 0;
  }
  if (cpu_error.empty()) print_device(cpu);
  else std::printf("CPU: could not be queried: %s\n", cpu_error.c_str());
  if (cuda.backend) {
    print_device(gpu);
    std::printf("  module: %s\n", cuda.module_path.c_str());
  } else {
    std::printf("GPU: not available — %s\n", cuda.reason.c_str());
    if (!cuda.module_path.empty()) std::printf("  module tried: %s\n", cuda.module_path.c_str());
    else if (!cuda.searched.empty()) std::printf("  looked for the module in %zu places\n", cuda.searched.size());
  }
  print_vulkan(vulkan);
  return 0;
}

// Only the Vulkan devices: neither the CUDA module nor the CPU backend (whose peak is timed) is started, so a
// script asking "which Vulkan device would a run use?" waits only for the Vulkan driver.
int run_vulkan_devices(bool as_json) {
  const VulkanLoadResult vulkan = load_vulkan_backend();
  if (as_json) std::cout << vulkan_json(vulkan).dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  else print_vulkan(vulkan);
  return 0;
}

}  // namespace

// The parser's options (the option walk runs each; keep it beside the loop below, which takes exactly these).
VerbOptions devices_option_table() { return {{"devices"}, {}, {"json"}, "usage: gpulab devices [--json]\n"}; }

int cli_devices(const Args& args) {
  bool as_json = false, vulkan_only = false;
  for (const auto& a : args) {
    if (a == "--json") {
      as_json = true;
    } else if (a == "--vulkan") {
      vulkan_only = true;
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: gpulab devices [--json] [--vulkan]\n  the CPU, the GPU (or why there is none) and the CUDA module tried, and every "
                  "Vulkan device\n  (GPULAB_VULKAN_ALLOW_CPU=1 lets a CPU-type Vulkan device be used)\n"
                  "  --vulkan: the Vulkan devices only (starts neither CUDA nor the CPU backend)\n");
      return 0;
    } else {
      std::fprintf(stderr, "gpulab devices: unknown option %s\nusage: gpulab devices [--json] [--vulkan]\n", a.c_str());
      return 2;
    }
  }
  try {
    if (vulkan_only) return run_vulkan_devices(as_json);
    return run_devices(as_json);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab devices: failed: %s\n", e.what());
    return 1;
  }
}

}  // namespace gpulab

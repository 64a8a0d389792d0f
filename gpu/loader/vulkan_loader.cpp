// Finds and opens the Vulkan module. Each way this fails on a student's laptop (no module, no libvulkan.so.1, no
// driver, only a CPU-type device, a module from another gpulab version) ends as a sentence in `reason`.
#include "gpulab/vulkan_loader.hpp"
#include "gpulab/vulkan_module_api.hpp"
#include "gpulab/platform.hpp"
#include "loader/module_search.hpp"

#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

namespace gpulab {
namespace {

const std::string module_file = platform::module_file_name("gpulab_vulkan");

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

std::string explain_dlopen_failure(const std::string& path, const std::string& error) {
  if (contains(error, "libvulkan.so.1"))
    return "Vulkan: the Vulkan loader (libvulkan.so.1) is not installed (Debian/Ubuntu: libvulkan1)";
  if (contains(error, "invalid ELF header") || contains(error, "file too short") || contains(error, "ELF"))
    return "Vulkan: the module at " + path + " is damaged or built for another computer (reinstall it): " + error;
  return "Vulkan: the module at " + path + " could not be loaded: " + error;
}

std::vector<VulkanDeviceEntry> parse_devices(const std::string& text) {
  std::vector<VulkanDeviceEntry> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      f.push_back(line.substr(start, tab - start));
    f.push_back(line.substr(start));
    if (f.size() != 8) continue;
    VulkanDeviceEntry d;
    d.index = std::atoi(f[0].c_str());
    d.label = f[1];
    d.name = f[2];
    d.vendor = f[3];
    d.type = f[4];
    d.api_version = f[5];
    d.driver = f[6];
    d.is_cpu = f[7] == "1";
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

VulkanOptions VulkanOptions::from_env() {
  VulkanOptions o;
  if (const char* d = std::getenv("GPULAB_VULKAN_DEVICE"); d && *d) o.device = std::atoi(d);
  if (const char* a = std::getenv("GPULAB_VULKAN_ALLOW_CPU"); a && *a && std::string(a) != "0") o.allow_cpu = true;
  return o;
}

VulkanLoadResult load_vulkan_backend_from(const std::string& path, const VulkanOptions& options) {
  VulkanLoadResult out;
  out.module_path = path;
  out.searched.push_back(path);
  if (!loader::is_file(path)) {
    out.reason = "Vulkan: the module was not found at " + path;
    return out;
  }
  if (auto problem = platform::library_file_problem(path)) {
    out.reason = "Vulkan: the module at " + path + " is damaged (reinstall it): " + *problem;
    return out;
  }
  // The Vulkan loader first: a computer without libvulkan.so.1 gets the plain reason, not the dynamic linker's
  // words about the module. GPULAB_VULKAN_LOADER_LIB names another file to open instead — for the test of that
  // case, since the real one cannot be hidden from the dynamic linker on a machine that has it. The handle stays
  // open (the module needs the library for the life of the process anyway).
  const char* loader_env = std::getenv("GPULAB_VULKAN_LOADER_LIB");
  const std::string loader_lib = loader_env && *loader_env ? loader_env : platform::vulkan_loader_library;
  if (!platform::open_library(loader_lib, /*share_symbols=*/true)) {
    out.reason = "Vulkan: the Vulkan loader (" + loader_lib + ") is not installed (Debian/Ubuntu: libvulkan1): " +
                 platform::library_error();
    return out;
  }
  void* handle = platform::open_library(path, /*share_symbols=*/false);
  if (!handle) {
    out.reason = explain_dlopen_failure(path, platform::library_error());
    return out;
  }
  auto factory = reinterpret_cast<gpulab_vulkan_factory_fn>(platform::library_symbol(handle, GPULAB_VULKAN_MODULE_FACTORY));
  auto list = reinterpret_cast<gpulab_vulkan_list_fn>(platform::library_symbol(handle, GPULAB_VULKAN_MODULE_LIST));
  if (!factory || !list) {
    out.reason = "Vulkan: the file at " + path + " is not a gpulab Vulkan module (it lacks its entry points)";
    platform::close_library(handle);
    return out;
  }
  // The handle stays open for the life of the process: the backend's code lives in the module, and the Vulkan
  // loader and drivers it pulled in may have registered exit handlers.
  try {
    std::string text(64 * 1024, '\0');
    const int n = list(GPULAB_MODULE_API_VERSION, text.data(), text.size());
    text.resize(text.find('\0'));
    if (n < 0) {
      out.reason = text.empty() ? "Vulkan: the module could not list devices" : text;
      return out;
    }
    out.devices = parse_devices(text);
    char why[1024] = {0};
    Backend* backend = factory(GPULAB_MODULE_API_VERSION, options.device, options.allow_cpu ? 1 : 0, why, sizeof why);
    why[sizeof why - 1] = '\0';
    if (backend) out.backend.reset(backend);
    else out.reason = why[0] ? std::string(why) : "Vulkan: the module refused to start and gave no reason";
  } catch (const std::exception& e) {
    out.reason = std::string("Vulkan: the module failed to start: ") + e.what();
  } catch (...) {
    out.reason = "Vulkan: the module failed to start (an unknown error)";
  }
  return out;
}

VulkanLoadResult load_vulkan_backend(const VulkanOptions& options) {
  if (const char* env = std::getenv("GPULAB_VULKAN_MODULE"); env && *env) return load_vulkan_backend_from(env, options);
  const std::vector<std::string> searched = loader::module_candidates(module_file);
  for (const auto& path : searched) {
    if (!loader::is_file(path)) continue;
    VulkanLoadResult r = load_vulkan_backend_from(path, options);
    r.searched = searched;
    return r;
  }
  VulkanLoadResult r;
  r.searched = searched;
  r.reason = "Vulkan: this gpulab has no Vulkan module (" + module_file + " was not found; looked in " +
             loader::folders_text(searched) + ")";
  return r;
}

}  // namespace gpulab

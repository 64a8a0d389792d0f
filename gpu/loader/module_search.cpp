// The module search shared by the CUDA and Vulkan loaders (module_search.hpp).
#include "loader/module_search.hpp"

#include "gpulab/platform.hpp"

#include <filesystem>

namespace gpulab::loader {
namespace {

#if defined(__x86_64__) && defined(__linux__)
constexpr const char* multiarch = "x86_64-linux-gnu";
#elif defined(__aarch64__) && defined(__linux__)
constexpr const char* multiarch = "aarch64-linux-gnu";
#else
constexpr const char* multiarch = "";
#endif

// Stored normalised ("bin/../lib" -> "lib") so the list of places looked in reads cleanly.
void add_unique(std::vector<std::string>& list, const std::string& raw) {
  const std::string path = std::filesystem::path(raw).lexically_normal().string();
  for (const auto& p : list)
    if (p == path) return;
  list.push_back(path);
}

}  // namespace

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::vector<std::string> module_candidates(const std::string& module_file) {
  std::vector<std::string> out;
  const std::string exe = platform::executable_folder();
  if (!exe.empty()) {
    add_unique(out, exe + "/" + module_file);
    add_unique(out, exe + "/../lib/gpulab/" + module_file);
    if (*multiarch) add_unique(out, exe + "/../lib/" + multiarch + "/gpulab/" + module_file);
#ifdef GPULAB_INSTALL_MODULE_DIR
    // CMAKE_INSTALL_LIBDIR may be lib64 or an absolute path: honour what this build was configured with.
    const std::string install_dir = GPULAB_INSTALL_MODULE_DIR;
    if (!install_dir.empty())
      add_unique(out, (install_dir[0] == '/' ? install_dir : exe + "/../" + install_dir) + "/" + module_file);
#endif
  }
#ifdef GPULAB_BUILD_MODULE_DIR
  add_unique(out, std::string(GPULAB_BUILD_MODULE_DIR) + "/" + module_file);
#endif
  return out;
}

std::string folders_text(const std::vector<std::string>& paths) {
  std::string out;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (i) out += ", ";
    out += paths[i].substr(0, paths[i].find_last_of('/'));
  }
  return out;
}

}  // namespace gpulab::loader

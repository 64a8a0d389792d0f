#pragma once
// Where the run-time modules (libgpulab_cuda.so, libgpulab_vulkan.so) are looked for, shared by their loaders.
#include <string>
#include <vector>

namespace gpulab::loader {

bool is_file(const std::string& path);
// Beside the executable; ../lib/gpulab/ and ../lib/<multiarch>/gpulab from it (an installed tree); the configured
// install directory; the build tree's module directory. Normalised, without repeats.
std::vector<std::string> module_candidates(const std::string& file);
// "a, b, c": the folders of `paths`, for "looked in ..." messages.
std::string folders_text(const std::vector<std::string>& paths);

}  // namespace gpulab::loader

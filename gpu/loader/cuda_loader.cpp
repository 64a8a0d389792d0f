// Finds and opens the CUDA module. Every way this can fail on a student's laptop (no module installed, a
// damaged file, a module from another gpulab version, no driver, no GPU) ends as a sentence in `reason`.
#include "gpulab/cuda_loader.hpp"
#include "gpulab/module_api.hpp"
#include "gpulab/platform.hpp"
#include "loader/module_search.hpp"

#include <cstdlib>
#include <exception>
#include <string>

namespace gpulab {
namespace {

const std::string module_file = platform::module_file_name("gpulab_cuda");

using loader::is_file;

std::vector<std::string> candidate_paths() { return loader::module_candidates(module_file); }

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

// dlopen's message, turned into what it means for the person at the keyboard.
std::string explain_dlopen_failure(const std::string& path, const std::string& error) {
  if (contains(error, "invalid ELF header") || contains(error, "file too short") ||
      contains(error, "ELF load command") || contains(error, "not an ELF") || contains(error, "ELF file"))
    return "the CUDA module at " + path + " is damaged (not a valid shared library; reinstall it): " + error;
  if (contains(error, "wrong ELF class") || contains(error, "ELF machine"))
    return "the CUDA module at " + path + " was built for another kind of computer: " + error;
  if (contains(error, "cannot open shared object file") && !contains(error, path.c_str()))
    return "the CUDA module at " + path +
           " needs a library that is not installed here (the CUDA runtime or cuBLAS): " + error;
  if (contains(error, "undefined symbol"))
    return "the CUDA module at " + path + " does not match the libraries installed here: " + error;
  return "the CUDA module at " + path + " could not be loaded: " + error;
}

}  // namespace

CudaLoadResult load_cuda_backend_from(const std::string& path) {
  CudaLoadResult out;
  out.module_path = path;
  out.searched.push_back(path);
  if (!is_file(path)) {
    out.reason = "the CUDA module was not found at " + path;
    return out;
  }
  if (auto problem = platform::library_file_problem(path)) {
    out.reason = "the CUDA module at " + path + " is damaged (reinstall it): " + *problem;
    return out;
  }
  platform::open_cuda_driver_from_wsl();  // WSL2: the driver's libcuda.so.1 is in /usr/lib/wsl/lib
  // RTLD_LOCAL keeps the module's cuBLAS/cudart symbols out of the global namespace; RTLD_NOW reports a missing
  // dependency here, with a message, instead of as a crash at the first call.
  void* handle = platform::open_library(path, /*share_symbols=*/false);
  if (!handle) {
    out.reason = explain_dlopen_failure(path, platform::library_error());
    return out;
  }
  void* symbol = platform::library_symbol(handle, GPULAB_MODULE_FACTORY);
  if (!symbol) {
    out.reason = "the file at " + path + " is not a gpulab CUDA module (it has no " + GPULAB_MODULE_FACTORY +
                 " entry point): " + platform::library_error();
    platform::close_library(handle);
    return out;
  }
  auto factory = reinterpret_cast<gpulab_factory_fn>(symbol);
  char why[1024] = {0};
  Backend* backend = nullptr;
  try {
    backend = factory(GPULAB_MODULE_API_VERSION, why, sizeof why);
  } catch (const std::exception& e) {
    out.reason = std::string("the CUDA module failed to start: ") + e.what();
  } catch (...) {
    out.reason = "the CUDA module failed to start (an unknown error)";
  }
  why[sizeof why - 1] = '\0';
  if (backend) {
    out.backend.reset(backend);
    // The backend's code lives in the module: the handle stays open for the life of the process.
    return out;
  }
  if (out.reason.empty())
    out.reason = why[0] ? std::string(why) : "the CUDA module at " + path + " refused to start and gave no reason";
  // Not closed even on failure: the module's CUDA runtime may have registered exit handlers that must still
  // find their code when the process ends.
  return out;
}

CudaLoadResult load_cuda_backend() {
  // An explicit choice is honoured alone: falling back to another module would hide why the chosen one failed.
  if (const char* env = std::getenv("GPULAB_CUDA_MODULE"); env && *env) {
    CudaLoadResult r = load_cuda_backend_from(env);
    if (!r.backend && !is_file(env))
      r.reason = "the CUDA module named by GPULAB_CUDA_MODULE was not found at " + std::string(env);
    return r;
  }
  std::vector<std::string> searched = candidate_paths();
  for (const auto& path : searched) {
    if (!is_file(path)) continue;
    // The first module found is the one this installation means; its failure is the reason to report.
    CudaLoadResult r = load_cuda_backend_from(path);
    r.searched = searched;
    return r;
  }
  CudaLoadResult r;
  r.searched = searched;
  r.reason = "this gpulab has no CUDA module (" + module_file + " was not found; looked in " +
             loader::folders_text(searched) + ")";
  return r;
}

}  // namespace gpulab

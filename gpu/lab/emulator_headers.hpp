#pragma once
// The headers a student's file is compiled against (the emulator's shim for CUDA's headers, its own headers, and the
// lab's prelude), compiled into the program and written out once per build to a cache folder: a run-time compile
// finds them wherever the program was installed or built, and always the exact headers this program's emulator was
// built from (the student's library calls into it).
#include <string>

namespace gpulab::lab {

struct HeaderFolders {
  std::string shim;     // stands in for CUDA's include folder (cuda_runtime.h, ...)
  std::string include;  // holds gpulab_emu/
  std::string prelude;  // the prelude file, force-included
};

// Writes the headers under `cache_root` (created when missing) unless this build's copy is there already.
// Throws std::runtime_error when the folder cannot be written.
HeaderFolders emulator_headers(const std::string& cache_root);

// $XDG_CACHE_HOME/gpulab or ~/.cache/gpulab, else the system's temporary folder.
std::string lab_cache_root();

}  // namespace gpulab::lab

#pragma once
// Compiles a student's (rewritten) file into a shared library with clang, as the traced ladder is compiled
// (gpu/cuda_emu/CMakeLists.txt: the same flags, the same access callbacks), and reads clang's diagnostics back as
// lines of the student's file.
#include "emulator_headers.hpp"
#include "gpulab_lab/lab.hpp"

#include <functional>
#include <string>
#include <vector>

namespace gpulab::lab {

struct CompileResult {
  bool ok = false;
  bool stopped = false;
  std::vector<Diagnostic> diagnostics;
  std::string output;  // clang's words, whole
  double seconds = 0;
};

CompileResult compile_student(const std::string& clang, const std::string& source_file, const std::string& library,
                              const HeaderFolders& headers, const std::string& display_path,
                              const std::function<bool()>& stop);

// clang's "file:line:col: error: message" lines, kept when they are about `display_path`; an error inside the
// emulator's headers is moved to the student's line its "requested here" note names; an error in the launcher
// glue becomes "the file must define sgemm_student ...".
std::vector<Diagnostic> parse_diagnostics(const std::string& output, const std::string& display_path);

}  // namespace gpulab::lab

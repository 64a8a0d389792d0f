#pragma once
// A student's CUDA file made into C++ the emulator's build accepts, line for line: every
// `kernel<<<grid, block[, shared[, stream]]>>>(args)` becomes a call of the prelude's launch_at on the same line,
// and a `#line` directive keeps every diagnostic and __FILE__ naming the student's own file and lines.
#include <string>
#include <vector>

namespace gpulab::lab {

struct SourceProblem {
  int line = 0;
  std::string message;
};

struct RewrittenSource {
  std::string text;                     // what clang compiles
  std::vector<SourceProblem> problems;  // what the emulator cannot run, found before compiling
  int launches = 0;                     // <<<>>> launches rewritten
};

// The file name written into the #line directive of the launcher glue: a diagnostic there means the file lacks a
// usable sgemm_student.
inline constexpr const char* kEntryGlueFile = "<gpulab: sgemm_student launcher>";

// `display_path` is the name diagnostics carry (the student's file as given).
RewrittenSource rewrite_student_source(const std::string& source, const std::string& display_path);

}  // namespace gpulab::lab

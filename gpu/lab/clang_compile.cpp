#include "clang_compile.hpp"

#include "child_process.hpp"
#include "source_rewrite.hpp"

#include <cstdlib>
#include <sstream>

namespace gpulab::lab {
namespace {

struct RawDiagnostic {
  std::string file;
  int line = 0, column = 0;
  std::string severity;  // error, warning, note, fatal error
  std::string message;
};

// "path:12:5: error: message" → parts; false for any other line. The path may itself hold colons.
bool parse_line(const std::string& text, RawDiagnostic& out) {
  for (const char* severity : {": fatal error: ", ": error: ", ": warning: ", ": note: "}) {
    const std::size_t at = text.find(severity);
    if (at == std::string::npos) continue;
    const std::string where = text.substr(0, at);
    const std::size_t c2 = where.rfind(':');
    if (c2 == std::string::npos) return false;
    const std::size_t c1 = where.rfind(':', c2 - 1);
    if (c1 == std::string::npos) return false;
    try {
      out.line = std::stoi(where.substr(c1 + 1, c2 - c1 - 1));
      out.column = std::stoi(where.substr(c2 + 1));
    } catch (const std::exception&) {
      return false;
    }
    out.file = where.substr(0, c1);
    std::string s(severity);
    out.severity = s.substr(2, s.size() - 4);
    out.message = text.substr(at + s.size());
    return true;
  }
  return false;
}

constexpr const char* kSignature =
    "void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream)";

}  // namespace

std::vector<Diagnostic> parse_diagnostics(const std::string& output, const std::string& display_path) {
  std::vector<RawDiagnostic> raw;
  std::istringstream lines(output);
  for (std::string text; std::getline(lines, text);) {
    RawDiagnostic d;
    if (parse_line(text, d)) raw.push_back(d);
  }
  std::vector<Diagnostic> out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const RawDiagnostic& d = raw[i];
    if (d.severity == "note") continue;
    Diagnostic diag;
    diag.error = d.severity != "warning";
    diag.message = d.message;
    if (d.file == display_path) {
      diag.line = d.line;
      diag.column = d.column;
    } else if (d.file == kEntryGlueFile) {
      diag.message = "the file must define " + std::string(kSignature) + " (clang: " + d.message + ")";
    } else {
      // In a header: the student's line is the first note after it that is in the student's file.
      for (std::size_t j = i + 1; j < raw.size() && raw[j].severity == "note"; ++j)
        if (raw[j].file == display_path) {
          diag.line = raw[j].line;
          diag.column = raw[j].column;
          break;
        }
      diag.message += " (in " + d.file.substr(d.file.rfind('/') + 1) + ")";
    }
    out.push_back(diag);
  }
  return out;
}

CompileResult compile_student(const std::string& clang, const std::string& source_file, const std::string& library,
                              const HeaderFolders& headers, const std::string& display_path,
                              const std::function<bool()>& stop) {
  // The traced ladder's flags (gpu/cuda_emu/CMakeLists.txt), plus what a run-time build needs: a shared library,
  // line tables (the runner's reports name lines), and plain diagnostics to parse.
  std::vector<std::string> argv = {clang, "-std=c++20", "-O2", "-fPIC", "-shared", "-DGPULAB_CUDA_EMULATOR=1",
                                   "-DGPULAB_KERNEL_TRACE=1",
                                   "-fsanitize-coverage=trace-pc-guard,trace-loads,trace-stores",
                                   "-Wno-unknown-pragmas", "-Wno-pass-failed", "-fno-vectorize", "-fno-slp-vectorize",
                                   // A loop that never ends stays one (C++ lets the optimiser delete a side-effect-free
                                   // endless loop; the student should see the timeout a GPU would give).
                                   "-fno-finite-loops", "-gline-tables-only", "-fno-color-diagnostics", "-fno-caret-diagnostics",
                                   "-ferror-limit=20", "-Wall", "-Wno-unused-function", "-Wno-unused-variable",
                                   "-I" + headers.shim, "-I" + headers.include, "-include", headers.prelude,
                                   "-x", "c++", source_file, "-o", library};
  ChildLimits limits;
  limits.wall_seconds = 120;
  limits.stop = stop;
  const ChildResult r = run_child(argv, limits);
  CompileResult out;
  out.seconds = r.seconds;
  out.stopped = r.stopped;
  out.output = r.err + r.out;
  if (!r.started) {
    out.output = r.error;
    out.diagnostics.push_back({0, 0, true, r.error});
    return out;
  }
  out.diagnostics = parse_diagnostics(out.output, display_path);
  out.ok = r.exit_code == 0 && !r.timed_out && !r.stopped;
  if (!out.ok && out.diagnostics.empty()) {
    std::string first = out.output.substr(0, out.output.find('\n'));
    if (r.timed_out) first = "clang took longer than " + std::to_string(int(limits.wall_seconds)) + " s";
    out.diagnostics.push_back({0, 0, true, first.empty() ? "clang failed" : first});
  }
  return out;
}

}  // namespace gpulab::lab

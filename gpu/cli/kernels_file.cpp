// `gpulab kernels --file FILE.cu`: a student's kernel checked and traced by the lab (gpu/lab), printed beside the
// ladder's rows; for graders, a loop over a folder of submissions reads the exit codes or the JSON.
#include "kernels_table.hpp"

#include <gpulab_lab/lab.hpp>
#include <gpulab_lab/lab_json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace gpulab {
namespace {

int exit_code_of(lab::Outcome o) {
  switch (o) {
    case lab::Outcome::passed: return 0;
    case lab::Outcome::compile_error:
    case lab::Outcome::no_compiler: return 2;
    default: return 1;
  }
}

std::string triple(const std::array<unsigned, 3>& v) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

}  // namespace

int cli_kernels_file(const KernelsFileOptions& options, const emu::TraceShape& shape, bool json_out) {
  std::ifstream in(options.file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "kernels: cannot read %s\n", options.file.c_str());
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  lab::LabRequest request;
  request.source = text.str();
  request.display_path = options.file;
  request.trace_shape = shape;
  request.seed = options.seed;
  request.time_limit_seconds = options.time_limit_seconds;
  const lab::LabReport report = lab::run_lab(request);
  const int code = exit_code_of(report.outcome);

  if (report.outcome == lab::Outcome::no_compiler) {
    std::fprintf(stderr, "kernels: %s\n", report.reason.c_str());
  } else if (report.outcome == lab::Outcome::compile_error) {
    for (const lab::Diagnostic& d : report.diagnostics)
      if (d.error)
        std::fprintf(stderr, "%s%s: %s\n", options.file.c_str(),
                     d.line ? (":" + std::to_string(d.line)).c_str() : "", d.message.c_str());
  } else if (!report.passed()) {
    std::fprintf(stderr, "kernels: %s: %s\n", options.file.c_str(), report.reason.c_str());
  }
  if (json_out) {
    nlohmann::json out = lab::report_json(report, options.file);
    if (report.trace) {
      nlohmann::json steps = nlohmann::json::array();
      for (const emu::StepTrace& t : lab::ladder_at(shape)) steps.push_back(lab::trace_row_json(t));
      out["steps"] = steps;
    }
    std::printf("%s\n", out.dump(1).c_str());
    return code;
  }
  if (report.outcome == lab::Outcome::compile_error || report.outcome == lab::Outcome::no_compiler) return code;

  std::printf("%s: %s (seed %llu; shapes", options.file.c_str(), report.passed() ? "right" : "NOT RIGHT",
              static_cast<unsigned long long>(report.seed));
  for (const lab::ShapeCheck& s : report.shapes) std::printf(" %dx%dx%d%s", s.m, s.n, s.k, s.passed ? "" : " [failed]");
  std::printf("; compiled in %.1f s, ran in %.1f s)\n", report.compile_seconds, report.run_seconds);
  if (!report.passed()) std::printf("  %s\n", report.reason.c_str());
  for (const lab::WrongCell& w : report.wrong_cells)
    std::printf("  C[%d][%d] = %s, expected %.6g%s\n", w.row, w.col, w.got.c_str(), w.expected,
                w.written ? (" (written by thread " + triple(w.thread) + " of block " + triple(w.block) + ")").c_str()
                          : " (no thread wrote it)");
  if (report.trace) {
    std::printf("\n");
    print_kernels_header(shape);
    for (const emu::StepTrace& t : lab::ladder_at(shape)) print_kernels_row(t.step, t);
    print_kernels_row("your kernel", *report.trace);
    if (report.closest) {
      std::printf("\nMost like %s.", report.closest->step.c_str());
      if (!report.closest->next_change.empty()) std::printf(" Next: %s", report.closest->next_change.c_str());
      std::printf("\n");
    }
  } else if (!report.trace_error.empty()) {
    std::printf("  not traced: %s\n", report.trace_error.c_str());
  }
  return code;
}

}  // namespace gpulab

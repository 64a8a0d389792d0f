// `gpulab kernels --file FILE.cu`: a student's kernel checked and traced by the lab (gpu/lab), printed beside the
// ladder's rows; for graders, a loop over a folder of submissions reads the exit codes or the JSON.
#include "kernels_table.hpp"

#include <gpulab_lab/gpu_timing.hpp>
#include <gpulab_lab/lab.hpp>
#include <gpulab_lab/lab_json.hpp>

#include <cstdio>
#include <fstream>
#include <optional>
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

int gpu_exit_code(lab::GpuStatus s) {
  switch (s) {
    case lab::GpuStatus::timed: return 0;
    case lab::GpuStatus::compile_error: return 2;
    case lab::GpuStatus::no_nvcc:
    case lab::GpuStatus::no_device: return 3;
    default: return 1;
  }
}

std::string seconds_text(double s) {
  char buf[32];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.2f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  return buf;
}

// How the file was built for the GPU, for the end of the line: "nvcc 13.0.88, -O3 -arch=native -lcublas (sm_90),
// compiled in 24.1 s".
std::string build_text(const lab::GpuTimingReport& g) {
  if (g.nvcc_flags.empty()) return {};
  std::string t = "nvcc " + (g.nvcc_version.empty() ? std::string("?") : g.nvcc_version) + ", " + g.nvcc_flags;
  if (g.arch.find('(') != std::string::npos) t += " " + g.arch.substr(g.arch.find('('));
  if (!g.arch_note.empty()) t += " (" + g.arch_note + ")";
  char secs[32];
  std::snprintf(secs, sizeof secs, ", compiled in %.1f s", g.compile_seconds);
  return t + secs;
}

// One line: the timing, measured, or why there is none.
void print_gpu_line(const lab::GpuTimingReport& g) {
  const std::string build = build_text(g);
  if (g.timed()) {
    std::printf("GPU, measured on %s (compute capability %s) at %dx%dx%d: your kernel %.0f GFLOP/s (median %s of %d), "
                "cuBLAS %.0f GFLOP/s (%s): %.1f %% of cuBLAS. Checked against cuBLAS: max error %.3g (allowed %.3g + "
                "%.3g*|ref|)%s%s. %s.\n",
                g.device->name.c_str(), g.device->compute_capability.c_str(), g.m, g.n, g.k, g.student->gflops,
                seconds_text(g.student->median_s).c_str(), g.student->samples, g.cublas->gflops,
                seconds_text(g.cublas->median_s).c_str(), 100 * g.share_of_cublas(), g.check.max_abs_error,
                g.check.atol, g.check.rtol, g.resized.empty() ? "" : "; ", g.resized.c_str(), build.c_str());
    return;
  }
  std::printf("GPU: not timed: %s%s%s\n", g.reason.c_str(), build.empty() ? "" : " (", build.empty() ? "" : (build + ")").c_str());
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
  int code = exit_code_of(report.outcome);

  // The GPU timing, after a passed check (a wrong kernel is not timed), or without clang (a GPU server may have nvcc
  // and no clang: the GPU check against cuBLAS still runs).
  std::optional<lab::GpuTimingReport> gpu;
  std::string gpu_skipped;
  if (options.gpu) {
    if (report.passed() || report.outcome == lab::Outcome::no_compiler) {
      lab::GpuTimingRequest g;
      g.source = request.source;
      g.display_path = options.file;
      g.size = options.gpu_size;
      if (options.seed) g.seed = *options.seed;
      gpu = lab::time_on_gpu(g);
      code = gpu_exit_code(gpu->status);
      if (code == 0 && report.outcome == lab::Outcome::no_compiler)
        std::fprintf(stderr, "kernels: the emulator's check did not run (%s); the GPU's check against cuBLAS did\n",
                     report.reason.c_str());
    } else {
      gpu_skipped = "not timed on the GPU: the emulator's check did not pass";
    }
  }

  if (report.outcome == lab::Outcome::no_compiler) {
    if (!gpu) std::fprintf(stderr, "kernels: %s\n", report.reason.c_str());
  } else if (report.outcome == lab::Outcome::compile_error) {
    for (const lab::Diagnostic& d : report.diagnostics)
      if (d.error)
        std::fprintf(stderr, "%s%s: %s\n", options.file.c_str(),
                     d.line ? (":" + std::to_string(d.line)).c_str() : "", d.message.c_str());
  } else if (!report.passed()) {
    std::fprintf(stderr, "kernels: %s: %s\n", options.file.c_str(), report.reason.c_str());
  }
  if (gpu && gpu->status == lab::GpuStatus::compile_error) {
    for (const lab::Diagnostic& d : gpu->diagnostics)
      if (d.error)
        std::fprintf(stderr, "%s%s: %s (nvcc)\n", options.file.c_str(),
                     d.line ? (":" + std::to_string(d.line)).c_str() : "", d.message.c_str());
  } else if (gpu && !gpu->timed()) {
    std::fprintf(stderr, "kernels: %s: GPU: %s\n", options.file.c_str(), gpu->reason.c_str());
  }
  if (json_out) {
    nlohmann::json out = lab::report_json(report, options.file);
    if (report.trace) {
      nlohmann::json steps = nlohmann::json::array();
      for (const emu::StepTrace& t : lab::ladder_at(shape)) steps.push_back(lab::trace_row_json(t));
      out["steps"] = steps;
    }
    if (gpu) out["gpu"] = lab::gpu_timing_json(*gpu);
    else if (!gpu_skipped.empty()) out["gpu"] = {{"status", "not_run"}, {"measured", false}, {"reason", gpu_skipped}};
    std::printf("%s\n", out.dump(1).c_str());
    return code;
  }
  if (report.outcome == lab::Outcome::compile_error || report.outcome == lab::Outcome::no_compiler) {
    if (gpu) print_gpu_line(*gpu);
    return code;
  }

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
  if (gpu) {
    std::printf("\n");
    print_gpu_line(*gpu);
  } else if (!gpu_skipped.empty()) {
    std::printf("\nGPU: %s\n", gpu_skipped.c_str());
  }
  return code;
}

}  // namespace gpulab

// run_lab: rewrite → compile (clang, child) → run and check (the runner, child) → symbolize → compare with the ladder.
#include "gpulab_lab/lab.hpp"

#include "child_process.hpp"
#include "clang_compile.hpp"
#include "gpulab_lab/ladder_compare.hpp"
#include "emulator_headers.hpp"
#include "lab_text.hpp"
#include "runner_protocol.hpp"
#include "source_rewrite.hpp"
#include "symbolize.hpp"
#include "trace_json.hpp"
#include "work_folder.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace gpulab::lab {
namespace fs = std::filesystem;

namespace {

std::string runner_path() {
  if (const char* env = std::getenv("GPULAB_LAB_RUNNER"); env && *env) return env;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& candidate : {self.parent_path() / "gpulab-lab-runner",
                                      self.parent_path() / "../libexec/gpulab/gpulab-lab-runner"})
      if (fs::exists(candidate)) return candidate.lexically_normal().string();
  }
#ifdef GPULAB_LAB_RUNNER_BUILD_PATH
  if (fs::exists(GPULAB_LAB_RUNNER_BUILD_PATH)) return GPULAB_LAB_RUNNER_BUILD_PATH;
#endif
  return {};
}

std::string where_text(const std::array<unsigned, 3>& block, const std::array<unsigned, 3>& thread) {
  const auto t = [](const std::array<unsigned, 3>& v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
  };
  return "thread " + t(thread) + " of block " + t(block);
}

// A line the emulator named in its own message ("student.cu:14"), else 0.
int line_in_message(const std::string& message, const std::string& display_path) {
  const std::string base = fs::path(display_path).filename().string();
  const std::size_t at = message.find(base + ":");
  if (at == std::string::npos) return 0;
  return std::atoi(message.c_str() + at + base.size() + 1);
}

void read_checks(const RunnerOutput& run, const std::string& library, const std::string& display_path, LabReport& r) {
  for (const nlohmann::json& c : run.checks) {
    ShapeCheck s{c.value("m", 0), c.value("n", 0), c.value("k", 0), c.value("status", "") == "ok"};
    r.shapes.push_back(s);
    if (s.passed) continue;
    const std::string at = " (checking " + shape_text(s.m, s.n, s.k) + ")";
    if (c.value("status", "") == "wrong") {
      r.outcome = Outcome::wrong;
      r.wrong_count = c.value("wrong_count", 0LL);
      for (const nlohmann::json& w : c.value("wrong", nlohmann::json::array())) {
        WrongCell cell;
        cell.row = w.value("row", 0);
        cell.col = w.value("col", 0);
        cell.expected = w.value("expected", 0.0);
        cell.got = w.at("got").is_string() ? w.at("got").get<std::string>() : number_text(w.at("got").get<double>());
        cell.written = w.value("written", false);
        if (cell.written) {
          cell.block = w.at("block").get<std::array<unsigned, 3>>();
          cell.thread = w.at("thread").get<std::array<unsigned, 3>>();
        }
        r.wrong_cells.push_back(cell);
      }
      r.reason = "wrong answer at " + shape_text(s.m, s.n, s.k) + ": " + std::to_string(r.wrong_count) + " of " +
                 std::to_string(static_cast<long long>(s.m) * s.n) + " cells of C differ from FP64 dot products";
      if (!r.wrong_cells.empty()) {
        const WrongCell& w = r.wrong_cells.front();
        r.reason += "; first C[" + std::to_string(w.row) + "][" + std::to_string(w.col) + "] = " + w.got +
                    ", expected " + number_text(w.expected) +
                    (w.written ? " (written by " + where_text(w.block, w.thread) + ")" : " (no thread wrote it)");
      }
    } else {
      r.outcome = Outcome::fault;
      const std::string message = c.value("message", std::string("the kernel stopped"));
      const auto pc = c.value("pc", std::uintptr_t{0});
      int line = pc ? lines_of(library, {pc}, true).front() : 0;
      if (line == 0) line = line_in_message(message, display_path);
      const int launch_line = c.value("launch_line", 0);
      r.line = line ? line : launch_line;
      r.reason = (line ? "line " + std::to_string(line) + ": "
                       : launch_line ? "the launch at line " + std::to_string(launch_line) + ": " : std::string()) +
                 message + at;
    }
    break;
  }
}

void read_fatal(const FatalLine& f, const std::string& library, const LabReport& sofar, double limit, LabReport& r) {
  // The faulting instruction when it is the student's; else the last access the kernel made.
  const std::vector<int> lines = lines_of(library, {f.pc, f.last}, false);
  const int pc_line = lines[0];
  const int last_line = f.last ? lines_of(library, {f.last}, true).front() : 0;
  r.line = pc_line ? pc_line : last_line ? last_line : f.launch_line;
  const std::string during =
      f.shape >= 0 && f.shape < static_cast<int>(check_shapes().size()) && f.shape <= static_cast<int>(sofar.shapes.size())
          ? " while checking " + shape_text(check_shapes()[f.shape].m, check_shapes()[f.shape].n, check_shapes()[f.shape].k)
          : " while tracing";
  const std::string line_text = r.line ? " at line " + std::to_string(r.line) : std::string();
  if (f.what == "timeout") {
    r.outcome = Outcome::timed_out;
    r.reason = "used more than " + number_text(limit) + " s of CPU time (an endless loop?)" + during + "; it was" + line_text +
               ", " + where_text(f.block, f.thread);
  } else {
    r.outcome = Outcome::crashed;
    char address[40];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(f.address));
    r.reason = "crashed with " + f.what + (f.what == "SIGSEGV" || f.what == "SIGBUS" ? " (address " + std::string(address) + ")" : "") +
               line_text + ", " + where_text(f.block, f.thread) + during;
  }
}

}  // namespace

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::passed: return "passed";
    case Outcome::wrong: return "wrong";
    case Outcome::fault: return "fault";
    case Outcome::crashed: return "crashed";
    case Outcome::timed_out: return "timed_out";
    case Outcome::compile_error: return "compile_error";
    case Outcome::no_compiler: return "no_compiler";
    case Outcome::cancelled: return "cancelled";
    case Outcome::internal_error: return "internal_error";
  }
  return "internal_error";
}

const std::vector<ShapeCheck>& check_shapes() {
  static const std::vector<ShapeCheck> shapes = {
      {1, 1, 1, false},    {7, 7, 7, false},     {33, 33, 33, false},  {1, 70, 3, false},
      {37, 93, 70, false}, {255, 7, 33, false},  {7, 255, 65, false},  {97, 131, 83, false},
  };
  return shapes;
}

std::string find_clang() {
  // GPULAB_LAB_CLANG names the compiler outright (a class's own clang; tests hide it to see the install hint).
  if (const char* chosen = std::getenv("GPULAB_LAB_CLANG")) return find_program({chosen});
#ifdef GPULAB_CONFIGURED_CLANGXX
  const std::string configured = GPULAB_CONFIGURED_CLANGXX;
#else
  const std::string configured;
#endif
  return find_program({"clang++", configured, "clang++-14", "clang++-15", "clang++-16", "clang++-17", "clang++-18",
                       "clang++-19"});
}

std::string compiler_install_hint() {
  return "the lab compiles kernels with clang, which is not installed: install it (Debian/Ubuntu: sudo apt install "
         "clang; Fedora: sudo dnf install clang)";
}

LabReport run_lab(const LabRequest& request, const std::function<void(const LabProgress&)>& progress,
                  const std::function<bool()>& stop) {
  LabReport r;
  const auto say = [&](double fraction, const std::string& what) {
    if (progress) progress({fraction, what});
  };
  r.seed = request.seed ? *request.seed : std::random_device{}() | (std::uint64_t{std::random_device{}()} << 32);
  r.seed &= (std::uint64_t{1} << 53) - 1;  // exact in JSON numbers read as doubles
  r.compiler = find_clang();
  if (r.compiler.empty()) {
    r.outcome = Outcome::no_compiler;
    r.reason = compiler_install_hint();
    return r;
  }
  const RewrittenSource rewritten = rewrite_student_source(request.source, request.display_path);
  if (!rewritten.problems.empty()) {
    r.outcome = Outcome::compile_error;
    for (const SourceProblem& p : rewritten.problems) r.diagnostics.push_back({p.line, 1, true, p.message});
    r.line = rewritten.problems.front().line;
    r.reason = request.display_path + ":" + std::to_string(r.line) + ": " + rewritten.problems.front().message;
    return r;
  }
  try {
    WorkFolder work;
    HeaderFolders headers;
    try {
      headers = emulator_headers(lab_cache_root());
    } catch (const std::exception&) {
      headers = emulator_headers((fs::temp_directory_path() / "gpulab").string());
    }
    const std::string source_file = (work.path() / "student.cpp").string();
    const std::string library = (work.path() / "student.so").string();
    std::ofstream(source_file, std::ios::binary) << rewritten.text;

    say(0.02, "compiling");
    const CompileResult compiled = compile_student(r.compiler, source_file, library, headers, request.display_path, stop);
    r.compile_seconds = compiled.seconds;
    r.compiler_output = compiled.output;
    r.diagnostics = compiled.diagnostics;
    if (compiled.stopped || (stop && stop())) {
      r.outcome = Outcome::cancelled;
      r.reason = "cancelled";
      return r;
    }
    if (!compiled.ok) {
      r.outcome = Outcome::compile_error;
      for (const Diagnostic& d : r.diagnostics)
        if (d.error) {
          r.line = d.line;
          r.reason = request.display_path + (d.line ? ":" + std::to_string(d.line) : std::string()) + ": " + d.message;
          break;
        }
      if (r.reason.empty()) r.reason = "does not compile";
      return r;
    }

    const std::string runner = runner_path();
    if (runner.empty()) {
      r.outcome = Outcome::internal_error;
      r.reason = "the lab's runner (gpulab-lab-runner) is not installed beside this program";
      return r;
    }
    std::string shapes;
    for (const ShapeCheck& s : check_shapes()) shapes += std::to_string(s.m) + "," + std::to_string(s.n) + "," + std::to_string(s.k) + ";";
    const emu::TraceShape& ts = request.trace_shape;
    std::vector<std::string> argv = {runner, "--lib", library, "--seed", std::to_string(r.seed), "--shapes", shapes,
                                     "--time-limit", number_text(request.time_limit_seconds), "--memory-mib",
                                     std::to_string(request.memory_limit_mib)};
    if (request.trace) {
      argv.push_back("--trace");
      argv.push_back(std::to_string(ts.m) + "," + std::to_string(ts.n) + "," + std::to_string(ts.k));
    }
    RunnerOutput run;
    ChildLimits limits;
    // The runner stops itself at its limit of CPU time and says where; this wall-clock limit is the backstop if
    // even that fails, generous because a busy machine gives the child only part of a core.
    limits.wall_seconds = 3 * request.time_limit_seconds + 10;
    limits.stop = stop;
    limits.on_stdout_line = [&](const std::string& line) {
      if (const auto p = take_runner_line(line, run)) say(0.1 + 0.85 * p->first, (p->first < 1 && run.checks.size() < check_shapes().size() ? "checking " : "tracing ") + p->second);
    };
    const ChildResult child = run_child(argv, limits);
    r.run_seconds = child.seconds;
    say(0.97, "reading the results");

    read_checks(run, library, request.display_path, r);
    if (run.load_error) {
      r.outcome = Outcome::compile_error;
      r.reason = "the compiled kernel does not load: " + *run.load_error +
                 " (a function the emulator does not provide, or a declared function that is never defined)";
      r.diagnostics.push_back({0, 0, true, r.reason});
    } else if (child.stopped) {
      r.outcome = Outcome::cancelled;
      r.reason = "cancelled";
    } else if (run.fatal) {
      read_fatal(*run.fatal, library, r, request.time_limit_seconds, r);
    } else if (child.timed_out) {
      r.outcome = Outcome::timed_out;
      r.reason = "ran longer than " + number_text(request.time_limit_seconds) + " s and did not answer";
    } else if (!child.started) {
      r.outcome = Outcome::internal_error;
      r.reason = child.error;
    } else if (child.signal) {
      r.outcome = Outcome::crashed;
      r.reason = "the kernel's process ended with " + signal_name(child.signal);
    } else if (!run.done && r.outcome != Outcome::wrong && r.outcome != Outcome::fault) {
      r.outcome = Outcome::crashed;
      r.reason = "the kernel's process ended early (exit code " + std::to_string(child.exit_code) +
                 ": did the kernel call exit()?)" + (child.err.empty() ? std::string() : " " + child.err.substr(0, 400));
    } else if (r.outcome != Outcome::wrong && r.outcome != Outcome::fault) {
      r.outcome = Outcome::passed;
    }
    if (run.trace) {
      r.trace = trace_from_json(*run.trace);
      if (r.outcome == Outcome::passed && !r.trace->check_passed) {
        r.outcome = Outcome::wrong;
        r.reason = "wrong answer at " + shape_text(ts.m, ts.n, ts.k) + ": " + r.trace->check_message;
      }
    }
    if (run.trace_error) {
      r.trace_error = run.trace_error->value("message", std::string());
      if (r.outcome == Outcome::passed) {
        r.outcome = Outcome::fault;
        r.reason = "while tracing at " + shape_text(ts.m, ts.n, ts.k) + ": " + r.trace_error;
        r.line = line_in_message(r.trace_error, request.display_path);
      }
    }
    if (r.trace) {
      say(0.98, "tracing the ladder to compare");
      r.closest = closest_step(*r.trace, ladder_at(ts));
    }
  } catch (const std::exception& e) {
    r.outcome = Outcome::internal_error;
    r.reason = e.what();
  }
  say(1.0, "done");
  return r;
}

}  // namespace gpulab::lab

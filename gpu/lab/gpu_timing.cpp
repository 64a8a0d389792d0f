// time_on_gpu: find nvcc → choose the architecture (native, else a list) → compile the student's file with the
// shipped harness (child) → run the executable (child, time limit) → read its JSON line.
// Why nvcc rather than NVRTC: see gpulab_lab/gpu_timing.hpp (NVRTC cannot compile the host launcher's <<<>>>).
#include "gpulab_lab/gpu_timing.hpp"

#include "child_process.hpp"
#include "lab_text.hpp"
#include "work_folder.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string_view>
#include <utility>

namespace gpulab::lab {

extern const std::pair<std::string_view, std::string_view> kEmbeddedGpuTiming[];
extern const int kEmbeddedGpuTimingCount;

namespace fs = std::filesystem;

namespace {

constexpr double kCompileLimitSeconds = 300;  // nvcc takes 20-40 s on two busy cores; a hung one is ended
constexpr const char* kResultTag = "{\"gpulab_student_timing\"";
constexpr const char* kSignature =
    "void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream)";

std::string first_line(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  return {};
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Writes the shipped harness (student_timing_main.cu and the files it includes) into `dir`; returns the main file.
fs::path write_harness(const fs::path& dir) {
  fs::path main_file;
  for (int i = 0; i < kEmbeddedGpuTimingCount; ++i) {
    const fs::path name = fs::path(std::string(kEmbeddedGpuTiming[i].first)).filename();
    write_file(dir / name, std::string(kEmbeddedGpuTiming[i].second));
    if (name == "student_timing_main.cu") main_file = dir / name;
  }
  if (main_file.empty()) throw std::runtime_error("this build carries no timing harness");
  return main_file;
}

ChildResult run_quick(const std::vector<std::string>& argv, const std::function<bool()>& stop, double seconds = 30) {
  ChildLimits limits;
  limits.wall_seconds = seconds;
  limits.stop = stop;
  return run_child(argv, limits);
}

// "release 13.0, V13.0.88" → "13.0.88".
std::string nvcc_version_of(const std::string& nvcc, const std::function<bool()>& stop) {
  const ChildResult r = run_quick({nvcc, "--version"}, stop);
  const std::size_t v = r.out.rfind(", V");
  if (v == std::string::npos) return {};
  const std::size_t end = r.out.find_first_of(" \r\n", v + 3);
  return r.out.substr(v + 3, end == std::string::npos ? std::string::npos : end - v - 3);
}

// The lowest architecture this nvcc lists (`--list-gpu-arch`: compute_75 ... for nvcc 13): its PTX is embedded with
// the machine code (-arch=sm_XX is -gencode arch=compute_XX,code=[sm_XX,compute_XX]), so the driver can compile
// it for any newer card at load time.
std::string lowest_listed_arch(const std::string& nvcc, const std::function<bool()>& stop) {
  const ChildResult r = run_quick({nvcc, "--list-gpu-arch"}, stop);
  int lowest = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("compute_", 0) == 0) {
      const int v = std::atoi(line.c_str() + 8);
      if (v > 0 && (lowest == 0 || v < lowest)) lowest = v;
    }
  return lowest ? "sm_" + std::to_string(lowest) : std::string();
}

struct ArchChoice {
  std::string flag;  // what follows -arch=
  std::string description;
  std::string note;  // why not native
};

// -arch=native when nvcc finds a GPU for it; else the device's own architecture when the caller knows it, else the
// lowest nvcc supports (sm_75 for nvcc 13, PTX included). Each candidate is tried with --dryrun (a tenth of a
// second, nothing compiled), so a full compile (20-40 s) is never spent on an architecture nvcc refuses. nvcc 13
// without a GPU does not fail on native: it warns and builds for its default architecture, so the warning counts
// as native not being honoured.
ArchChoice choose_arch(const std::string& nvcc, const std::string& hint, const fs::path& work,
                       const std::function<bool()>& stop) {
  const std::string probe = (work / "arch_probe.cu").string();
  write_file(probe, "int main() { return 0; }\n");
  const auto dryrun = [&](const std::string& arch) {
    return run_quick({nvcc, "-arch=" + arch, "--dryrun", probe, "-o", (work / "arch_probe").string()}, stop);
  };
  ArchChoice choice;
  const ChildResult native = dryrun("native");
  const std::string said = native.err + native.out;
  if (native.started && native.exit_code == 0 && said.find("Cannot find valid GPU") == std::string::npos) {
    const std::string resolved = arch_in_dryrun(said);
    return {"native", resolved.empty() ? "native" : "native (" + resolved + ")", {}};
  }
  choice.note = said.find("Cannot find valid GPU") != std::string::npos
                    ? "nvcc found no GPU for -arch=native"
                    : "this nvcc does not take -arch=native (" + first_line(said) + ")";
  std::vector<std::string> candidates;
  if (hint.size() >= 3 && hint[1] == '.') candidates.push_back("sm_" + hint.substr(0, 1) + hint.substr(2));
  if (hint.size() >= 4 && hint[2] == '.') candidates.push_back("sm_" + hint.substr(0, 2) + hint.substr(3));
  if (const std::string lowest = lowest_listed_arch(nvcc, stop); !lowest.empty()) candidates.push_back(lowest);
  for (const char* a : {"sm_75", "sm_70", "sm_60", "sm_52"}) candidates.push_back(a);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (std::find(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(i), candidates[i]) !=
        candidates.begin() + static_cast<std::ptrdiff_t>(i))
      continue;
    if (stop && stop()) break;
    const ChildResult r = dryrun(candidates[i]);
    if (r.started && r.exit_code == 0) {
      choice.flag = choice.description = candidates[i];
      return choice;
    }
  }
  choice.flag = choice.description = candidates.front();  // the compile then says why it is refused
  return choice;
}

// The folder that holds libcublas beside this nvcc, for the executable's run path (the toolkit's libraries are
// seldom on the loader's path).
std::string cuda_library_dir(const std::string& nvcc) {
  std::error_code ec;
  const fs::path bin = fs::canonical(nvcc, ec).parent_path();
  if (ec) return {};
  for (const fs::path& dir : {bin / "../lib64", bin / "../targets/x86_64-linux/lib", bin / "../lib"}) {
    for (const char* name : {"libcublas.so", "libcublas.so.13", "libcublas.so.12"})
      if (fs::exists(dir / name, ec)) return fs::weakly_canonical(dir, ec).string();
  }
  return {};
}

std::string c_string_literal(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

GpuStatus status_of(const std::string& s) {
  if (s == "timed") return GpuStatus::timed;
  if (s == "wrong") return GpuStatus::wrong;
  if (s == "no_device") return GpuStatus::no_device;
  if (s == "student_error") return GpuStatus::crashed;
  return GpuStatus::failed;  // "cuda_error", "usage", anything unknown
}

int expected_exit(const std::string& s) {
  if (s == "timed") return kTimingExitTimed;
  if (s == "wrong") return kTimingExitWrong;
  if (s == "no_device") return kTimingExitNoDevice;
  if (s == "student_error") return kTimingExitStudentError;
  if (s == "usage") return kTimingExitUsage;
  return kTimingExitCudaError;
}

GpuTiming timing_of(const nlohmann::json& j) {
  GpuTiming t;
  t.median_s = j.value("median_s", 0.0);
  t.min_s = j.value("min_s", 0.0);
  t.max_s = j.value("max_s", 0.0);
  t.rel_spread = j.value("rel_spread", 0.0);
  t.samples = j.value("samples", 0);
  t.settling_dropped = j.value("settling_dropped", 0);
  t.warmup_runs = j.value("warmup_runs", 0);
  t.warmup_s = j.value("warmup_s", 0.0);
  t.gflops = j.value("gflops", 0.0);
  return t;
}

double json_number(const nlohmann::json& j, const char* key, double fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

}  // namespace

const char* gpu_status_name(GpuStatus s) {
  switch (s) {
    case GpuStatus::timed: return "timed";
    case GpuStatus::wrong: return "wrong";
    case GpuStatus::no_nvcc: return "no_nvcc";
    case GpuStatus::no_device: return "no_device";
    case GpuStatus::compile_error: return "compile_error";
    case GpuStatus::crashed: return "crashed";
    case GpuStatus::timed_out: return "timed_out";
    case GpuStatus::cancelled: return "cancelled";
    case GpuStatus::failed: return "failed";
  }
  return "failed";
}

double GpuTimingReport::share_of_cublas() const {
  if (!timed() || !(cublas->gflops > 0)) return 0;
  return student->gflops / cublas->gflops;
}

std::string find_nvcc() {
  // GPULAB_LAB_NVCC names it outright (tests hide it by naming a path that does not exist).
  if (const char* chosen = std::getenv("GPULAB_LAB_NVCC")) return find_program({chosen});
  std::vector<std::string> names;
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(var); root && *root) names.push_back(std::string(root) + "/bin/nvcc");
  names.push_back("nvcc");
  names.push_back("/usr/local/cuda/bin/nvcc");
  return find_program(names);
}

std::string nvcc_install_hint() {
#ifdef _WIN32
  return "timing a kernel on the GPU needs Linux (WSL2 on Windows) with the CUDA toolkit's nvcc";
#else
  return "timing on the GPU compiles your file with the CUDA toolkit's nvcc, which was not found ($CUDA_PATH/bin, "
         "$CUDA_HOME/bin, PATH, /usr/local/cuda/bin): install the CUDA toolkit or set CUDA_PATH";
#endif
}

std::string arch_in_dryrun(const std::string& text) {
  // ptxas is run once per real architecture: "ptxas -arch=sm_90 -m64 ..."; collect them in order.
  std::vector<std::string> archs;
  for (std::size_t at = text.find("ptxas -arch="); at != std::string::npos; at = text.find("ptxas -arch=", at + 1)) {
    const std::size_t from = at + 12, end = text.find_first_of(" \"\r\n", from);
    const std::string a = text.substr(from, end == std::string::npos ? std::string::npos : end - from);
    if (!a.empty() && std::find(archs.begin(), archs.end(), a) == archs.end()) archs.push_back(a);
  }
  std::string out;
  for (const std::string& a : archs) out += (out.empty() ? "" : ",") + a;
  return out;
}

std::vector<Diagnostic> parse_nvcc_diagnostics(const std::string& output, const std::string& source_path) {
  // nvcc's front end: "path(12): error: ..." or "path(12): warning #177-D: ..."; the host compiler: "path:12:5: ...".
  static const std::regex front(R"(^(.+)\((\d+)\): (catastrophic error|error|warning)( #[0-9A-Za-z-]+)?: (.*)$)");
  static const std::regex host(R"(^(.+):(\d+):(\d+): (fatal error|error|warning): (.*)$)");
  const std::string source_name = fs::path(source_path).filename().string();
  std::vector<Diagnostic> out;
  bool said_glue = false;
  std::istringstream lines(output);
  for (std::string text; std::getline(lines, text);) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    std::smatch m;
    std::string file, severity, message;
    int line = 0, column = 0;
    if (std::regex_match(text, m, front)) {
      file = m[1];
      line = std::atoi(m[2].str().c_str());
      severity = m[3];
      message = m[5];
    } else if (std::regex_match(text, m, host)) {
      file = m[1];
      line = std::atoi(m[2].str().c_str());
      column = std::atoi(m[3].str().c_str());
      severity = m[4];
      message = m[5];
    }
    if (!file.empty()) {
      const bool error = severity != "warning";
      if (file == source_path || fs::path(file).filename() == source_name) {
        out.push_back({line, column, error, message});
      } else if (error) {
        // In a header or in the harness: no line of the student's to point at.
        out.push_back({0, 0, true, message + " (in " + fs::path(file).filename().string() + ")"});
      }
      continue;
    }
    if (text.find("undefined reference to `sgemm_student") != std::string::npos) {
      if (!said_glue)
        out.push_back({0, 0, true, "the file must define " + std::string(kSignature) + " (the linker: undefined "
                                   "reference to sgemm_student)"});
      said_glue = true;
    } else if (text.find("multiple definition of `") != std::string::npos ||
               text.rfind("ptxas error", 0) == 0 || text.rfind("ptxas fatal", 0) == 0 ||
               text.rfind("nvcc fatal", 0) == 0 || text.rfind("nvlink error", 0) == 0 ||
               text.rfind("nvlink fatal", 0) == 0) {
      const std::size_t colon = text.find(": ");
      const bool tool_prefix = text.rfind("ptxas", 0) == 0 || text.rfind("nvcc", 0) == 0 || text.rfind("nvlink", 0) == 0;
      out.push_back({0, 0, true, tool_prefix ? text.substr(0, text.find(' ')) + ": " +
                                                   (colon == std::string::npos ? text : text.substr(colon + 2))
                                             : text.substr(text.find("multiple definition"))});
    }
  }
  return out;
}

void read_timing_output(const std::string& stdout_text, int exit_code, int signal, bool timed_out,
                        GpuTimingReport& r) {
  r.exit_code = exit_code;
  r.signal = signal;
  std::string line;
  {
    std::istringstream lines(stdout_text);
    for (std::string l; std::getline(lines, l);)
      if (l.rfind(kResultTag, 0) == 0) line = l;
  }
  if (timed_out) {  // whatever it printed before: it did not finish
    r.status = GpuStatus::timed_out;
    r.reason = "the timing process ran past its time limit and was ended (an endless loop in the kernel?)";
    return;
  }
  if (line.empty()) {
    if (signal) {
      r.status = GpuStatus::crashed;
      r.reason = "the timing process ended with " + signal_name(signal) + " before reporting";
    } else {
      r.status = GpuStatus::failed;
      r.reason = "the timing process ended (exit code " + std::to_string(exit_code) + ") without its result line" +
                 (exit_code == 0 ? " (did the kernel file call exit()?)" : "");
    }
    return;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const std::exception& e) {
    r.status = GpuStatus::failed;
    r.reason = std::string("the timing process's result line is not JSON: ") + e.what();
    return;
  }
  const std::string status = j.value("status", std::string());
  if (const std::string v = j.value("nvcc_version", std::string()); !v.empty()) r.nvcc_version = v;
  if (const std::string f = j.value("nvcc_flags", std::string()); !f.empty()) r.nvcc_flags = f;
  if (const auto d = j.find("device"); d != j.end() && d->is_object()) {
    GpuDevice dev;
    dev.name = d->value("name", std::string());
    dev.compute_capability = d->value("compute_capability", std::string());
    dev.sms = d->value("sms", 0);
    dev.l2_bytes = d->value("l2_bytes", 0LL);
    dev.memory_bytes = json_number(*d, "memory_bytes", 0);
    dev.runtime_version = d->value("runtime_version", 0);
    dev.driver_version = d->value("driver_version", 0);
    r.device = dev;
  }
  r.m = j.value("m", 0);
  r.n = j.value("n", 0);
  r.k = j.value("k", 0);
  r.seed = j.value("seed", std::uint64_t{0});
  r.resized = j.value("resized", std::string());
  r.method = j.value("method", std::string());
  if (const auto c = j.find("check"); c != j.end() && c->is_object()) {
    GpuCheck& k = r.check;
    k.done = true;
    k.passed = c->value("passed", false);
    k.max_abs_error = json_number(*c, "max_abs_error", 0);
    k.atol = json_number(*c, "atol", 0);
    k.rtol = json_number(*c, "rtol", 0);
    k.wrong_cells = c->value("wrong_cells", 0LL);
    k.nonfinite_cells = c->value("nonfinite_cells", 0LL);
    k.first_wrong_row = c->value("first_wrong_row", -1LL);
    k.first_wrong_col = c->value("first_wrong_col", -1LL);
    k.first_wrong_got = json_number(*c, "first_wrong_got", 0);
    k.first_wrong_expected = json_number(*c, "first_wrong_expected", 0);
    k.reference = c->value("reference", std::string());
  }
  if (const auto s = j.find("student"); s != j.end() && s->is_object()) r.student = timing_of(*s);
  if (const auto b = j.find("cublas"); b != j.end() && b->is_object()) r.cublas = timing_of(*b);

  r.status = status_of(status);
  const std::string said = j.value("reason", std::string());
  // The status and the exit code must agree, and a timed result must carry both timings and a passed check: anything
  // else is shown as a failure, never as a measurement.
  if (exit_code != expected_exit(status) || signal) {
    r.status = GpuStatus::failed;
    r.reason = "the timing process reported \"" + status + "\" but " +
               (signal ? "ended with " + signal_name(signal) : "exited with code " + std::to_string(exit_code));
    r.student.reset();
    r.cublas.reset();
    return;
  }
  switch (r.status) {
    case GpuStatus::timed:
      if (!r.student || !r.cublas || !r.check.passed || !(r.student->median_s > 0) || !(r.cublas->median_s > 0)) {
        r.status = GpuStatus::failed;
        r.reason = "the timing process reported a time without both timings and a passed check";
        r.student.reset();
        r.cublas.reset();
      } else {
        r.reason.clear();
      }
      break;
    case GpuStatus::wrong: {
      r.student.reset();
      r.cublas.reset();
      const long long cells = static_cast<long long>(r.m) * r.n;
      r.reason = "wrong answer at " + shape_text(r.m, r.n, r.k) + ": " + std::to_string(r.check.wrong_cells) + " of " +
                 std::to_string(cells) + " cells of C differ from cuBLAS's";
      if (r.check.nonfinite_cells) r.reason += " (" + std::to_string(r.check.nonfinite_cells) + " NaN or Inf)";
      if (r.check.first_wrong_row >= 0)
        r.reason += "; first C[" + std::to_string(r.check.first_wrong_row) + "][" +
                    std::to_string(r.check.first_wrong_col) + "] = " + number_text(r.check.first_wrong_got, 6) +
                    ", cuBLAS " + number_text(r.check.first_wrong_expected, 6);
      break;
    }
    case GpuStatus::crashed:
      r.reason = "your kernel failed on the GPU: " + said;
      break;
    default:
      r.reason = said.empty() ? "the timing process reported \"" + status + "\"" : said;
      break;
  }
}

GpuTimingReport time_on_gpu(const GpuTimingRequest& request, const std::function<void(const LabProgress&)>& progress,
                            const std::function<bool()>& stop) {
  GpuTimingReport r;
  r.seed = request.seed;
  const auto say = [&](double fraction, const std::string& what) {
    if (progress) progress({fraction, what});
  };
  const auto cancelled = [&] {
    r.status = GpuStatus::cancelled;
    r.reason = "cancelled";
    r.student.reset();
    r.cublas.reset();
    return r;
  };
  r.nvcc = find_nvcc();
  if (r.nvcc.empty()) {
    r.status = GpuStatus::no_nvcc;
    r.reason = nvcc_install_hint();
    return r;
  }
  try {
    WorkFolder work;
    const fs::path main_file = write_harness(work.path());
    const fs::path source = work.path() / "student.cu";
    const fs::path exe = work.path() / "student_timing";
    write_file(source, request.source);

    say(0.01, "finding the GPU's architecture for nvcc");
    r.nvcc_version = nvcc_version_of(r.nvcc, stop);
    const ArchChoice arch = choose_arch(r.nvcc, request.compute_capability_hint, work.path(), stop);
    if (stop && stop()) return cancelled();
    r.arch = arch.description;
    r.arch_note = arch.note;
    r.nvcc_flags = "-O3 -arch=" + arch.flag + " -lcublas";
    // The flags reach the executable's JSON through a header beside the harness (a -D with spaces does not survive
    // nvcc's own command lines).
    write_file(work.path() / "student_timing_build.h", "#define GPULAB_TIMING_FLAGS " + c_string_literal(r.nvcc_flags) + "\n");

    std::vector<std::string> argv = {r.nvcc, "-O3", "-arch=" + arch.flag, "-o", exe.string(), main_file.string(),
                                     source.string(), "-lcublas"};
    if (const std::string lib = cuda_library_dir(r.nvcc); !lib.empty()) {
      argv.insert(argv.end(), {"-Xlinker", "-rpath", "-Xlinker", lib});
    }
    say(0.03, "compiling with nvcc (" + arch.description + ")");
    ChildLimits compile_limits;
    compile_limits.wall_seconds = kCompileLimitSeconds;
    compile_limits.stop = stop;
    const ChildResult compiled = run_child(argv, compile_limits);
    r.compile_seconds = compiled.seconds;
    r.compiler_output = compiled.err + compiled.out;
    if (compiled.stopped) return cancelled();
    if (!compiled.started) {
      r.status = GpuStatus::failed;
      r.reason = compiled.error;
      return r;
    }
    r.diagnostics = parse_nvcc_diagnostics(r.compiler_output, source.string());
    if (compiled.timed_out || compiled.exit_code != 0 || compiled.signal) {
      r.status = GpuStatus::compile_error;
      for (const Diagnostic& d : r.diagnostics)
        if (d.error) {
          r.line = d.line;
          r.reason = request.display_path + (d.line ? ":" + std::to_string(d.line) : std::string()) + ": " + d.message;
          break;
        }
      if (r.reason.empty())
        r.reason = compiled.timed_out ? "nvcc took longer than " + number_text(kCompileLimitSeconds, 4) + " s"
                                      : "nvcc failed: " + first_line(r.compiler_output);
      if (r.diagnostics.empty()) r.diagnostics.push_back({0, 0, true, r.reason});
      return r;
    }

    say(0.6, "timing on the GPU beside cuBLAS");
    ChildLimits run_limits;
    run_limits.wall_seconds = request.time_limit_seconds;
    run_limits.stop = stop;
    const ChildResult ran = run_child({exe.string(), "--size", std::to_string(request.size), "--seed",
                                       std::to_string(request.seed)},
                                      run_limits);
    r.run_seconds = ran.seconds;
    r.stderr_text = ran.err.substr(0, 4096);
    if (ran.stopped) return cancelled();
    if (!ran.started) {
      r.status = GpuStatus::failed;
      r.reason = ran.error;
      return r;
    }
    read_timing_output(ran.out, ran.exit_code, ran.signal, ran.timed_out, r);
    if (r.status == GpuStatus::timed_out)
      r.reason = "ran longer than " + number_text(request.time_limit_seconds, 4) + " s and was ended (an endless loop in "
                 "the kernel?)";
  } catch (const std::exception& e) {
    r.status = GpuStatus::failed;
    r.reason = e.what();
  }
  say(1.0, "done");
  return r;
}

}  // namespace gpulab::lab

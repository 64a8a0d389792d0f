// `gpulab bench`: runs a suite headless and writes a recording. Everything a user can get wrong (a suite name,
// the output path, a number) is checked before any experiment starts, so a typo costs a second, not a run.
#include "gpulab/cli.hpp"
#include "option_tables.hpp"
#include "gpulab/cuda_loader.hpp"
#include "gpulab/device_words.hpp"
#include "gpulab/vulkan_loader.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/roofs.hpp"
#include "gpulab/suite_registry.hpp"
#include "gpulab/suites.hpp"
#include "gpulab/models/amdahl_model.hpp"
#include "gpulab/platform.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stop_token>
#include <thread>

namespace gpulab {
namespace {

constexpr const char* bench_usage =
    "usage: gpulab bench [--suite NAME] --out FILE.json [options]\n"
    "  --suite NAME        which experiments to run (default: quick; see --list)\n"
    "  --out FILE.json     where to write the recording (required)\n"
    "  --list              list the suites and exit\n"
    "  --budget SECONDS    time budget per measurement, 0.01 to 600 (default 2)\n"
    "  --max-samples N     most timed samples per measurement, 1 to 100000 (default 50)\n"
    "  --no-gpu            do not load the CUDA module; measure the CPU only\n"
    "  --device KIND       the GPU to measure beside the CPU: cuda (default), vulkan, or cpu (same as --no-gpu)\n"
    "  --allow-cpu-vulkan  with --device vulkan, accept a CPU-type Vulkan device (lavapipe: not a GPU) when\n"
    "                      there is no GPU; its results are labelled with that name\n"
    "  --until-refused     vram suite: go on past the budget until the device refuses an allocation (CUDA, Vulkan)\n"
    "  --hold-cap BYTES    vram suite: hold at most this much (0: no cap; default none on a GPU, 256 MiB on a\n"
    "                      CPU-type Vulkan device, with the estimate scaled to fit under it)\n"
    "  --gpu-only          run only the suite's jobs on the GPU (the CUDA or Vulkan device), not the CPU's\n"
    "  --quiet             no progress on stderr\n"
    "  --check FILE.json   load a recording with the validating loader the app uses, list its results and\n"
    "                      say whether it is complete; runs nothing (exit 0 valid, 1 not a valid recording)\n"
    "The recording is rewritten (atomically) after each result, so FILE.json is a valid recording at every\n"
    "moment; until the run ends it says \"complete\": false. Ctrl-C (SIGINT) or SIGTERM stops the run at the next\n"
    "sample and saves what was measured; a second one ends it at once, leaving the last save in place.\n"
    "exit status: 0 every result ran and passed its check; 1 a result failed its check, the GPU faulted (a sticky\n"
    "error: its context is lost, every later GPU result fails), or the run or the save failed; 2 bad usage; 130\n"
    "stopped early by SIGINT or SIGTERM (the recording holds what was measured).\n";

// One code for "stopped early", whichever signal did it: a script asks "did the bench finish?", not "who stopped
// it?" (the recording's context.stopped_by says that). 130 is what shells report for Ctrl-C.
constexpr int exit_stopped = 130;

struct BenchOptions {
  std::string suite = "quick";
  std::string out;
  std::string check;  // --check FILE.json: validate a recording instead of running
  bool list = false, quiet = false, no_gpu = false, help = false;
  std::string device = "cuda";  // --device: which backend fills the GPU slot
  bool allow_cpu_vulkan = false;
  bool gpu_only = false;
  bool until_refused = false;
  double hold_cap = -1;  // --hold-cap: -1 the suite's default
  std::optional<double> budget_s;
  std::optional<long long> max_samples;
};

struct UsageError {
  std::string message;
};

// A number given on the command line: the whole word must parse, and it must be finite and in range.
double parse_number(const std::string& flag, const std::string& word, double lo, double hi) {
  const char* s = word.c_str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  if (word.empty() || end != s + word.size() || errno == ERANGE || !std::isfinite(v))
    throw UsageError{flag + " needs a number, not \"" + word + "\""};
  if (v < lo || v > hi) {
    std::ostringstream msg;
    msg << flag << " must be from " << lo << " to " << hi << ", not " << word;
    throw UsageError{msg.str()};
  }
  return v;
}

long long parse_whole(const std::string& flag, const std::string& word, long long lo, long long hi) {
  double v = parse_number(flag, word, double(lo), double(hi));
  if (v != std::floor(v)) throw UsageError{flag + " needs a whole number, not \"" + word + "\""};
  return static_cast<long long>(v);
}

// Options that change how a suite runs: with --list or --check nothing runs, so they are refused there.
constexpr const char* k_run_options[] = {"--suite", "--out", "--budget", "--max-samples", "--no-gpu", "--device",
                                         "--allow-cpu-vulkan", "--until-refused", "--hold-cap", "--gpu-only", "--quiet"};

// Refuses an option that the rest of the command line leaves nothing to do (issue 39: an option never does
// nothing in silence). `given` holds every long option given, spelled as typed.
void refuse_options_that_cannot_apply(const BenchOptions& o, const std::set<std::string>& given) {
  const bool runs = !o.help && !o.list && o.check.empty();
  if (o.list && !o.check.empty()) throw UsageError{"--list or --check, not both"};
  if (!runs && !o.help)
    for (const char* name : k_run_options)
      if (given.count(name))
        throw UsageError{std::string(name) + " changes how a suite runs, and " + (o.list ? "--list" : "--check") +
                         " runs none"};
  if (given.count("--cpu-only") && !runs && !o.help) throw UsageError{"--cpu-only changes how a suite runs, and none runs"};
  if (o.allow_cpu_vulkan && o.device != "vulkan")
    throw UsageError{"--allow-cpu-vulkan is for --device vulkan (it lets a CPU-type Vulkan device stand in)"};
  if (given.count("--device") && o.device != "cpu" && (given.count("--no-gpu") || given.count("--cpu-only")))
    throw UsageError{"--device " + o.device + " with --no-gpu: the one says which GPU, the other none"};
  if (o.gpu_only && o.no_gpu) throw UsageError{"--gpu-only with --no-gpu (or --device cpu) leaves nothing to run"};
  if ((o.until_refused || o.hold_cap >= 0) && o.suite != "vram" && o.suite != "all")
    throw UsageError{std::string(o.until_refused ? "--until-refused" : "--hold-cap") +
                     " is for the vram suite (or all), which holds memory; \"" + o.suite + "\" holds none"};
}

BenchOptions parse_args(const Args& args) {
  BenchOptions o;
  std::set<std::string> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i], value;
    bool has_inline = false;
    // --flag=value and --flag value are both accepted.
    if (flag.rfind("--", 0) == 0) {
      if (auto eq = flag.find('='); eq != std::string::npos) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
        has_inline = true;
      }
    }
    if (flag.rfind("--", 0) == 0) given.insert(flag);
    auto take_value = [&]() -> std::string {
      if (has_inline) return value;
      if (i + 1 >= args.size()) throw UsageError{flag + " needs a value"};
      return args[++i];
    };
    auto no_value = [&]() {
      if (has_inline) throw UsageError{flag + " takes no value"};
    };
    if (flag == "--suite" || flag == "-s") {
      o.suite = take_value();
    } else if (flag == "--out" || flag == "-o") {
      o.out = take_value();
      if (o.out.empty()) throw UsageError{"--out needs a file name"};
    } else if (flag == "--list") {
      no_value();
      o.list = true;
    } else if (flag == "--check") {
      o.check = take_value();
      if (o.check.empty()) throw UsageError{"--check needs a file name"};
    } else if (flag == "--quiet" || flag == "-q") {
      no_value();
      o.quiet = true;
    } else if (flag == "--no-gpu" || flag == "--cpu-only") {
      no_value();
      o.no_gpu = true;
    } else if (flag == "--device") {
      o.device = take_value();
      if (o.device != "cuda" && o.device != "vulkan" && o.device != "cpu")
        throw UsageError{"--device must be cuda, vulkan or cpu, not \"" + o.device + "\""};
      if (o.device == "cpu") o.no_gpu = true;
    } else if (flag == "--allow-cpu-vulkan") {
      no_value();
      o.allow_cpu_vulkan = true;
    } else if (flag == "--until-refused") {
      no_value();
      o.until_refused = true;
    } else if (flag == "--hold-cap") {
      o.hold_cap = parse_number(flag, take_value(), 0, 1e15);
    } else if (flag == "--gpu-only") {
      no_value();
      o.gpu_only = true;
    } else if (flag == "--budget") {
      o.budget_s = parse_number(flag, take_value(), 0.01, 600);
    } else if (flag == "--max-samples") {
      o.max_samples = parse_whole(flag, take_value(), 1, 100000);
    } else if (flag == "--help" || flag == "-h") {
      o.help = true;
    } else if (flag.rfind("-", 0) == 0) {
      throw UsageError{"unknown option " + flag};
    } else {
      throw UsageError{"unexpected argument \"" + flag + "\""};
    }
  }
  refuse_options_that_cannot_apply(o, given);
  const bool runs = !o.help && !o.list && o.check.empty();
  if (runs && !is_suite(o.suite)) {
    if (const std::string why = suite_registry().why_no_suite(o.suite); !why.empty()) throw UsageError{why};
    std::string names;
    for (const auto& s : suites()) names += (names.empty() ? "" : ", ") + s.name;
    throw UsageError{"unknown suite \"" + o.suite + "\" (the suites are: " + names + ")"};
  }
  if (runs && o.out.empty()) throw UsageError{"--out FILE.json is required (where to write the recording)"};
  return o;
}

// Proves the recording can be written where asked, before minutes of measuring: a file is created and removed
// in the target folder, exactly as the atomic save will do later.
std::optional<std::string> unwritable_reason(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path + " is a folder; give a file name";
  std::string folder = fs::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  const fs::file_status folder_status = fs::status(folder, ec);
  if (ec) return "the folder " + folder + " does not exist (" + ec.message() + ")";
  if (!fs::is_directory(folder_status)) return folder + " is not a folder";
  return platform::cannot_create_file_beside(path);
}

// Ctrl-C, or the SIGTERM that `timeout`, a batch system or a shutdown sends, stops the suite at the next check of
// the stop token (between samples) and still saves what was measured. The handler only touches lock-free atomics
// (all it may safely do); a watcher thread turns the signal into a stop request.
std::atomic<platform::StopSignal> g_stop_signal{platform::StopSignal::none};  // the first one received
std::atomic<bool> g_saving{false};           // a save is between its temporary file and its rename
std::atomic<bool> g_exit_after_save{false};  // a second signal came during a save: leave once it is done
static_assert(std::atomic<platform::StopSignal>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the signal handler may only use lock-free atomics");

void on_stop_signal(platform::StopSignal signal) {
  if (g_stop_signal.load() == platform::StopSignal::none) {
    g_stop_signal.store(signal);
    return;
  }
  // A second signal: whoever sends it wants out now (a sample can take seconds). Every save is atomic, so the
  // file on disk is the last complete save; only a save in progress is let finish, so that it leaves no
  // temporary file. Checking g_saving again closes the race with a save that ends between the two loads.
  if (g_saving.load()) {
    g_exit_after_save.store(true);
    if (g_saving.load()) return;
  }
  std::_Exit(exit_stopped);
}

// Writes the recording atomically (temporary file + rename beside it), and honours a second signal that came
// while it wrote.
void save_now(const Recording& rec, const std::string& path) {
  g_saving.store(true);
  try {
    save_recording(rec, path);
  } catch (...) {
    g_saving.store(false);
    if (g_exit_after_save.load()) std::_Exit(exit_stopped);
    throw;
  }
  g_saving.store(false);
  if (g_exit_after_save.load()) std::_Exit(exit_stopped);
}

// Installs the stop handler for SIGINT and SIGTERM for the run's lifetime, and the thread that turns a signal into
// a stop request; the destructor restores the previous handlers, on every path out of run_bench.
class StopOnSignals {
 public:
  explicit StopOnSignals(std::stop_source& stop) {
    g_stop_signal.store(platform::StopSignal::none);
    g_saving.store(false);
    g_exit_after_save.store(false);
    m_handler.emplace(on_stop_signal);
    m_watcher = std::jthread([&stop](std::stop_token done) {
      while (!done.stop_requested()) {
        if (g_stop_signal.load() != platform::StopSignal::none) {
          stop.request_stop();
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  }
  ~StopOnSignals() {
    m_watcher.request_stop();
    m_watcher.join();
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
  static std::string signal_name() { return platform::stop_signal_name(g_stop_signal.load()); }

 private:
  std::optional<platform::StopSignalScope> m_handler;  // restores the previous handlers after the watcher ended
  std::jthread m_watcher;
};

class ProgressLine {
 public:
  explicit ProgressLine(bool quiet) : m_quiet(quiet), m_tty(platform::stderr_is_terminal()) {}
  void operator()(const Progress& p) {
    if (m_quiet) return;
    const int percent = static_cast<int>(std::lround(std::clamp(p.fraction, 0.0, 1.0) * 100));
    auto now = std::chrono::steady_clock::now();
    if (m_tty) {
      // A terminal gets one line rewritten in place, at most ten times a second unless the step changes.
      if (p.message == m_last && now - m_last_print < std::chrono::milliseconds(100)) return;
      std::fprintf(stderr, "\r[%3d%%] %s\033[K", percent, p.message.c_str());
      m_open = true;
    } else {
      // A log file gets a line per step, not per sample.
      if (p.message == m_last) return;
      std::fprintf(stderr, "[%3d%%] %s\n", percent, p.message.c_str());
    }
    std::fflush(stderr);
    m_last = p.message;
    m_last_print = now;
  }
  void finish() {
    if (m_open) std::fprintf(stderr, "\n");
    m_open = false;
  }

 private:
  bool m_quiet, m_tty, m_open = false;
  std::string m_last;
  std::chrono::steady_clock::time_point m_last_print{};
};

// Sizes the suites chose in MiB are shown in MiB, so the summary matches the progress lines.
std::string size_of(double bytes) {
  const double mib = bytes / (1024.0 * 1024.0);
  if (mib >= 1 && mib == std::floor(mib)) return std::to_string(static_cast<long long>(mib)) + " MiB";
  return format_bytes(bytes);
}

std::string describe(const Result& r) {
  std::string s = r.experiment + " " + r.variant;
  if (auto g = as_gemm(r)) {
    s += " " + std::string(to_string(r.precision));
    if (g->square() && g->m > 0) s += " " + std::to_string(g->n) + "³";
    else if (g->m > 0) s += " " + std::to_string(g->m) + "×" + std::to_string(g->n) + "×" + std::to_string(g->k);
    if (!g->head.on_gpu && g->library && r.params.count("threads"))
      s += g->threads == 0 ? " all threads" : " " + std::to_string(g->threads) + "T";
  } else if (auto a = as_amdahl_step(r)) {
    s = r.experiment + " " + std::to_string(a->threads) + (a->threads == 1 ? " thread, " : " threads, ") +
        format_fixed(a->serial_share * 100, 0) + "% serial";
  } else if (auto b = as_bandwidth(r)) {
    // The size that ran: a backend may change the request (CUDA grows arrays past 4x L2; Vulkan caps them at one
    // shader buffer's limit, 128 MiB on lavapipe). The traffic it counted says: read + written over 2 or 3 arrays.
    const double ran = r.bytes > 0 ? r.bytes / (r.variant == "triad" ? 3.0 : 2.0) : b->bytes_per_array;
    if (ran > 0) s += " " + size_of(ran);
    if (ran > 0 && b->bytes_per_array > 0 && std::fabs(ran - b->bytes_per_array) > 0.01 * b->bytes_per_array)
      s += " (asked " + size_of(b->bytes_per_array) + ")";
  } else if (auto t = as_transfer(r)) {
    if (t->bytes > 0) s += " " + size_of(t->bytes);
    if (r.params.count("pinned")) s += t->pinned ? " pinned" : " pageable";
  }
  // What ran, in the words the app uses (device_words): "GPU", "Vulkan GPU", "Vulkan on the CPU" (lavapipe is
  // never called a GPU), the CPU's results unprefixed as before.
  if (r.on_gpu()) s = device_words(r).noun + " " + s;
  return s;
}

// Memory experiments are about bytes per second even when they also do arithmetic (triad's a = b + s·c).
std::string rate_of(const Result& r) {
  const bool about_bytes = r.experiment == "bandwidth" || r.experiment == "transfer";
  if (about_bytes && r.gbps > 0) return format_si(r.gbps * 1e9, "B/s");
  if (r.gflops > 0) return format_si(r.gflops * 1e9, "FLOP/s");
  if (r.gbps > 0) return format_si(r.gbps * 1e9, "B/s");
  return "";
}


bool is_gemm(const Result& r, const char* variant, long long n) {
  return r.ok() && r.experiment == "gemm" && r.backend == "cpu" && r.variant == variant &&
         std::llround(r.param("n")) == n && std::llround(r.param("m")) == n && std::llround(r.param("k")) == n;
}

// The two numbers the quick suite exists for: the harness costs nothing (its BLAS time matches a bare call),
// and the naive loop is far slower than BLAS on the same machine.
void print_ratios(const Recording& rec) {
  const auto& rs = rec.results;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const Result& direct = rs[i];
    if (direct.variant != "blas-direct" || !direct.ok() || direct.stats.median_s <= 0) continue;
    long long n = std::llround(direct.param("n"));
    // The harness run it controls is the BLAS run just before it (same size, same threads).
    for (std::size_t j = i; j-- > 0;) {
      if (!is_gemm(rs[j], "blas", n)) continue;
      double ratio = rs[j].stats.median_s / direct.stats.median_s;
      std::printf("harness BLAS / direct OpenBLAS at %lld³ (%s): %.3f (%s)\n", n,
                  direct.param("threads") == 0 ? "all threads" : "1 thread", ratio,
                  std::fabs(ratio - 1) <= 0.05 ? "within 5%: the harness adds nothing measurable"
                                               : "NOT within 5%: the machine was busy or the harness adds overhead");
      break;
    }
  }
  for (long long n : {512LL, 256LL, 1024LL}) {
    const Result* naive = nullptr;
    const Result* blas = nullptr;
    const Result* reordered = nullptr;
    for (const auto& r : rs) {
      if (is_gemm(r, "naive", n)) naive = &r;
      if (is_gemm(r, "reordered", n)) reordered = &r;
      if (is_gemm(r, "blas", n) && (!blas || r.stats.median_s < blas->stats.median_s)) blas = &r;
    }
    // Loop order alone (cache-friendly streaming, vectorised inner loop): the first step up from the professor.
    if (naive && reordered && reordered->stats.median_s > 0)
      std::printf("naive loop -> reordered loop speed-up at %lld³: %.1f× (%s vs %s)\n", n,
                  naive->stats.median_s / reordered->stats.median_s, rate_of(*naive).c_str(),
                  rate_of(*reordered).c_str());
    if (naive && blas && blas->stats.median_s > 0) {
      std::printf("naive loop -> BLAS speed-up at %lld³: %.0f× (%s vs %s)\n", n,
                  naive->stats.median_s / blas->stats.median_s, rate_of(*naive).c_str(), rate_of(*blas).c_str());
      return;
    }
  }
}

// The Amdahl suite's point: measured speed-ups on 1…N threads never beat the law for the job's serial share.
void print_amdahl(const Recording& rec) {
  for (const auto& r : rec.results) {
    if (r.experiment != "amdahl_scaling" || !r.ok() || r.param("threads") < 2 || !r.params.count("speedup")) continue;
    const double share = r.param("serial_share"), n = r.param("threads"), s = r.param("speedup");
    const double law = models::amdahl_speedup(share, n);
    std::printf("Amdahl job, %.0f%% serial, %.0f threads: %.2f× measured, %.2f× by Amdahl's law (%s)\n",
                share * 100, n, s, law,
                s <= law * 1.05 ? "within the law" : "ABOVE the law: the timing was disturbed");
  }
}

// printf's %-40s counts bytes; "512³" has a two-byte character, so pad by characters instead.
std::string pad(std::string text, std::size_t width) {
  std::size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
  if (chars < width) text.append(width - chars, ' ');
  return text;
}

// The naive loop announces how long it will take (a probe of the same product, see estimate_cpu_gemm); here the
// prediction stands beside what it really took, so a wrong estimate shows.
void print_predictions(const Recording& rec) {
  for (const auto& r : rec.results) {
    auto at = [&r](const char* key) { return r.provenance.count(key) ? r.provenance.at(key) : std::string(); };
    const double predicted = std::atof(at("predicted_s").c_str()), actual = std::atof(at("actual_s").c_str());
    if (!(predicted > 0) || !(actual > 0)) continue;
    std::printf("predicted / actual, %s: %s predicted, %s actual (actual/predicted %.2f; %s)\n", describe(r).c_str(),
                format_seconds(predicted).c_str(), format_seconds(actual).c_str(), actual / predicted,
                at("predicted_basis").c_str());
  }
}

// The CPU peak every "% of peak" divides by: its bursts' spread, and the clock × lanes model beside it.
void print_peak(const CpuPeak& p) {
  auto line = [&p](const char* name, double peak, const std::vector<double>& bursts, double model,
                   const std::string& floor) {
    if (bursts.empty()) return;
    const auto [lo, hi] = std::minmax_element(bursts.begin(), bursts.end());
    std::printf("CPU peak %s: %.1f GFLOP/s, best of %zu register-FMA bursts on %d threads (bursts %.1f-%.1f, spread "
                "%.0f %% of the best)%s; model %.1f GFLOP/s\n",
                name, peak, bursts.size(), p.threads, *lo, *hi, *hi > 0 ? 100.0 * (*hi - *lo) / *hi : 0.0,
                floor.empty() ? "" : (", raised to " + floor).c_str(), model);
  };
  line("FP32", p.gflops_fp32, p.bursts_fp32, p.model_fp32, p.floor_source_fp32);
  line("FP64", p.gflops_fp64, p.bursts_fp64, p.model_fp64, p.floor_source_fp64);
  if (!p.model_formula.empty()) std::printf("CPU peak model: %s\n", p.model_formula.c_str());
}

// With a Vulkan device in the run: its best GEMM against the CPU's best BLAS, and its copy against the CPU's triad
// (both bytes read + written), each from this one recording.
void print_vulkan_ratios(const Recording& rec) {
  const Result *vk_gemm = nullptr, *cpu_blas = nullptr, *vk_copy = nullptr, *cpu_triad = nullptr;
  auto better = [](const Result* best, const Result& r, double Result::*field) {
    return !best || r.*field > best->*field;
  };
  auto size = [](const Result& r) { return std::llround(r.param("m") * 1e6 + r.param("n") * 1e3 + r.param("k")); };
  // GEMM: the largest size both ran (the Vulkan shader at its best there), so the two divide like for like.
  long long common = -1;
  for (const auto& v : rec.results)
    if (v.ok() && v.precision == Precision::fp32 && v.experiment == "gemm" && v.backend == "vulkan")
      for (const auto& c : rec.results)
        if (c.ok() && c.precision == Precision::fp32 && c.experiment == "gemm" && c.backend == "cpu" &&
            c.variant == "blas" && size(c) == size(v) && v.param("m") * v.param("n") * v.param("k") > 0)
          common = std::max(common, size(v));
  for (const auto& r : rec.results) {
    // FP32 GEMMs only; bandwidth results are written as FP64 (the CPU streams doubles) whatever the device streams.
    if (!r.ok() || (r.experiment == "gemm" && r.precision != Precision::fp32)) continue;
    if (r.experiment == "gemm" && r.backend == "vulkan" && size(r) == common && better(vk_gemm, r, &Result::gflops))
      vk_gemm = &r;
    if (r.experiment == "gemm" && r.backend == "cpu" && r.variant == "blas" && size(r) == common &&
        better(cpu_blas, r, &Result::gflops))
      cpu_blas = &r;
    if (r.experiment == "bandwidth" && r.backend == "vulkan" && r.variant == "copy" && better(vk_copy, r, &Result::gbps))
      vk_copy = &r;
    if (r.experiment == "bandwidth" && r.backend == "cpu" && r.variant == "triad" && better(cpu_triad, r, &Result::gbps))
      cpu_triad = &r;
  }
  const Result* any = vk_gemm ? vk_gemm : vk_copy;
  const std::string device = any ? device_words(*any).label : std::string("the Vulkan device");
  if (vk_gemm && cpu_blas && cpu_blas->gflops > 0) {
    // A device that refused a larger size for this step (a note in the run) ran at the largest one it accepts.
    std::string size_note;
    for (const auto& r : rec.results)
      if (!r.error.empty() && r.backend == "vulkan" && r.experiment == "gemm" && r.variant == vk_gemm->variant &&
          r.param("n") > vk_gemm->param("n"))
        size_note = "; " + std::to_string(std::llround(vk_gemm->param("n"))) +
                    "³ is the largest size this device accepts for it, " +
                    std::to_string(std::llround(r.param("n"))) + "³ refused";
    std::printf("Vulkan GEMM / CPU BLAS: %.3gx (%s, %.1f GFLOP/s on %s%s; CPU OpenBLAS %.1f GFLOP/s, %s)\n",
                vk_gemm->gflops / cpu_blas->gflops, describe(*vk_gemm).c_str(), vk_gemm->gflops, device.c_str(),
                size_note.c_str(), cpu_blas->gflops, describe(*cpu_blas).c_str());
  }
  if (vk_copy && cpu_triad && cpu_triad->gbps > 0)
    std::printf("Vulkan copy / CPU triad: %.3gx (%s, %.1f GB/s on %s; CPU %s, %.1f GB/s; bytes read + written)\n",
                vk_copy->gbps / cpu_triad->gbps, describe(*vk_copy).c_str(), vk_copy->gbps, device.c_str(),
                describe(*cpu_triad).c_str(), cpu_triad->gbps);
}

// A sticky fault on the GPU (CUDA's illegal address, a contained error…), as the backend names it in its provenance
// ("device_fault"), or as a result made after it carries it; "" when there was none. After such a fault the device's
// context is lost and every later GPU result fails with it: the run must not pass as if jobs had merely been refused.
std::string device_fault(const Backend* gpu, const Recording& rec) {
  if (gpu) {
    const Provenance p = gpu->provenance();
    if (const auto it = p.find("device_fault"); it != p.end() && !it->second.empty()) return it->second;
  }
  for (const auto& r : rec.results)
    if (const auto it = r.provenance.find("device_fault"); it != r.provenance.end() && !it->second.empty())
      return it->second;
  return {};
}

// Returns how many results computed a wrong answer.
int print_summary(const Recording& rec, double seconds) {
  int ok = 0, failed = 0, not_run = 0;
  for (const auto& r : rec.results) {
    const char* status = "ok";
    if (!r.check.passed && r.check.checked > 0) {
      status = "CHECK FAILED";  // computed a wrong answer: never timed, and it fails the run
      ++failed;
    } else if (!r.error.empty()) {
      status = "not run";
      ++not_run;
    } else {
      ++ok;
    }
    std::printf("  %s %10s  %14s  %s", pad(describe(r), 40).c_str(),
                r.stats.n > 0 || r.stats.median_s > 0 ? format_seconds(r.stats.median_s).c_str() : "-",
                rate_of(r).c_str(), status);
    if (!r.error.empty()) std::printf(": %s", r.error.c_str());
    else if (!r.check.passed && !r.check.message.empty()) std::printf(": %s", r.check.message.c_str());
    std::printf("\n");
  }
  auto suite = rec.context.count("suite") ? rec.context.at("suite") : std::string("?");
  std::printf("%s: %zu results in %.1f s (%d ok, %d failed their check, %d not run)\n", suite.c_str(),
              rec.results.size(), seconds, ok, failed, not_run);
  print_ratios(rec);
  print_amdahl(rec);
  print_predictions(rec);
  print_vulkan_ratios(rec);
  for (const std::string& l : roofs_summary(rec)) std::printf("%s\n", l.c_str());
  return failed;
}

// --check: the loader the app replays with, so "valid" here means "gpulab --open will take it".
int check_recording(const std::string& path) {
  Recording rec;
  try {
    rec = load_recording(path);
  } catch (const RecordingError& e) {
    std::fprintf(stderr, "gpulab bench: not a valid recording: %s\n", e.what());
    return 1;
  }
  auto context = [&rec](const char* key) { return rec.context.count(key) ? rec.context.at(key) : std::string(); };
  print_summary(rec, std::atof(context("duration_s").c_str()));
  // The schema: every result that ran reads as its kind (the typed views the pages use).
  const std::vector<std::string> problems = schema_problems(rec);
  for (const auto& p : problems) std::fprintf(stderr, "gpulab bench: %s: %s\n", path.c_str(), p.c_str());
  if (!problems.empty()) {
    std::fprintf(stderr, "gpulab bench: not a valid recording: %zu result(s) do not read as their kind\n",
                 problems.size());
    return 1;
  }
  // The roofs: a point above its own device's measured roof is an error, not a win (roofs.hpp).
  const std::vector<std::string> above = roof_problems(rec);
  for (const auto& p : above) std::fprintf(stderr, "gpulab bench: %s: %s\n", path.c_str(), p.c_str());
  if (!above.empty()) {
    std::fprintf(stderr, "gpulab bench: refused: %zu measured point(s) above their device's measured roof\n",
                 above.size());
    return 1;
  }
  std::string state = "complete";
  if (!rec.complete) {
    state = "partial";
    if (!context("stopped_by").empty()) state += ", stopped by " + context("stopped_by");
    else if (!context("cancelled").empty()) state += ", stopped early";
    else state += ", written while the run was still going (it ended before finishing, or is still running)";
  }
  std::printf("%s: a valid recording, %s, %zu results, %s\n", path.c_str(), recording_label(rec).c_str(),
              rec.results.size(), state.c_str());
  // A device check's recording says which suites its time caps cut short: partial by design, not broken.
  if (const std::string cut = context("device_check_cut"); !cut.empty() && cut != "none")
    std::printf("  cut at their time caps by the device check (what they measured is kept): %s\n", cut.c_str());
  return 0;
}

int run_bench(const BenchOptions& o) {
  if (auto why = unwritable_reason(o.out)) {
    std::fprintf(stderr, "gpulab bench: cannot write the recording to %s: %s\n", o.out.c_str(), why->c_str());
    return 1;
  }
  // Before the CUDA module loads (seconds, on some servers): a signal from then on still stops cleanly.
  std::stop_source stop;
  StopOnSignals signals(stop);  // until run_bench returns, so a second signal cannot cut the final save short

  Backends backends;
  std::unique_ptr<Backend> cpu = make_cpu_backend();
  backends.cpu = cpu.get();
  CudaLoadResult cuda;
  VulkanLoadResult vulkan;
  if (o.no_gpu) {
    backends.gpu_reason = "not used (--no-gpu)";
  } else if (o.device == "vulkan") {
    // The Vulkan device takes the GPU slot: every suite's GPU jobs run on it.
    VulkanOptions vo = VulkanOptions::from_env();
    vo.allow_cpu = vo.allow_cpu || o.allow_cpu_vulkan;
    vulkan = load_vulkan_backend(vo);
    backends.gpu = vulkan.backend.get();
    backends.gpu_reason = vulkan.reason;
  } else {
    cuda = load_cuda_backend();
    backends.gpu = cuda.backend.get();
    backends.gpu_reason = cuda.reason;
  }
  if (!o.quiet) {
    std::fprintf(stderr, "CPU: %s\n", cpu->device_info().name.c_str());
    if (backends.gpu) std::fprintf(stderr, "GPU: %s\n", backends.gpu->device_info().name.c_str());
    else std::fprintf(stderr, "GPU: not available — %s\n", backends.gpu_reason.c_str());
  }

  ProgressLine progress(o.quiet);
  RunContext ctx;
  if (o.budget_s) ctx.policy.time_budget_s = *o.budget_s;
  if (o.max_samples) {
    ctx.policy.max_samples = static_cast<int>(*o.max_samples);
    ctx.policy.min_samples = std::min(ctx.policy.min_samples, ctx.policy.max_samples);
  }
  ctx.stop = stop.get_token();
  ctx.on_progress = [&progress](const Progress& p) { progress(p); };

  // The whole file is rewritten after each job's results, between measurements, never during one. A recording of
  // the all suite with the default 50 samples is well under 1 MiB: a save (serialise, write, fsync, rename) takes
  // 10-30 ms. Only huge sample counts (--max-samples 100000: ~2 MiB a result) make saves slow enough that
  // rewriting after every job would add up; then a save is skipped while less than ten times the last save's
  // cost has passed since it, which keeps saving under ~10% of the run. A skipped result is in the next save, and
  // always in the final one. A failed partial save is reported once and the run goes on; the final save reports
  // its own failure.
  using clock = std::chrono::steady_clock;
  clock::time_point last_save_end{};
  clock::duration last_save_cost{};
  bool save_warned = false;
  auto save_partial = [&](const Recording& partial) {
    const auto begin = clock::now();
    if (last_save_cost > std::chrono::milliseconds(50) && begin - last_save_end < 10 * last_save_cost) return;
    try {
      save_now(partial, o.out);
    } catch (const std::exception& e) {
      if (save_warned) return;
      save_warned = true;
      progress.finish();
      std::fprintf(stderr, "gpulab bench: could not save the results so far (the run goes on): %s\n", e.what());
    }
    last_save_end = clock::now();
    last_save_cost = last_save_end - begin;
  };

  const auto start = std::chrono::steady_clock::now();
  Recording rec;
  try {
    SuiteOptions options;
    options.vram.until_refused = o.until_refused;
    options.vram.cap_bytes = o.hold_cap;
    rec = run_suite(o.suite, backends, ctx, save_partial, o.gpu_only, options);
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rec.context["duration_s"] = std::to_string(seconds);
  const bool stopped = stop.stop_requested();
  if (stopped) {
    rec.complete = false;
    rec.context["stopped_by"] = StopOnSignals::signal_name();
  }

  const int failed = print_summary(rec, seconds);
  const std::string fault = device_fault(backends.gpu, rec);
  if (!fault.empty()) rec.context["device_fault"] = fault;
  const CpuPeak peak = cpu_peak();
  print_peak(peak);
  {
    std::string bursts;
    for (double g : peak.bursts_fp32) bursts += (bursts.empty() ? "" : " ") + format_fixed(g, 1);
    rec.context["cpu_peak_fp32_bursts_gflops"] = bursts;
  }
  try {
    save_now(rec, o.out);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab bench: %s\n", e.what());
    return 1;
  }
  std::printf("wrote %s (%zu results%s)\n", o.out.c_str(), rec.results.size(), stopped ? ", partial" : "");
  if (stopped) {
    std::fprintf(stderr, "gpulab bench: stopped by %s; the recording holds the results measured before that\n",
                 rec.context["stopped_by"].c_str());
    return exit_stopped;
  }
  if (!fault.empty()) {
    int lost = 0;
    for (const auto& r : rec.results)
      if (r.on_gpu() && !r.error.empty()) ++lost;
    std::fprintf(stderr,
                 "gpulab bench: the GPU faulted: %s. %d GPU result(s) failed or were not run; the recording holds "
                 "what was measured before the fault. Run again in a new process.\n",
                 fault.c_str(), lost);
    return 1;
  }
  if (failed > 0) {
    std::fprintf(stderr, "gpulab bench: %d result(s) failed their correctness check (see the recording)\n", failed);
    return 1;
  }
  return 0;
}

}  // namespace

VerbOptions bench_option_table() {
  return {{"bench"},
          {"suite", "out", "check", "device", "hold-cap", "budget", "max-samples"},
          {"list", "quiet", "no-gpu", "cpu-only", "allow-cpu-vulkan", "until-refused", "gpu-only"},
          bench_usage};
}

int cli_bench(const Args& args) {
  try {
    BenchOptions o = parse_args(args);
    if (o.help) {
      std::fputs(bench_usage, stdout);
      return 0;
    }
    if (o.list) {
      for (const auto& s : suites()) std::printf("%-10s %s\n", s.name.c_str(), s.description.c_str());
      return 0;
    }
    if (!o.check.empty()) return check_recording(o.check);
    return run_bench(o);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "gpulab bench: %s\n%s", e.message.c_str(), bench_usage);
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "gpulab bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab bench: failed: %s\n", e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "gpulab bench: failed with an unknown error\n");
    return 1;
  }
}

}  // namespace gpulab

// `gpulab kernels`: the SGEMM ladder's own kernels run on the CPU emulator with every memory access traced, one
// row per step — the numbers behind the "Inside the kernel" page, checkable without the GUI. Counts are exact for
// the emulated run; no time is reported (the emulator's times are not a GPU's).
#include "gpulab/cli.hpp"
#include "option_tables.hpp"

#include "kernels_table.hpp"

#include <gpulab_emu/kernel_trace.hpp>
#include <gpulab_lab/templates.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

namespace gpulab {
namespace {

constexpr const char* k_usage =
    "usage: kernels [--size N | --m M --n N --k K] [--step NAME] [--json]\n"
    "       kernels --file FILE.cu [--size N | --m M --n N --k K] [--seed S] [--time-limit SECONDS] [--json]\n"
    "               [--gpu [--gpu-size N]]\n"
    "  Traces the SGEMM ladder's kernels (01_naive ... 07_warptile) on the CPU emulator at m x n x k (default 128^3,\n"
    "  each 1...512) and prints, per step: global sectors per load request, the share of fetched bytes used,\n"
    "  bytes requested per FLOP, shared-memory reuse and bank-conflict wavefronts. Traced on the CPU emulator:\n"
    "  counts exact, times not a GPU's.\n"
    "  --file: a student's CUDA file defining\n"
    "    void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream)\n"
    "  (row-major C = A*B, launching with <<<grid, block, shared, stream>>>) is compiled with clang for the emulator,\n"
    "  run in a child process with a time and memory limit, checked on random inputs at awkward shapes (a fresh seed\n"
    "  each run unless --seed) and traced beside the ladder. Exit 0: right; 1: wrong, crashed or out of time (the\n"
    "  reason on stderr, check.reason in --json); 2: does not compile (file:line: message).\n"
    "  --gpu: then, on an NVIDIA GPU, the same file compiled with the CUDA toolkit's nvcc (with a timing harness\n"
    "  gpulab ships; NVRTC cannot compile the <<<>>> launcher) and run as a child process: checked against cuBLAS\n"
    "  SGEMM and timed beside it (warm, CUDA events, samples until they agree) at --gpu-size N (default 4096, sized\n"
    "  down when one run would take over 0.5 s). Prints the timing line or why there is none; --json gets a \"gpu\"\n"
    "  object. Runs when the emulator's check passed (or clang is missing). Exit 1 also when the GPU run is wrong or\n"
    "  fails, 2 when nvcc refuses the file, 3 when there is no nvcc or no CUDA device.\n"
    "       kernels --template STEP | blank\n"
    "  Prints a ladder step's kernel file made into a lab file (or a blank launcher) to start from.\n";

bool parse_int(const std::string& s, int& out) {
  try {
    std::size_t used = 0;
    out = std::stoi(s, &used);
    return used == s.size();
  } catch (const std::exception&) {
    return false;
  }
}

// A row's derived figures, for the table and the JSON alike.
struct RowFigures {
  double sectors_per_request = 0, used_share = 0, conflicts_per_request = 0;
};
RowFigures row_figures(const emu::StepTrace& t) {
  RowFigures r;
  r.sectors_per_request =
      t.global_load_requests() ? double(t.global_load_sectors()) / t.global_load_requests() : 0;
  long long used = 0, fetched = 0;
  for (const auto& ins : t.instructions)
    if (!ins.shared && !ins.store) used += ins.bytes_used, fetched += 32 * ins.sectors;
  r.used_share = fetched ? double(used) / fetched : 0;
  r.conflicts_per_request = t.shared_requests() ? double(t.shared_extra_wavefronts()) / t.shared_requests() : 0;
  return r;
}

}  // namespace

void print_kernels_header(const emu::TraceShape& shape) {
  std::printf("Traced on the CPU emulator at %dx%dx%d: counts exact, times not a GPU's.\n"
              "%-16s %-26s %10s %8s %8s %10s %9s %11s %6s\n",
              shape.m, shape.n, shape.k, "step", "kernel", "ld req", "sect/req", "used", "bytes/FLOP", "smem reuse",
              "conflicts/req", "check");
}

void print_kernels_row(const std::string& name, const emu::StepTrace& t) {
  const RowFigures f = row_figures(t);
  std::printf("%-16s %-26s %10lld %8.2f %7.1f%% %10.4f %9.1f %11.2f %6s\n", name.c_str(), t.kernel.c_str(),
              t.global_load_requests(), f.sectors_per_request, 100 * f.used_share, t.bytes_per_flop(), t.shared_reuse(),
              f.conflicts_per_request,
              t.check_passed ? "ok" : "WRONG");
}

VerbOptions kernels_option_table() { return {{"kernels"}, {"size", "m", "n", "k", "step", "file", "seed", "time-limit", "template", "gpu-size"}, {"json", "gpu"}, k_usage}; }

int cli_kernels(const Args& args) {
  emu::TraceShape shape;
  std::string only;
  KernelsFileOptions file_options;
  bool json_out = false, sized = false, sides = false, timed = false, gpu_sized = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    int v = 0;
    if (a == "--help" || a == "-h") {
      std::fputs(k_usage, stdout);
      return 0;
    } else if (a == "--json") {
      json_out = true;
    } else if (a == "--gpu") {
      file_options.gpu = true;
    } else if (a == "--gpu-size" && has_value && parse_int(args[i + 1], v) && v >= 1 && v <= 32768) {
      file_options.gpu_size = v;
      gpu_sized = true;
      ++i;
    } else if (a == "--step" && has_value) {
      only = args[++i];
    } else if (a == "--template" && has_value) {
      const std::string step = args[++i];
      const std::string text = step == "blank" ? lab::blank_launcher() : lab::ladder_template(step);
      if (text.empty()) {
        std::fprintf(stderr, "kernels: no ladder step \"%s\" (01_naive ... 07_warptile, or blank)\n", step.c_str());
        return 2;
      }
      std::fputs(text.c_str(), stdout);
      return 0;
    } else if (a == "--file" && has_value) {
      file_options.file = args[++i];
    } else if (a == "--seed" && has_value && parse_int(args[i + 1], v) && v >= 0) {
      file_options.seed = static_cast<std::uint64_t>(v);
      ++i;
    } else if (a == "--time-limit" && has_value && parse_int(args[i + 1], v) && v > 0) {
      file_options.time_limit_seconds = v;
      timed = true;
      ++i;
    } else if ((a == "--size" || a == "--m" || a == "--n" || a == "--k") && has_value && parse_int(args[i + 1], v)) {
      ++i;
      (a == "--size" ? sized : sides) = true;
      if (a == "--size") shape.m = shape.n = shape.k = v;
      if (a == "--m") shape.m = v;
      if (a == "--n") shape.n = v;
      if (a == "--k") shape.k = v;
    } else {
      std::fprintf(stderr, "kernels: bad argument \"%s\"\n%s", a.c_str(), k_usage);
      return 2;
    }
  }
  // The seed and the time limit are a student file's check's: the ladder's own trace has neither.
  if (file_options.file.empty() && (file_options.seed || timed)) {
    std::fprintf(stderr, "kernels: --seed and --time-limit are for checking a file: add --file FILE.cu\n");
    return 2;
  }
  if (file_options.file.empty() && (file_options.gpu || gpu_sized)) {
    std::fprintf(stderr, "kernels: --gpu times a student's file on the GPU: add --file FILE.cu\n");
    return 2;
  }
  if (gpu_sized && !file_options.gpu) {
    std::fprintf(stderr, "kernels: --gpu-size is the size --gpu times at: add --gpu\n");
    return 2;
  }
  if (!file_options.file.empty()) return cli_kernels_file(file_options, shape, json_out);

  // Refused rather than half-obeyed: --size after --m replaced it unseen, and an unknown step printed an empty table.
  if (sized && sides) {
    std::fprintf(stderr, "kernels: give --size N or --m/--n/--k, not both (one would overwrite the other)\n%s", k_usage);
    return 2;
  }
  if (!only.empty() && emu::kernel_tracing_available()) {
    const auto steps = emu::traced_ladder_steps();
    if (std::find(steps.begin(), steps.end(), only) == steps.end()) {
      std::string names;
      for (const std::string& s : steps) names += (names.empty() ? "" : ", ") + s;
      std::fprintf(stderr, "kernels: --step: no step named \"%s\" (the steps: %s)\n", only.c_str(), names.c_str());
      return 2;
    }
  }
  if (!emu::kernel_tracing_available()) {
    std::fprintf(stderr, "kernels: this build has no traced kernels (clang++ was not found when it was configured)\n");
    return 1;
  }
  nlohmann::json rows = nlohmann::json::array();
  if (!json_out) print_kernels_header(shape);
  int status = 0;
  for (const std::string& step : emu::traced_ladder_steps()) {
    if (!only.empty() && step != only) continue;
    try {
      const emu::StepTrace t = emu::trace_ladder_step(step, shape);
      const RowFigures f = row_figures(t);
      if (!t.check_passed) status = 1;
      if (json_out) {
        nlohmann::json instr = nlohmann::json::array();
        for (const auto& ins : t.instructions)
          instr.push_back({{"name", ins.name}, {"shared", ins.shared}, {"store", ins.store},
                           {"access_bytes", ins.access_bytes}, {"requests", ins.requests},
                           {"sectors", ins.sectors}, {"bytes_used", ins.bytes_used}, {"wavefronts", ins.wavefronts},
                           {"ideal_wavefronts", ins.ideal_wavefronts}});
        rows.push_back({{"step", step}, {"kernel", t.kernel}, {"global_load_requests", t.global_load_requests()},
                        {"sectors_per_load_request", f.sectors_per_request}, {"load_bytes_used_share", f.used_share},
                        {"global_bytes", t.global_bytes()}, {"flops", t.flops()},
                        {"bytes_per_flop", t.bytes_per_flop()}, {"shared_reuse", t.shared_reuse()},
                        {"bank_conflicts_per_shared_request", f.conflicts_per_request}, {"check_passed", t.check_passed},
                        {"instructions", instr}});
      } else {
        print_kernels_row(step, t);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kernels: %s: %s\n", step.c_str(), e.what());
      return 2;
    }
  }
  if (json_out)
    std::printf("%s\n", nlohmann::json{{"kind", "traced on the CPU emulator"},
                                       {"m", shape.m}, {"n", shape.n}, {"k", shape.k}, {"steps", rows}}
                            .dump(1)
                            .c_str());
  return status;
}

}  // namespace gpulab

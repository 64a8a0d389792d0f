// gpulab-bench: the Qt-free front end for GPU servers (no Qt, often no package manager). Same verbs and the same
// recordings as `gpulab bench` / `gpulab devices` / `gpulab calc` in the app.
#include "gpulab/cli.hpp"

#include <cstdio>
#include <exception>
#include <string>

namespace {

constexpr const char* usage =
    "usage:\n"
    "  gpulab-bench [bench] [--suite NAME] --out FILE.json [--list] [--quiet] ...\n"
    "                          run a suite headless and write a recording (see: gpulab-bench bench --help)\n"
    "  gpulab-bench devices [--json]\n"
    "                          the CPU, the GPU (or why there is none) and the CUDA module tried\n"
    "  gpulab-bench calc vram|decode|amdahl ...\n"
    "                          the lesson's models from the command line\n"
    "  gpulab-bench kernels [--size N] [--json]\n"
    "                          the GPU ladder's kernels traced on the CPU emulator (sectors, bytes/FLOP, conflicts)\n"
    "  gpulab-bench plan --card NAME [--device cuda|vulkan] [--jobs]\n"
    "                          each suite's estimated time on a catalogue card, from its plan; runs nothing\n"
    "  gpulab-bench --version | --help\n"
    "Open a recording on any machine with: gpulab --open FILE.json\n";

int dispatch(int argc, char** argv) {
  gpulab::Args args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(usage, stderr);
    return 2;
  }
  const std::string verb = args.front();
  if (verb == "--version" || verb == "version") {
    std::printf("%s\n", gpulab::version_string().c_str());
    return 0;
  }
  if (verb == "--help" || verb == "-h" || verb == "help") {
    std::fputs(usage, stdout);
    return 0;
  }
  gpulab::Args rest(args.begin() + 1, args.end());
  if (verb == "bench") return gpulab::cli_bench(rest);
  if (verb == "devices") return gpulab::cli_devices(rest);
  if (verb == "calc") return gpulab::cli_calc(rest);
  if (verb == "kernels") return gpulab::cli_kernels(rest);
  if (verb == "plan") return gpulab::cli_plan(rest);
  // Options without a verb mean bench: `gpulab-bench --suite quick --out x.json`.
  if (verb.rfind("-", 0) == 0) return gpulab::cli_bench(args);
  std::fprintf(stderr, "gpulab-bench: unknown command \"%s\"\n%s", verb.c_str(), usage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // The verbs do not throw; this is the last line of defence so a bug is a message, never an abort.
  try {
    return dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab-bench: failed: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "gpulab-bench: failed with an unknown error\n");
  }
  return 1;
}

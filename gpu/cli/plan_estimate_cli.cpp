// `gpulab-bench plan --card NAME`: how long each bench suite would take on a catalogue card, from the suites' own
// plans (plan_estimate.hpp); nothing is measured. The device check's --plan prints these against its caps.
#include "gpulab/cli.hpp"
#include "gpulab/plan_estimate.hpp"
#include "gpulab/suites.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {
namespace {

constexpr const char* plan_usage =
    "usage: gpulab-bench plan --card NAME [--device cuda|vulkan] [--suites A,B,...] [--gpu-only]\n"
    "                         [--budget SECONDS] [--max-samples N] [--jobs]\n"
    "  prints \"SUITE SECONDS\" for each suite: its estimated time as one bench run on the catalogue card NAME\n"
    "  (data/gpu-specs.csv; driver names such as \"NVIDIA H200\" match too), from the suites' own plans and the\n"
    "  card's datasheet row, on the device check's host (16 cores). Nothing runs.\n"
    "  --device     the card through the CUDA module (default) or the Vulkan backend\n"
    "  --suites     which suites (default: every suite in \"all\")\n"
    "  --gpu-only   only the suites' GPU jobs, as the device check runs the Vulkan steps\n"
    "  --budget, --max-samples  the bench options the run will be given (defaults as bench's)\n"
    "  --jobs       each job's estimate and its terms under its suite\n";

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double number(const std::string& flag, const std::string& word) {
  char* end = nullptr;
  const double v = std::strtod(word.c_str(), &end);
  if (word.empty() || *end != '\0' || !(v > 0)) throw std::invalid_argument(flag + " needs a positive number");
  return v;
}

}  // namespace

int cli_plan(const Args& args) {
  std::string card_name, device = "cuda";
  std::vector<std::string> names;
  bool gpu_only = false, jobs = false;
  MeasurePolicy policy;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
        return args[++i];
      };
      if (a == "--card") card_name = value();
      else if (a == "--device") device = value();
      else if (a == "--suites") names = split_commas(value());
      else if (a == "--gpu-only") gpu_only = true;
      else if (a == "--jobs") jobs = true;
      else if (a == "--budget") policy.time_budget_s = number(a, value());
      else if (a == "--max-samples") policy.max_samples = static_cast<int>(number(a, value()));
      else if (a == "--help" || a == "-h") {
        std::fputs(plan_usage, stdout);
        return 0;
      } else throw std::invalid_argument("unknown option " + a);
    }
    if (card_name.empty()) throw std::invalid_argument("--card NAME is required");
    if (device != "cuda" && device != "vulkan") throw std::invalid_argument("--device must be cuda or vulkan");
    policy.min_samples = std::min(policy.min_samples, policy.max_samples);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "gpulab-bench plan: %s\n%s", e.what(), plan_usage);
    return 2;
  }
  const models::GpuSpec* card = models::find_gpu(card_name);
  if (!card) {
    std::string all;
    for (const auto& g : models::catalogue()) all += (all.empty() ? "" : ", ") + g.name;
    std::fprintf(stderr, "gpulab-bench plan: no catalogue card matches \"%s\" (the catalogue: %s)\n",
                 card_name.c_str(), all.c_str());
    return 2;
  }
  if (names.empty())
    for (const auto& s : suite_registry().suites())
      if (s.in_all) names.push_back(s.name);
  const ModelDevice md = device == "cuda" ? ModelDevice::cuda : ModelDevice::vulkan;
  std::printf("# %s through %s, bench --budget %g --max-samples %d%s; seconds\n", card->name.c_str(),
              device.c_str(), policy.time_budget_s, policy.max_samples, gpu_only ? " --gpu-only" : "");
  try {
    for (const std::string& name : names) {
      const SuiteEstimate e = estimate_suite(name, *card, md, policy, gpu_only);
      std::printf("%s %.1f\n", name.c_str(), e.seconds);
      if (!jobs) continue;
      std::printf("  %6.2f  start and end of the bench process\n", e.fixed_s);
      for (const JobEstimate& j : e.jobs) std::printf("  %6.2f  %s: %s\n", j.seconds, j.label.c_str(), j.basis.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab-bench plan: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace gpulab

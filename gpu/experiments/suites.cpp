// The named suites behind `gpulab bench`: each suite is the plan a page builds for its default controls
// (registered by its plan file, suite_registry.hpp), run by run_plan; this file adds the recording around it
// (context, partial saves).
// Nothing here throws past run_suite except for an unknown suite name: a failing job becomes an error result.
#include "gpulab/suites.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/platform.hpp"
#include "gpulab/suite_registry.hpp"
#include "gpulab/units.hpp"
#include "suite_gpu_state.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gpulab {
namespace {

std::string hostname() { return platform::host_name(); }

// Library versions as one line: "OpenBLAS 0.3.21; nlohmann_json 3.11.2; ...". Backends report theirs in
// provenance under keys that name a library.
std::string libraries_line(const Backends& b) {
  std::string out = "nlohmann_json " + std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                    std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  auto scan = [&out](const Backend* be) {
    if (!be) return;
    for (const auto& [key, value] : be->provenance()) {
      std::string k = key;
      std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      bool library = k.find("blas") != std::string::npos || k.find("cuda") != std::string::npos ||
                     k.find("driver") != std::string::npos || k.find("runtime") != std::string::npos ||
                     k.find("librar") != std::string::npos || k.find("compiler") != std::string::npos;
      if (library && !value.empty()) out += "; " + key + " " + value;
    }
  };
  scan(b.cpu);
  scan(b.gpu);
  return out;
}

}  // namespace

const std::vector<SuiteInfo>& suites() {
  static const std::vector<SuiteInfo> list = [] {
    std::vector<SuiteInfo> out;
    std::string left_out;
    for (const auto& s : suite_registry().suites()) {
      out.push_back({s.name, s.description});
      if (!s.in_all) left_out += (left_out.empty() ? "" : ", ") + s.name;
    }
    out.push_back({"all", "every suite above one after another, but " + left_out});
    return out;
  }();
  return list;
}

bool is_suite(const std::string& name) {
  return name == "all" || suite_registry().find(name) != nullptr;
}

Recording run_suite(const std::string& name, const Backends& backends, const RunContext& ctx,
                    const std::function<void(const Recording&)>& on_update, bool gpu_only,
                    const SuiteOptions& options) {
  if (!is_suite(name)) throw std::invalid_argument("unknown suite \"" + name + "\"");
  if (!backends.cpu) throw std::invalid_argument("run_suite needs the CPU backend");

  Recording rec;
  for (const auto& [key, value] : base_provenance()) rec.context[key] = value;
  const DeviceInfo cpu = backends.cpu->device_info();
  rec.context["host"] = hostname();
  rec.context["cpu"] = cpu.name;
  rec.context["cpu_cores"] = std::to_string(cpu.compute_units);
  if (!cpu.simd.empty()) rec.context["cpu_simd"] = cpu.simd;
  if (backends.gpu) {
    const DeviceInfo gpu = backends.gpu->device_info();
    rec.context["gpu"] = gpu.name;
    if (!gpu.compute_capability.empty()) rec.context["gpu_compute_capability"] = gpu.compute_capability;
    if (!gpu.driver_version.empty()) rec.context["gpu_driver"] = gpu.driver_version;
    if (!gpu.runtime_version.empty()) rec.context["gpu_runtime"] = gpu.runtime_version;
  } else {
    rec.context["gpu"] = "none";
    rec.context["gpu_reason"] = backends.gpu_reason.empty() ? "no CUDA backend" : backends.gpu_reason;
  }
  // The host memory at the start: jobs keep host copies of their inputs, so what fits the card can still be too large
  // for the host; a job refused for it says so in its own result, and the numbers it was judged by are here.
  const MemoryInfo host = backends.cpu->memory_info();
  if (host.total_bytes > 0)
    rec.context["host_memory"] = format_bytes(host.free_bytes) + " available of " + format_bytes(host.total_bytes) +
                                 " (MemAvailable of MemTotal, at the start)";
  if (backends.gpu) {
    // The GPU module's own reading, which its jobs are sized and refused by (the emulator can simulate a smaller host).
    const Provenance gpu_prov = backends.gpu->provenance();
    if (const auto it = gpu_prov.find("host_memory_available"); it != gpu_prov.end())
      rec.context["gpu_module_host_memory"] = it->second + " available, at the start";
  }
  rec.context["libraries"] = libraries_line(backends);
  rec.context["date"] = iso_date_now();
  rec.context["suite"] = name;
  rec.context["gpulab_version"] = version_string();
  std::ostringstream policy;
  policy << "min " << ctx.policy.min_samples << ", max " << ctx.policy.max_samples << " samples; stop at spread "
         << ctx.policy.target_rel_spread << " or after " << ctx.policy.time_budget_s << " s of timed work";
  rec.context["policy"] = policy.str();

  Plan plan = suite_plan(name, backends, options);
  if (gpu_only && backends.gpu) {
    std::erase_if(plan.jobs, [&](const PlanJob& j) { return j.backend != backends.gpu; });
    rec.context["gpu_only"] = "yes: the CPU's jobs of this suite were left out (--gpu-only)";
  }
  rec.complete = false;  // until every job has run
  if (on_update) on_update(rec);
  // GPU jobs first: GPU time is the scarce kind (a borrowed server, a capped device check), and a run stopped
  // early should have spent it on the GPU. Stable, so CPU jobs that pair up (BLAS then direct BLAS) stay adjacent.
  if (backends.gpu)
    std::stable_partition(plan.jobs.begin(), plan.jobs.end(),
                          [&](const PlanJob& j) { return j.backend == backends.gpu; });
  // The GPU's clocks, power, temperature and throttle reasons around each suite's GPU jobs (NVML), or why not.
  SuiteGpuState gpu_state(backends);
  gpu_state.watch(plan);
  gpu_state.write(rec);
  run_plan(plan, ctx, [&](const std::vector<Result>& rs) {
    for (const auto& r : rs) rec.results.push_back(r);
    gpu_state.write(rec);
    if (on_update) on_update(rec);
  });
  if (ctx.cancelled()) rec.context["cancelled"] = "yes: the run was stopped early; results are those measured";
  rec.complete = !ctx.cancelled();
  if (!ctx.cancelled()) ctx.report(1.0, "done");
  return rec;
}

}  // namespace gpulab

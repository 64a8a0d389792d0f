// The Amdahl page's plan (see amdahl.hpp).
#include "plans/amdahl.hpp"

#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/suite_registry.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <thread>

namespace gpulab {
// Amdahl's law measured: a job with a serial prefix (the page's slider; 5 % by default) on 1, 2, 4 … all threads, timed
// side by side; and on a GPU the cost of launching many tiny kernels, the serial part GPUs add.
Plan amdahl_plan(const Backends& backends, const AmdahlControls& c) {
  PlanBuilder plan(plan_name::amdahl);
  AmdahlScalingSpec spec;
  spec.serial_share = c.serial_share;
  const int hw = c.max_threads > 0 ? c.max_threads : static_cast<int>(std::thread::hardware_concurrency());
  spec.threads = amdahl_thread_ladder(std::max(2, hw));
  Backend* cpu = backends.cpu;
  plan.add({{}, "Amdahl job, " + format_fixed(100 * spec.serial_share, 0) + " % serial, 1…" +
                    std::to_string(spec.threads.back()) + " threads",
            2, cpu, experiment_name::amdahl_scaling, "threads", Precision::fp64,
            {{"serial_share", spec.serial_share}, {"max_threads", double(spec.threads.back())}},
            [cpu, spec](const RunContext& ctx) { return run_amdahl_scaling(*cpu, spec, ctx); }});
  if (backends.gpu) {
    Backend* gpu = backends.gpu;
    const LaunchOverheadSpec launch{1000, 1024};
    const Params params{{"kernels", double(launch.kernels)}, {"elements", double(launch.elements)}};
    // CUDA launches kernels on a stream, Vulkan records dispatches into one command buffer (issue 36): either way
    // back to back without a wait. A backend without it says why instead of a gap.
    if (const Support ok = gpu->supports(launch); !ok.ok)
      plan.note(*gpu, experiment_name::launch_overhead, "tiny_kernels", Precision::fp32, params, ok.reason);
    else
      plan.add({{}, "GPU 1000 tiny kernels back to back", 0.5, gpu, experiment_name::launch_overhead, "tiny_kernels",
                Precision::fp32, params,
                [gpu, launch](const RunContext& ctx) { return one_result(run_launch_overhead(*gpu, launch, ctx)); }});
  }
  return plan.take();
}

GPULAB_PLAN_FILE(amdahl) {
  registry.add({70, "amdahl",
                "the Amdahl page's run: a job with a 5 % serial part on 1…all CPU threads, timed side by side; GPU kernel-launch cost",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return amdahl_plan(b); }});
}

}  // namespace gpulab

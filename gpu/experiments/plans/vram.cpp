// The memory (VRAM) page's plan (see vram.hpp).
#include "plans/vram.hpp"

#include "gpulab/device_words.hpp"
#include "gpulab/suite_registry.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <cmath>

namespace gpulab {
// ---- the memory page's live bars -------------------------------------------------------------------------------

double vram_default_request_bytes() {
  models::VramInputs in;
  in.shape = *models::find_preset("lesson-7b");
  in.context = 4096;
  return models::vram_budget(in, 0).total;  // 17.4 GB: what the page shows by default
}

std::string vram_hold_unavailable(const Backend& gpu) {
  // Holding needs a device allocator and a reading of the memory: CUDA (cudaMemGetInfo) and Vulkan (the heap's
  // budget, or its size less what is held) both have them.
  if (gpu.kind() == "cuda" || gpu.kind() == "vulkan") return {};
  return "holding memory is not offered on " + gpu.kind();
}

HoldRequest vram_hold_request(const models::VramInputs& in) {
  using models::VramMode;
  const models::VramBudget b = models::vram_budget(in, 0);
  HoldRequest q;
  auto add = [&q](HoldPartKind k, double bytes) {
    if (bytes > 0) q.parts.push_back({k, bytes});
  };
  add(HoldPartKind::weights, b.weights);
  if (in.mode == VramMode::train) {
    add(HoldPartKind::gradients, b.gradients);
    add(HoldPartKind::master_weights, b.master_weights);
    add(HoldPartKind::adam_m, b.optimizer / 2);
    add(HoldPartKind::adam_v, b.optimizer / 2);
  }
  if (in.mode == VramMode::lora) add(HoldPartKind::adapters, b.adapter);
  add(HoldPartKind::kv_cache, b.kv_cache);
  add(HoldPartKind::activations, b.activations);
  // The overhead allowance is not held: it stands for what the driver and framework take, which the device's
  // reading shows beside the prediction. After the parts: one more user (their KV cache) per step.
  if (in.mode == VramMode::inference && in.users > 0) q.more_user_bytes = b.kv_cache / in.users;
  return q;
}

namespace {
models::VramInputs vram_default_inputs() {
  models::VramInputs in;
  in.shape = *models::find_preset("lesson-7b");
  in.context = 4096;
  return in;
}
}  // namespace

// The page's estimate held on the GPU slot's device, step by step, and released, with the memory read at every
// step. A device only: the page is about the card's memory, not the host's.
Plan vram_plan(const Backends& backends, const VramControls& c) {
  PlanBuilder plan(plan_name::vram);
  if (!backends.gpu) {
    plan.note(*backends.cpu, experiment_name::hold_memory, "held", Precision::fp32, {},
              "the live memory bars need a GPU: " +
                  (backends.gpu_reason.empty() ? std::string("none here") : backends.gpu_reason));
    return plan.take();
  }
  if (const std::string why = vram_hold_unavailable(*backends.gpu); !why.empty()) {
    plan.note(*backends.gpu, experiment_name::hold_memory, "held", Precision::fp32, {}, why);
    return plan.take();
  }
  Backend* gpu = backends.gpu;
  HoldRequest q;
  if (c.inputs || !(c.request_bytes > 0)) {
    q = vram_hold_request(c.inputs ? *c.inputs : vram_default_inputs());
  } else {
    const int steps = std::max(1, c.steps);
    for (int i = 0; i < steps; ++i) q.parts.push_back({HoldPartKind::chunk, c.request_bytes / steps});
  }
  q.hold_s = c.hold_s;
  q.step_pause_s = c.step_pause_s;
  q.until_refused = c.until_refused;
  // A CPU-type device's "device memory" is this computer's RAM (and on CI a shared runner's): a cap by default,
  // and the estimate scaled to fit under it, so every step is still held and read.
  const bool cpu_type = device_words(gpu->device_info()).device_class == DeviceClass::vulkan_on_cpu;
  q.cap_bytes = c.cap_bytes >= 0 ? c.cap_bytes : cpu_type ? vram_cpu_device_cap : 0;
  const double total = q.predicted_total();
  if (q.cap_bytes > 0 && total > 0.6 * q.cap_bytes) {
    q.scale = 0.6 * q.cap_bytes / total;
    for (auto& p : q.parts) p.bytes *= q.scale;
    q.more_user_bytes *= q.scale;
  }
  const MemoryInfo now = gpu->hold_reading();
  q.margin = default_hold_margin(now);
  // One more user per step, unless a user is a tiny share of the room: then enough users per step that the
  // extra steps number about 32.
  if (q.more_user_bytes > 0) {
    double room = now.free_bytes - q.margin - q.predicted_total();
    if (q.cap_bytes > 0) room = std::min(room, q.cap_bytes - q.predicted_total());
    if (room > 32 * q.more_user_bytes) q.users_per_step = std::ceil(room / q.more_user_bytes / 32);
  }
  const std::string what = c.inputs || !(c.request_bytes > 0) ? "the estimate's parts" : "in " + std::to_string(q.parts.size()) + " steps";
  PlanJob job{{}, "device memory: hold " + format_bytes(q.predicted_total()) + " (" + what + ")" +
                     (q.until_refused ? ", then more until the device refuses" : ", then more users until one would not fit") +
                     ", then free it",
              1.0, gpu, experiment_name::hold_memory, "held", Precision::fp32, {{"requested", q.predicted_total()}},
              [gpu, q](const RunContext& ctx) { return one_result(run_hold(*gpu, q, ctx)); }};
  // The steps it may take (the parts, then at most max_more_steps more users), its waits and the most it may
  // write, for the plan estimate.
  const double most_steps = double(q.parts.size()) + (q.more_user_bytes > 0 ? q.max_more_steps : 0);
  const double most_bytes = q.predicted_total() + q.more_user_bytes * q.users_per_step * q.max_more_steps;
  job.estimate_hints = {{"steps", most_steps},
                        {"step_pause_s", q.step_pause_s},
                        {"hold_s", q.hold_s},
                        {"bytes", std::max(0.0, std::min(now.free_bytes - q.margin, most_bytes))}};
  plan.add(std::move(job));
  return plan.take();
}

GPULAB_PLAN_FILE(vram) {
  registry.add({80, "vram",
                "on a GPU (CUDA or Vulkan): a 7B FP16 model's weights, KV cache and activations held one step each, then one more user at a time until the next would not fit (--until-refused: until the device refuses), the device's reading beside the prediction at each step, then freed",
                true, [](const Backends& b, const SuiteOptions& o) {
                  // A suite records; no class watches its bars fill, so it neither pauses between steps nor holds
                  // the memory afterwards (0.12 s a step was 8 s of a device check's 8 s cap on an H200).
                  VramControls c = o.vram;
                  c.step_pause_s = 0;
                  c.hold_s = 0;
                  return vram_plan(b, c);
                }});
}

}  // namespace gpulab

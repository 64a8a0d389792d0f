// Filling a device's memory on purpose, step by step (the estimate's parts, then one more user at a time), so the
// memory page can show the device's own reading beside the calculator's prediction, up to the moment it does not
// fit — or, when asked, until the device refuses.
#include "gpulab/result_views.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/memory_hold.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpulab {

double HoldRequest::predicted_total() const {
  double t = 0;
  for (const auto& p : parts) t += p.bytes;
  return t;
}

const char* hold_part_name(HoldPartKind k) {
  switch (k) {
    case HoldPartKind::chunk: return "chunk";
    case HoldPartKind::weights: return "weights";
    case HoldPartKind::kv_cache: return "KV cache";
    case HoldPartKind::activations: return "activations";
    case HoldPartKind::gradients: return "gradients";
    case HoldPartKind::master_weights: return "FP32 master";
    case HoldPartKind::adam_m: return "Adam m";
    case HoldPartKind::adam_v: return "Adam v";
    case HoldPartKind::adapters: return "LoRA adapters + Adam";
    case HoldPartKind::more_users: return "more users";
  }
  return "chunk";
}

namespace {

// 1: the held memory is the system's RAM; 0: the card's own; -1: the backend does not say.
int shared_memory_flag(const Backend& backend, const Provenance& p) {
  if (backend.kind() == "cpu") return 1;
  if (backend.kind() == "cuda") return 0;
  const auto it = p.find("memory");
  if (it == p.end()) return -1;
  return it->second.rfind("shared", 0) == 0 ? 1 : 0;
}

std::string where_words(const Backend& backend, int shared) {
  if (backend.kind() == "cpu") return "this computer";
  return shared == 1 ? "the device (its memory is this computer's RAM)" : "the GPU";
}

}  // namespace

Result run_hold(Backend& backend, const HoldRequest& q, const RunContext& ctx) {
  Result base;
  base.experiment = experiment_name::hold_memory;
  base.backend = backend.kind();
  base.precision = Precision::fp32;
  base.provenance = backend.provenance();
  for (auto& [k, v] : base_provenance()) base.provenance[k] = v;
  base.provenance["memory_reading"] = backend.hold_reading_source();
  base.provenance["hold_mode"] = q.until_refused ? "until the device refuses (past its budget)"
                                                 : "stops before the step that would not fit";
  base.check.passed = true;  // nothing to verify: the reading is the result
  const int shared = shared_memory_flag(backend, base.provenance);
  // Whether the reading is the device's own (cudaMemGetInfo, a Vulkan budget, /proc/meminfo) or only counted (a
  // Vulkan heap without VK_EXT_memory_budget: its size less what gpulab holds, which matches the prediction by
  // construction and must not be drawn as a measurement).
  const bool measured_reading = backend.hold_reading_source().rfind("no VK_EXT_memory_budget", 0) != 0;
  const std::string where = where_words(backend, shared);
  const double margin = std::max(0.0, q.margin);
  const double requested = q.predicted_total();
  const int steps = static_cast<int>(q.parts.size());

  const MemoryInfo before = backend.hold_reading();
  std::vector<std::unique_ptr<HeldMemory>> held;
  double total = 0;      // what gpulab holds now
  double predicted = 0;  // the calculator's bytes for the same steps
  auto make = [&](const std::string& variant, const MemoryInfo& now, int step, HoldPartKind part, double step_bytes,
                  double users) {
    Result r = base;
    r.variant = variant;
    r.bytes = total;
    r.params = {{"requested", requested},       {"held", total},
                {"predicted", predicted},       {"step_bytes", step_bytes},
                {"part", double(int(part))},    {"users", users},
                {"margin", margin},             {"scale", q.scale},
                {"cap", q.cap_bytes},           {"shared_memory", double(shared)},
                {"reading_measured", measured_reading ? 1.0 : 0.0},
                {"before_free", before.free_bytes}, {"before_total", before.total_bytes},
                {"now_free", now.free_bytes},   {"now_total", now.total_bytes},
                {"step", double(step)},         {"steps", double(steps)}};
    return r;
  };
  auto emit = [&](Result r) {
    if (ctx.on_result) ctx.on_result(r);
    return r;
  };

  Result last, stop;
  bool stopped = false;
  int more_steps = 0;
  for (int step = 1; !ctx.cancelled(); ++step) {
    const bool is_part = step <= steps;
    if (!is_part && (!(q.more_user_bytes > 0) || more_steps >= q.max_more_steps)) break;
    const HoldPartKind part = is_part ? q.parts[std::size_t(step - 1)].kind : HoldPartKind::more_users;
    const double users = is_part ? 0 : q.users_per_step;
    const double want = is_part ? q.parts[std::size_t(step - 1)].bytes : q.more_user_bytes * q.users_per_step;
    if (!(want > 0)) continue;
    ctx.report(std::min(0.95, double(step - 1) / (steps + 4)),
               "holding " + std::string(hold_part_name(part)) + " (" + format_bytes(want) + ")");

    // Would this step fit? Free memory less the margin, and never past the cap.
    const MemoryInfo now = backend.hold_reading();
    double room = now.free_bytes - margin;
    const bool capped = q.cap_bytes > 0 && total + want > q.cap_bytes;
    const bool fits = want <= room && !capped;
    if (!fits && (!q.until_refused || capped)) {
      Result r = make("refused", now, step, part, want, users);
      r.check.passed = false;
      r.error = capped ? "This is where it would not fit: step " + std::to_string(step) + " (" + hold_part_name(part) +
                             ", " + format_bytes(want) + ") would take the run past its cap of " +
                             format_bytes(q.cap_bytes) + " (" + format_bytes(total) +
                             " held). The cap is this run's, not the device's: it keeps a test or a CPU-type device "
                             "from filling the computer's RAM"
                       : "This is where it would not fit: step " + std::to_string(step) + " (" + hold_part_name(part) +
                             ", " + format_bytes(want) + ") needs more than the " +
                             format_bytes(std::max(0.0, room)) + " that may still be used on " + where + " (" +
                             format_bytes(now.free_bytes) + " free, " + format_bytes(margin) +
                             " kept back); short by " + format_bytes(want - std::max(0.0, room)) +
                             ". Not attempted: " + format_bytes(total) + " was held when it stopped";
      stop = emit(r);
      stopped = true;
      break;
    }
    try {
      held.push_back(fits ? backend.hold_memory(want, margin) : backend.hold_memory_past_budget(want));
    } catch (const DeviceOutOfMemory& e) {
      Result r = make("out_of_memory", backend.hold_reading(), step, part, want, users);
      r.check.passed = false;
      r.error = "Out of memory: the device refused step " + std::to_string(step) + " (" + hold_part_name(part) + ", " +
                format_bytes(want) + ") with " + format_bytes(total) + " held — " + e.what() +
                ". Everything is freed; the run ends here, as asked";
      stop = emit(r);
      stopped = true;
      break;
    } catch (const std::invalid_argument& e) {
      // The backend's own check, on its own reading a moment later (someone else took memory meanwhile).
      Result r = make("refused", backend.hold_reading(), step, part, want, users);
      r.check.passed = false;
      r.error = std::string("This is where it would not fit: ") + e.what();
      stop = emit(r);
      stopped = true;
      break;
    }
    if (!held.back()) break;
    total += held.back()->bytes_held();
    predicted += want;
    if (!is_part) ++more_steps;
    last = emit(make("holding", backend.hold_reading(), step, part, want, users));
    if (q.step_pause_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(q.step_pause_s));
  }
  if (!ctx.cancelled() && !held.empty()) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(q.hold_s);
    while (!ctx.cancelled() && std::chrono::steady_clock::now() < until) {
      ctx.report(0.97, "holding " + format_bytes(total) + "; it is freed in a moment");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  const int last_step = last.params.empty() ? 0 : static_cast<int>(last.param("step"));
  held.clear();
  const double freed = total;
  total = 0;
  predicted = 0;
  const Result released = emit(make("released", backend.hold_reading(), last_step, HoldPartKind::chunk, 0, 0));
  ctx.report(1, "freed " + format_bytes(freed));
  if (last.params.empty()) return stopped ? stop : released;
  last.variant = "held";
  return last;
}

Result run_hold_memory(Backend& backend, double bytes, double margin, int steps, double hold_s, const RunContext& ctx) {
  HoldRequest q;
  steps = std::max(1, steps);
  if (!(bytes > 0) || !std::isfinite(bytes)) {
    Result r;
    r.experiment = experiment_name::hold_memory;
    r.backend = backend.kind();
    r.variant = "refused";
    r.error = "Nothing to hold: the request must be a positive number of bytes";
    r.params = {{"requested", bytes}};
    if (ctx.on_result) ctx.on_result(r);
    return r;
  }
  for (int i = 0; i < steps; ++i) q.parts.push_back({HoldPartKind::chunk, bytes / steps});
  q.margin = margin;
  q.hold_s = hold_s;
  return run_hold(backend, q, ctx);
}

// The typed view of the results written above (result_views.hpp).
std::optional<MemoryHoldStep> as_memory_hold(const Result& r) {
  if (r.experiment != experiment_name::hold_memory) return std::nullopt;
  MemoryHoldStep s;
  s.head = result_header(r);
  s.stage = r.variant == "refused"         ? HoldStage::refused
            : r.variant == "out_of_memory" ? HoldStage::out_of_memory
            : r.variant == "released"      ? HoldStage::released
            : r.variant == "held"          ? HoldStage::held
                                           : HoldStage::holding;
  s.requested = r.param("requested");
  s.held = r.param("held");
  s.margin = r.param("margin");
  s.before_free = r.param("before_free");
  s.before_total = r.param("before_total");
  s.now_free = r.param("now_free");
  s.now_total = r.param("now_total");
  s.step = static_cast<int>(std::lround(r.param("step")));
  s.steps = static_cast<int>(std::lround(r.param("steps")));
  const long part = std::lround(r.param("part"));
  s.part = part >= 0 && part <= long(HoldPartKind::more_users) ? HoldPartKind(part) : HoldPartKind::chunk;
  // Recordings from before the parts: each step's prediction is what was held.
  s.predicted = r.params.count("predicted") ? r.param("predicted") : s.held;
  s.step_bytes = r.param("step_bytes");
  s.users = r.param("users");
  s.scale = r.param("scale", 1);
  s.cap = r.param("cap");
  s.shared_memory = static_cast<int>(std::lround(r.param("shared_memory", -1)));
  s.reading_measured = r.param("reading_measured", 1) != 0;
  return s;
}

}  // namespace gpulab

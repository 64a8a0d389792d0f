// Filling a device's memory on purpose, in steps, so the VRAM page can show cudaMemGetInfo moving.
#include "gpulab/result_views.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/memory_hold.hpp"

#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpulab {

Result run_hold_memory(Backend& backend, double bytes, double margin, int steps, double hold_s, const RunContext& ctx) {
  Result base;
  base.experiment = experiment_name::hold_memory;
  base.backend = backend.kind();
  base.precision = Precision::fp32;
  base.provenance = backend.provenance();
  for (auto& [k, v] : base_provenance()) base.provenance[k] = v;
  base.provenance["memory_reading"] = backend.kind() == "cuda" ? "cudaMemGetInfo" : "/proc/meminfo MemAvailable";
  base.check.passed = true;  // nothing to verify: the reading is the result

  const MemoryInfo before = backend.memory_info();
  steps = std::max(1, steps);
  auto emit = [&](const std::string& variant, double held, const MemoryInfo& now, int step) {
    Result r = base;
    r.variant = variant;
    r.bytes = held;
    r.params = {{"requested", bytes},          {"held", held},
                {"margin", margin},            {"before_free", before.free_bytes},
                {"before_total", before.total_bytes}, {"now_free", now.free_bytes},
                {"now_total", now.total_bytes}, {"step", double(step)},
                {"steps", double(steps)}};
    if (ctx.on_result) ctx.on_result(r);
    return r;
  };

  // Decide once, on the whole request, before anything is allocated.
  const HoldDecision d = check_hold(bytes, margin, before, backend.kind() == "cuda" ? "the GPU" : "this computer");
  if (!d.ok) {
    Result r = base;
    r.variant = "refused";
    r.error = d.reason;
    r.check.passed = false;
    r.params = {{"requested", bytes}, {"margin", margin}, {"before_free", before.free_bytes},
                {"before_total", before.total_bytes}};
    if (ctx.on_result) ctx.on_result(r);
    return r;
  }

  std::vector<std::unique_ptr<HeldMemory>> held;
  double total = 0;
  Result last;
  const double chunk = bytes / steps;
  for (int i = 0; i < steps && !ctx.cancelled(); ++i) {
    ctx.report(double(i) / (steps + 1), "holding " + format_bytes(total + chunk) + " of " + format_bytes(bytes));
    // Each chunk is checked again against the memory free now (someone else may be filling the card too); the
    // margin stays the same, so the sum never comes closer than `margin` to the end of free memory.
    try {
      held.push_back(backend.hold_memory(chunk, margin));
    } catch (const std::exception& e) {
      // The backend refused this chunk (memory taken by someone else meanwhile) or the allocation failed:
      // give everything back and say so.
      held.clear();
      Result r = base;
      r.variant = "refused";
      r.error = e.what();
      r.check.passed = false;
      r.params = {{"requested", bytes}, {"margin", margin}, {"before_free", before.free_bytes},
                  {"before_total", before.total_bytes}, {"held", total}};
      if (ctx.on_result) ctx.on_result(r);
      return r;
    }
    if (!held.back()) break;
    total += held.back()->bytes_held();
    last = emit("holding", total, held.back()->after(), i + 1);
    // A short pause between chunks so the bars visibly fill; it is a demonstration, not a benchmark.
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(hold_s);
  while (!ctx.cancelled() && std::chrono::steady_clock::now() < until) {
    ctx.report(double(steps) / (steps + 1), "holding " + format_bytes(total) + "; it is freed in a moment");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  held.clear();
  emit("released", 0, backend.memory_info(), steps);
  ctx.report(1, "freed " + format_bytes(total));
  last.variant = "held";
  return last;
}

// The typed view of the results written above (result_views.hpp).
std::optional<MemoryHoldStep> as_memory_hold(const Result& r) {
  if (r.experiment != experiment_name::hold_memory) return std::nullopt;
  MemoryHoldStep s;
  s.head = result_header(r);
  s.stage = r.variant == "refused"    ? HoldStage::refused
            : r.variant == "released" ? HoldStage::released
            : r.variant == "held"     ? HoldStage::held
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
  return s;
}

}  // namespace gpulab

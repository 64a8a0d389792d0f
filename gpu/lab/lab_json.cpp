#include "gpulab_lab/lab_json.hpp"

namespace gpulab::lab {

nlohmann::json trace_row_json(const emu::StepTrace& t) {
  const TraceFeatures f = features_of(t);
  long long used = 0, fetched = 0;
  for (const emu::InstructionTrace& i : t.instructions)
    if (!i.shared && !i.store) used += i.bytes_used, fetched += 32 * i.sectors;
  nlohmann::json instructions = nlohmann::json::array();
  for (const emu::InstructionTrace& i : t.instructions)
    instructions.push_back({{"name", i.name}, {"shared", i.shared}, {"store", i.store}, {"access_bytes", i.access_bytes},
                            {"requests", i.requests}, {"sectors", i.sectors}, {"bytes_used", i.bytes_used},
                            {"wavefronts", i.wavefronts}, {"ideal_wavefronts", i.ideal_wavefronts}});
  return {{"step", t.step},
          {"kernel", t.kernel},
          {"m", t.shape.m}, {"n", t.shape.n}, {"k", t.shape.k},
          {"grid", {t.grid[0], t.grid[1], t.grid[2]}},
          {"block", {t.block[0], t.block[1], t.block[2]}},
          {"global_load_requests", t.global_load_requests()},
          {"sectors_per_request", f.sectors_per_request},
          {"load_bytes_used_share", fetched ? double(used) / double(fetched) : 0.0},
          {"global_bytes", t.global_bytes()},
          {"flops", t.flops()},
          {"bytes_per_flop", t.bytes_per_flop()},
          {"shared_reuse", t.shared_reuse()},
          {"bank_conflicts_per_request", f.bank_conflicts_per_request},
          {"cells_per_thread", f.cells_per_thread},
          {"check_passed", t.check_passed},
          {"instructions", instructions}};
}

nlohmann::json report_json(const LabReport& r, const std::string& file) {
  nlohmann::json shapes = nlohmann::json::array();
  for (const ShapeCheck& s : r.shapes) shapes.push_back({{"m", s.m}, {"n", s.n}, {"k", s.k}, {"passed", s.passed}});
  nlohmann::json cells = nlohmann::json::array();
  for (const WrongCell& w : r.wrong_cells) {
    nlohmann::json c = {{"row", w.row}, {"col", w.col}, {"got", w.got}, {"expected", w.expected}, {"written", w.written}};
    if (w.written) c["block"] = w.block, c["thread"] = w.thread;
    cells.push_back(c);
  }
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const Diagnostic& d : r.diagnostics)
    diagnostics.push_back({{"line", d.line}, {"column", d.column}, {"error", d.error}, {"message", d.message}});
  nlohmann::json out = {
      {"file", file},
      {"kind", "checked and traced on the CPU emulator: counts exact, times not a GPU's"},
      {"check",
       {{"passed", r.passed()}, {"outcome", outcome_name(r.outcome)}, {"reason", r.reason}, {"line", r.line},
        {"seed", r.seed}, {"shapes", shapes}, {"wrong_count", r.wrong_count}, {"wrong_cells", cells}}},
      {"compile", {{"compiler", r.compiler}, {"seconds", r.compile_seconds}, {"diagnostics", diagnostics}}},
      {"run_seconds", r.run_seconds},
      {"trace", r.trace ? trace_row_json(*r.trace) : nlohmann::json(nullptr)},
      {"closest_step", r.closest ? nlohmann::json(r.closest->step) : nlohmann::json(nullptr)},
      {"next_change", r.closest ? nlohmann::json(r.closest->next_change) : nlohmann::json(nullptr)}};
  if (!r.trace_error.empty()) out["trace_error"] = r.trace_error;
  return out;
}

namespace {
nlohmann::json timing_json(const GpuTiming& t) {
  return {{"median_s", t.median_s}, {"min_s", t.min_s},         {"max_s", t.max_s},
          {"rel_spread", t.rel_spread}, {"samples", t.samples}, {"settling_dropped", t.settling_dropped},
          {"warmup_runs", t.warmup_runs}, {"warmup_s", t.warmup_s}, {"gflops", t.gflops}};
}
}  // namespace

nlohmann::json gpu_timing_json(const GpuTimingReport& r) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const Diagnostic& d : r.diagnostics)
    diagnostics.push_back({{"line", d.line}, {"column", d.column}, {"error", d.error}, {"message", d.message}});
  nlohmann::json out = {
      {"status", gpu_status_name(r.status)},
      {"measured", r.timed()},
      {"reason", r.reason},
      {"line", r.line},
      {"compile",
       {{"nvcc", r.nvcc}, {"nvcc_version", r.nvcc_version}, {"flags", r.nvcc_flags}, {"arch", r.arch},
        {"arch_note", r.arch_note}, {"seconds", r.compile_seconds}, {"diagnostics", diagnostics}}},
      {"run_seconds", r.run_seconds},
      {"exit_code", r.exit_code}};
  if (r.signal) out["signal"] = r.signal;
  if (r.device)
    out["device"] = {{"name", r.device->name},
                     {"compute_capability", r.device->compute_capability},
                     {"sms", r.device->sms},
                     {"l2_bytes", r.device->l2_bytes},
                     {"memory_bytes", r.device->memory_bytes},
                     {"runtime_version", r.device->runtime_version},
                     {"driver_version", r.device->driver_version}};
  if (r.m > 0) {
    out["m"] = r.m, out["n"] = r.n, out["k"] = r.k, out["seed"] = r.seed;
    if (!r.resized.empty()) out["resized"] = r.resized;
  }
  if (r.check.done)
    out["check"] = {{"passed", r.check.passed},         {"max_abs_error", r.check.max_abs_error},
                    {"atol", r.check.atol},             {"rtol", r.check.rtol},
                    {"wrong_cells", r.check.wrong_cells}, {"nonfinite_cells", r.check.nonfinite_cells},
                    {"reference", r.check.reference}};
  if (r.timed()) {
    out["student"] = timing_json(*r.student);
    out["cublas"] = timing_json(*r.cublas);
    out["share_of_cublas"] = r.share_of_cublas();
    out["method"] = r.method;
  }
  return out;
}

}  // namespace gpulab::lab

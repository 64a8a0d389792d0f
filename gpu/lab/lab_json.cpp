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

}  // namespace gpulab::lab

#include "lab_model.h"

#include "models/measured_peak.h"

#include <gpulab_lab/templates.hpp>

#include <algorithm>

namespace lab_model {
namespace {

// Removes the first occurrence of `what` (whole line kept, its text gone); the source unchanged if it is absent.
std::string without_first(std::string text, const std::string& what, const std::string& instead = "") {
  const std::size_t at = text.find(what);
  if (at != std::string::npos) text.replace(at, what.size(), instead);
  return text;
}

const gpulab::emu::StepTrace* step_trace(const std::vector<gpulab::emu::StepTrace>& ladder, const std::string& step) {
  for (const auto& t : ladder)
    if (t.step == step) return &t;
  return nullptr;
}

}  // namespace

const std::vector<Task>& tasks() {
  static const std::vector<Task> all = {Task::free, Task::coalesce, Task::add_tiles, Task::fix_barrier, Task::fix_edge,
                                        Task::beat_step3};
  return all;
}

std::string task_source(Task task) {
  using gpulab::lab::ladder_template;
  switch (task) {
    case Task::free: return gpulab::lab::blank_launcher();
    case Task::coalesce: return ladder_template("01_naive");
    case Task::add_tiles: return ladder_template("02_coalesced");
    // The bug is made from the real step: the barrier after the tiles are written is removed.
    case Task::fix_barrier:
      return without_first(ladder_template("03_shared_tiles"), "    __syncthreads();\n", "\n");
    // The edge guard is dropped: threads of the edge blocks read past A and write outside C.
    case Task::fix_edge:
      return without_first(ladder_template("02_coalesced"), "  if (row >= m || col >= n) return;\n", "\n");
    case Task::beat_step3: return ladder_template("03_shared_tiles");
  }
  return {};
}

TaskResult judge(Task task, const gpulab::lab::LabReport& report, const std::vector<gpulab::emu::StepTrace>& ladder) {
  TaskResult r;
  if (report.outcome == gpulab::lab::Outcome::cancelled) return r;
  if (report.closest) r.closest = report.closest->step;
  if (!report.passed()) {
    r.verdict = Verdict::not_right;
    return r;
  }
  switch (task) {
    case Task::free:
    case Task::fix_barrier:
    case Task::fix_edge: r.verdict = Verdict::done; break;
    case Task::coalesce: r.verdict = r.closest == "02_coalesced" ? Verdict::done : Verdict::not_yet; break;
    case Task::add_tiles:
      r.verdict = report.trace && report.trace->shared_reuse() > 1 && r.closest >= "03_shared_tiles" ? Verdict::done
                                                                                                     : Verdict::not_yet;
      break;
    case Task::beat_step3: {
      const gpulab::emu::StepTrace* three = step_trace(ladder, "03_shared_tiles");
      if (!report.trace || !three) {
        r.verdict = Verdict::not_yet;
        break;
      }
      r.student_bytes_per_flop = report.trace->bytes_per_flop();
      r.target_bytes_per_flop = three->bytes_per_flop();
      r.verdict = r.student_bytes_per_flop < r.target_bytes_per_flop ? Verdict::done : Verdict::not_yet;
      break;
    }
  }
  return r;
}

std::vector<WhyRow> why_rows(const std::vector<gpulab::emu::StepTrace>& ladder, const gpulab::lab::LabReport& report) {
  const auto row = [](const gpulab::emu::StepTrace& t, const std::string& name) {
    const gpulab::lab::TraceFeatures f = gpulab::lab::features_of(t);
    long long used = 0, fetched = 0;
    for (const auto& i : t.instructions)
      if (!i.shared && !i.store) used += i.bytes_used, fetched += 32 * i.sectors;
    WhyRow w;
    w.name = name;
    w.kernel = t.kernel;
    w.sectors_per_request = f.sectors_per_request;
    w.load_bytes_used_share = fetched ? double(used) / double(fetched) : 0;
    w.bytes_per_flop = t.bytes_per_flop();
    w.shared_reuse = t.shared_reuse();
    w.conflicts_per_request = f.bank_conflicts_per_request;
    w.cells_per_thread = f.cells_per_thread;
    w.check_passed = t.check_passed;
    return w;
  };
  std::vector<WhyRow> out;
  for (const auto& t : ladder) {
    out.push_back(row(t, t.step));
    out.back().closest = report.closest && report.closest->step == t.step;
  }
  if (report.trace) {
    out.push_back(row(*report.trace, "your kernel"));
    out.back().student = true;
    out.back().check_passed = report.passed();
  }
  return out;
}

std::optional<RooflinePlace> roofline_place(const gpulab::emu::StepTrace& trace, double peak_tflops,
                                            double bandwidth_gbs) {
  const double bpf = trace.bytes_per_flop();
  if (bpf <= 0 || peak_tflops <= 0 || bandwidth_gbs <= 0) return std::nullopt;
  RooflinePlace p;
  p.intensity = 1.0 / bpf;
  p.peak_tflops = peak_tflops;
  p.bandwidth_gbs = bandwidth_gbs;
  const double memory_tflops = p.intensity * bandwidth_gbs / 1000.0;
  p.memory_bound = memory_tflops < peak_tflops;
  p.attainable_tflops = std::min(peak_tflops, memory_tflops);
  return p;
}

std::vector<RoofPoint> roof_points(const std::vector<gpulab::emu::StepTrace>& ladder,
                                   const gpulab::lab::LabReport& report, double peak_tflops, double bandwidth_gbs) {
  std::vector<RoofPoint> out;
  const auto add = [&](const gpulab::emu::StepTrace& t, const std::string& name, bool student) {
    if (const auto place = roofline_place(t, peak_tflops, bandwidth_gbs)) out.push_back({name, *place, student});
  };
  for (const auto& t : ladder) add(t, t.step, false);
  if (report.trace) add(*report.trace, "your kernel", true);
  return out;
}

WarpCover warp_cover(const gpulab::emu::StepTrace& trace, int block, int warp) {
  WarpCover c;
  const int m = trace.shape.m, n = trace.shape.n;
  const std::size_t cells = std::size_t(m) * std::size_t(n);
  if (trace.owner_block.size() < cells || trace.owner_warp.size() < cells) return c;
  c.row0 = m, c.col0 = n;
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < n; ++col) {
      const std::size_t i = std::size_t(r) * std::size_t(n) + std::size_t(col);
      if (trace.owner_block[i] != block || trace.owner_warp[i] != warp) continue;
      ++c.cells;
      c.row0 = std::min(c.row0, r), c.row1 = std::max(c.row1, r);
      c.col0 = std::min(c.col0, col), c.col1 = std::max(c.col1, col);
    }
  if (c.cells == 0) return WarpCover{};
  // One cell is no direction: a patch of one.
  c.shape = c.cells > 1 && c.row0 == c.row1   ? WarpCover::Shape::row
            : c.cells > 1 && c.col0 == c.col1 ? WarpCover::Shape::column
                                              : WarpCover::Shape::patch;
  return c;
}

int first_global_load(const gpulab::emu::StepTrace& trace, const std::string& array, int warp) {
  for (std::size_t i = 0; i < trace.instructions.size(); ++i) {
    const gpulab::emu::InstructionTrace& ins = trace.instructions[i];
    if (ins.shared || ins.store || ins.array != array) continue;
    for (const gpulab::emu::WarpSample& s : trace.samples)
      if (s.instruction == int(i) && s.warp == warp) return int(i);
  }
  return -1;
}

GpuSpeed gpu_speed(const gpulab::lab::GpuTimingReport& report, bool same_source, double measured_peak_gflops) {
  GpuSpeed s;
  s.status = report.status;
  s.stale = !same_source;
  if (report.device) s.device = report.device->name;
  if (!report.timed()) {
    s.reason = report.reason;
    return s;
  }
  s.measured = true;
  s.m = report.m, s.n = report.n, s.k = report.k;
  s.resized = report.resized;
  s.student_gflops = report.student->gflops;
  s.cublas_gflops = report.cublas->gflops;
  s.student_seconds = report.student->median_s;
  s.cublas_seconds = report.cublas->median_s;
  s.share_of_cublas = report.share_of_cublas();
  const measured_peak::Share share = measured_peak::shareOf(s.student_gflops, measured_peak_gflops);
  if (share.of > 0) {
    s.peak_gflops = measured_peak_gflops;
    s.share_of_peak = share.of;
    s.above_peak = share.above;
  }
  return s;
}

}  // namespace lab_model

#include "pages/precision/model/precision_model.h"

#include "gpulab/models/catalogue.hpp"
#include "plans/precision.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>

namespace precision_model {

std::vector<Row> initialRows() {
  std::vector<Row> rows;
  for (gpulab::Precision p : gpulab::all_precisions) {
    Row r;
    r.precision = p;
    rows.push_back(r);
  }
  return rows;
}

Row& rowOf(std::vector<Row>& rows, gpulab::Precision p) {
  return *std::find_if(rows.begin(), rows.end(), [p](const Row& r) { return r.precision == p; });
}

const Row& rowOf(const std::vector<Row>& rows, gpulab::Precision p) {
  return *std::find_if(rows.begin(), rows.end(), [p](const Row& r) { return r.precision == p; });
}

void applySupport(std::vector<Row>& rows, gpulab::Backend& backend) {
  for (Row& r : rows) {
    gpulab::Support why;
    r.variant = gpulab::precision_gemm_variant(backend, r.precision, &why);
    r.supported = !r.variant.empty();
    r.reason = r.supported ? std::string() : why.reason;
  }
}

void applyDatasheet(std::vector<Row>& rows, const gpulab::models::GpuSpec* card) {
  for (Row& r : rows) r.datasheetFlops = card ? card->peak_flops_for(r.precision).value_or(0) : 0;
}

void clearMeasured(std::vector<Row>& rows) {
  for (Row& r : rows) {
    r.flopsPerS = 0;
    r.checkMaxAbs = -1;
  }
}

std::optional<std::string> applyMeasured(std::vector<Row>& rows, const gpulab::Result& result) {
  if (auto e = gpulab::as_precision_error(result)) {
    Row& row = rowOf(rows, e->head.precision);
    row.relFro = e->rel_frobenius;
    row.emuMaxAbs = e->max_abs;
  } else if (auto g = gpulab::as_gemm(result)) {
    Row& row = rowOf(rows, g->head.precision);
    // A format this device lacks is in the plan as a note with the reason, which the row already shows.
    if (!g->head.ok) return row.supported ? std::optional<std::string>(g->head.error) : std::nullopt;
    row.flopsPerS = g->gflops * 1e9;
    row.checkMaxAbs = g->check_max_abs;
  }
  return std::nullopt;
}

std::vector<int> applyRecorded(std::vector<Row>& rows, const std::vector<RecordedResult>& recorded) {
  for (Row& r : rows) r.recorded.clear();
  std::vector<int> sources;
  for (const RecordedResult& rec : recorded) {
    if (rec.source < 0) continue;  // measured here is no recording
    const auto g = gpulab::as_gemm(*rec.result);
    if (!g || !g->head.ok) continue;
    const bool ours = g->head.plan == gpulab::plan_name::precision || (g->head.plan.empty() && g->library);
    if (!ours) continue;
    Row& r = rowOf(rows, g->head.precision);
    auto it = std::find_if(r.recorded.begin(), r.recorded.end(), [&](const Recorded& x) { return x.source == rec.source; });
    if (it == r.recorded.end()) it = r.recorded.insert(r.recorded.end(), Recorded{rec.source, 0, false});
    if (g->gflops * 1e9 > it->flops) {
      it->flops = g->gflops * 1e9;
      it->onGpu = g->head.on_gpu && !g->head.cpu_device;  // lavapipe is Vulkan on the CPU, not a GPU
    }
    if (std::find(sources.begin(), sources.end(), rec.source) == sources.end()) sources.push_back(rec.source);
  }
  for (Row& r : rows)
    std::sort(r.recorded.begin(), r.recorded.end(), [](const Recorded& a, const Recorded& b) { return a.source < b.source; });
  std::sort(sources.begin(), sources.end());
  return sources;
}

double recordedFlops(const Row& row, int source) {
  for (const Recorded& r : row.recorded)
    if (r.source == source) return r.flops;
  return 0;
}

SpeedVerdict speedVerdict(const std::vector<Row>& rows) {
  SpeedVerdict v;
  const Row* best = nullptr;
  for (const Row& r : rows)
    if (r.flopsPerS > 0 && (!best || r.flopsPerS > best->flopsPerS)) best = &r;
  v.fp32Flops = rowOf(rows, gpulab::Precision::fp32).flopsPerS;
  v.fp64Flops = rowOf(rows, gpulab::Precision::fp64).flopsPerS;
  if (!best) return v;
  v.best = best->precision;
  v.bestFlops = best->flopsPerS;
  if (v.fp32Flops > 0 && best->precision != gpulab::Precision::fp32) v.kind = SpeedVerdict::Kind::fasterThanFp32;
  // FP32 against FP64 only once FP32 has run: mid-run, FP64 alone is "the fastest so far", not "FP32 at 0 FLOP/s".
  else if (best->precision == gpulab::Precision::fp32 && v.fp64Flops > 0) v.kind = SpeedVerdict::Kind::fp32WithFp64;
  else v.kind = SpeedVerdict::Kind::fastestOnly;
  return v;
}

Fp32Guard fp32Guard(const std::vector<Row>& rows, double fp32PeakFlops) {
  Fp32Guard g;
  g.flops = rowOf(rows, gpulab::Precision::fp32).flopsPerS;
  g.peak = fp32PeakFlops;
  if (!(g.flops > 0) || !(g.peak > 0)) return g;
  g.kind = g.flops > 1.05 * g.peak ? Fp32Guard::Kind::abovePeak : Fp32Guard::Kind::withinPeak;
  return g;
}

Status statusOf(const Row& r) {
  if (!r.supported) return Status::notHere;
  return r.flopsPerS > 0 ? Status::ran : Status::runsHere;
}

}  // namespace precision_model

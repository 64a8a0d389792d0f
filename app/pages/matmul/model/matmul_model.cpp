#include "pages/matmul/model/matmul_model.h"

#include "models/measured_peak.h"

#include <algorithm>

namespace matmul_model {

namespace {

Row rowFor(const gpulab::MatmulWay& way, const gpulab::DeviceWords& device, bool live) {
  Row r;
  r.key = gpulab::matmul_way_key(way);
  r.way = way;
  r.variant = way.variant;
  r.gpu_side = gpulab::backend_kind(way.backend) != gpulab::BackendKind::cpu;
  if (r.gpu_side) r.step = gpulab::ladder_step_of(way.variant);
  // A live ladder's own order; a recorded CUDA step keeps the CUDA ladder's numbering (kernels/0N_*.cu).
  const bool cudaStep = gpulab::backend_kind(way.backend) == gpulab::BackendKind::cuda && r.step;
  r.number = way.step > 0 ? way.step : cudaStep ? gpulab::ladder_step_info(*r.step).number : 0;
  r.device = device;
  r.live = live;
  return r;
}

bool atShape(const gpulab::GemmPoint& g, const Shape& s) { return g.m == s.m && g.k == s.k && g.n == s.n; }

}  // namespace

const gpulab::Result* gemmOf(const Input& in, gpulab::GemmPoint* point) {
  if (!in.result) return nullptr;
  const auto g = gpulab::as_gemm(*in.result);
  if (!g || g->head.precision != gpulab::Precision::fp32 || g->direct_control) return nullptr;
  if (!gpulab::is_matmul_page_plan(g->head.plan)) return nullptr;  // another page's plan is not drawn here
  if (point) *point = *g;
  return in.result;
}

std::string rowKeyOf(const gpulab::Result& r) {
  const auto g = gpulab::as_gemm(r);
  if (!g) return {};
  return gpulab::matmul_way_key(gpulab::matmul_way_of(g->head.backend, g->head.variant, g->threads, g->library));
}

std::vector<Row> buildRows(const gpulab::Backends& backends, const gpulab::DeviceWords& liveGpu,
                           const std::vector<Input>& results) {
  std::vector<Row> rows;
  for (const gpulab::MatmulWay& w : gpulab::matmul_ways(backends))
    rows.push_back(rowFor(w, gpulab::backend_kind(w.backend) == gpulab::BackendKind::cpu ? gpulab::DeviceWords{} : liveGpu, true));
  // A recording made on a GPU machine brings its ladder even where there is no GPU.
  for (const Input& in : results) {
    gpulab::GemmPoint g;
    if (in.source < 0 || !gemmOf(in, &g) || !g.head.on_gpu) continue;
    const gpulab::MatmulWay way = gpulab::matmul_way_of(g.head.backend, g.head.variant, g.threads, g.library);
    if (rowIndex(rows, gpulab::matmul_way_key(way)) >= 0) continue;
    rows.push_back(rowFor(way, gpulab::device_words(*in.result), false));
  }
  return rows;
}

int rowIndex(const std::vector<Row>& rows, const std::string& key) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].key == key) return int(i);
  return -1;
}

const gpulab::Result* measuredFor(const std::vector<Input>& results, const Row& row, const Shape& shape) {
  const gpulab::Result* found = nullptr;
  for (const Input& in : results) {
    gpulab::GemmPoint g;
    if (in.source >= 0 || !gemmOf(in, &g) || !atShape(g, shape) || rowKeyOf(*in.result) != row.key) continue;
    found = in.result;  // the newest
  }
  return found;
}

const gpulab::Result* recordedFor(const std::vector<Input>& results, const Row& row, const Shape& shape, int source) {
  const gpulab::Result* found = nullptr;
  for (const Input& in : results) {
    gpulab::GemmPoint g;
    if (in.source < 0 || in.source != source || !gemmOf(in, &g) || !g.head.ok || !atShape(g, shape) ||
        rowKeyOf(*in.result) != row.key)
      continue;
    if (found && g.gflops <= found->gflops) continue;
    found = in.result;
  }
  return found;
}

std::vector<Recorded> recordedBars(const std::vector<Input>& results, const Row& row, const Shape& shape) {
  std::vector<int> sources;
  for (const Input& in : results)
    if (in.source >= 0 && std::find(sources.begin(), sources.end(), in.source) == sources.end())
      sources.push_back(in.source);
  std::sort(sources.begin(), sources.end());
  std::vector<Recorded> out;
  for (int source : sources)
    if (const gpulab::Result* r = recordedFor(results, row, shape, source)) out.push_back({r, source});
  return out;
}

std::vector<int> recordedSources(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape) {
  std::vector<int> out;
  for (const Row& row : rows)
    for (const Recorded& rec : recordedBars(results, row, shape))
      if (std::find(out.begin(), out.end(), rec.source) == out.end()) out.push_back(rec.source);
  std::sort(out.begin(), out.end());
  return out;
}

Counts counts(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape) {
  Counts c;
  for (const Row& row : rows) {
    if (const gpulab::Result* r = measuredFor(results, row, shape)) {
      if (r->ok() && r->gflops > 0) ++c.measuredBars;
      if (r->error.empty()) ++(r->check.passed ? c.passed : c.wrong);
    }
    c.recordedBars += int(recordedBars(results, row, shape).size());
  }
  return c;
}

Refs refs(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape) {
  Refs refs;
  for (const Row& row : rows) {
    const gpulab::Result* r = measuredFor(results, row, shape);
    if (!r || !r->ok()) continue;
    switch (row.way.kind) {
      case gpulab::MatmulWayKind::cpu_naive: refs.naive = r->gflops; break;
      case gpulab::MatmulWayKind::cpu_blas_all: refs.blasAll = r->gflops; break;
      case gpulab::MatmulWayKind::gpu_library:
        if (row.live) refs.gpuLib = std::max(refs.gpuLib, r->gflops);
        break;
      default: break;
    }
    if (row.way.kind == gpulab::MatmulWayKind::cpu_blas_one || row.way.kind == gpulab::MatmulWayKind::cpu_blas_all)
      refs.blasBest = std::max(refs.blasBest, r->gflops);
  }
  return refs;
}

Shares shares(const Row& row, double gflops, const Refs& refs, double cpuPeak, double gpuPeak, double measuredPeak) {
  Shares s;
  const bool isLibrary = row.way.kind == gpulab::MatmulWayKind::cpu_blas_one ||
                         row.way.kind == gpulab::MatmulWayKind::cpu_blas_all ||
                         row.way.kind == gpulab::MatmulWayKind::gpu_library;
  const double lib = row.gpu_side ? refs.gpuLib : refs.blasBest;
  s.libraryIsGpu = row.gpu_side;
  if (lib > 0 && !isLibrary) s.ofLibrary = gflops / lib;
  const double peak = row.gpu_side ? gpuPeak : cpuPeak;
  if (peak > 0) {
    s.ofPeak = gflops / peak;
    s.abovePeak = gflops > peak * 1.02;
  }
  const measured_peak::Share m = measured_peak::shareOf(gflops, measuredPeak);
  s.ofMeasuredPeak = m.of;
  s.aboveMeasuredPeak = m.above;
  return s;
}

double measuredPeakGflops(const std::vector<Input>& results, const gpulab::Result& gemm, int source) {
  return measured_peak::bestPeakGflops(results, source, measured_peak::deviceOf(gemm), gemm.precision);
}

BestStep bestGpuStep(const std::vector<Input>& results, const std::vector<Row>& rows, const Shape& shape, int source) {
  BestStep best;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    if (!row.gpu_side || row.way.kind != gpulab::MatmulWayKind::gpu_step || (source < 0 && !row.live)) continue;
    const gpulab::Result* r = source < 0 ? measuredFor(results, row, shape) : recordedFor(results, row, shape, source);
    if (!r || !r->ok() || !(r->gflops > 0) || (best.result && r->gflops <= best.result->gflops)) continue;
    best.result = r;
    best.row = int(i);
  }
  if (best.result) {
    best.measuredPeak = measuredPeakGflops(results, *best.result, source);
    best.ofMeasuredPeak = measured_peak::shareOf(best.result->gflops, best.measuredPeak).of;
  }
  return best;
}

double recordedLibraryShare(const std::vector<Input>& results, const std::vector<Row>& rows, const Row& row,
                            const Shape& shape, int source, double gflops) {
  auto isLibrary = [&](const Row& r) {
    return r.gpu_side == row.gpu_side && (r.way.kind == gpulab::MatmulWayKind::cpu_blas_one ||
                                          r.way.kind == gpulab::MatmulWayKind::cpu_blas_all ||
                                          r.way.kind == gpulab::MatmulWayKind::gpu_library);
  };
  if (isLibrary(row)) return 0;
  double lib = 0;
  for (const Row& lr : rows) {
    if (!isLibrary(lr)) continue;
    if (const gpulab::Result* r = recordedFor(results, lr, shape, source)) lib = std::max(lib, r->gflops);
  }
  return lib > 0 ? gflops / lib : 0;
}

std::vector<Shape> recordedSizes(const std::vector<Input>& results) {
  std::vector<Shape> out;
  for (const Input& in : results) {
    gpulab::GemmPoint g;
    if (in.source < 0 || !gemmOf(in, &g) || !g.head.ok || !(g.gflops > 0)) continue;
    const Shape s{g.m, g.k, g.n};
    if (s.m > 0 && s.k > 0 && s.n > 0 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const Shape& a, const Shape& b) { return a.flops() < b.flops(); });
  return out;
}

Shape busiestRecordedSize(const std::vector<Input>& results) {
  const auto sizes = recordedSizes(results);
  Shape best = sizes.empty() ? Shape{} : sizes.front();
  int bestCount = -1;
  for (const Shape& s : sizes) {
    int count = 0;
    for (const Input& in : results) {
      gpulab::GemmPoint g;
      if (in.source >= 0 && gemmOf(in, &g) && g.head.ok && atShape(g, s)) ++count;
    }
    if (count > bestCount) {
      best = s;
      bestCount = count;
    }
  }
  return best;
}

const gpulab::Result* naiveMeasuredAt(const std::vector<Input>& results, long long k, long long n) {
  const gpulab::Result* best = nullptr;
  for (const Input& in : results) {
    gpulab::GemmPoint g;
    if (in.source >= 0 || !gemmOf(in, &g) || !g.head.ok || !(g.gflops > 0) || g.k != k || g.n != n) continue;
    if (gpulab::matmul_way_of(g.head.backend, g.head.variant, g.threads, g.library).kind !=
            gpulab::MatmulWayKind::cpu_naive ||
        g.head.on_gpu)
      continue;
    best = in.result;  // the newest
  }
  return best;
}

double practiceRatio(const std::vector<Input>& results) {
  double naive = 0, blas = 0;
  for (const Input& in : results) {
    gpulab::GemmPoint g;
    if (in.source >= 0 || !gemmOf(in, &g) || !g.head.ok || !atShape(g, Shape{60, 60, 60}) || g.head.on_gpu) continue;
    const gpulab::Result& r = *in.result;
    const double fastest = r.stats.min_s > 0 ? r.stats.min_s : r.stats.median_s;
    const auto kind = gpulab::matmul_way_of(g.head.backend, g.head.variant, g.threads, g.library).kind;
    if (kind == gpulab::MatmulWayKind::cpu_naive) naive = fastest;
    if (kind == gpulab::MatmulWayKind::cpu_blas_all) blas = fastest;
  }
  return naive > 0 && blas > 0 ? naive / blas : 0;
}

}  // namespace matmul_model

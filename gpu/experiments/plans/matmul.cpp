// The matrix-multiply page's plans (see matmul.hpp).
#include "plans/matmul.hpp"
#include "gpulab/gemm_ladder.hpp"
#include "gpulab/matmul_suite.hpp"
#include "plans/quick.hpp"

#include "gpulab/suite_registry.hpp"

#include <algorithm>
#include <array>

namespace gpulab {

std::string matmul_way_key(const MatmulWay& way) {
  return way.backend + "/" + way.variant + "/" + std::to_string(way.threads);
}

MatmulWay matmul_way_of(const std::string& backend, const std::string& variant, int threads, bool library) {
  MatmulWay w;
  w.backend = backend;
  w.variant = variant;
  if (backend == "cpu") {
    // CPU BLAS splits into one thread and all of them (0, or any count a recording used).
    w.kind = variant == "naive"       ? MatmulWayKind::cpu_naive
             : variant == "reordered" ? MatmulWayKind::cpu_reordered
             : threads == 1           ? MatmulWayKind::cpu_blas_one
                                      : MatmulWayKind::cpu_blas_all;
    w.threads = variant == "blas" ? (threads == 1 ? 1 : 0) : -1;
  } else {
    w.kind = library ? MatmulWayKind::gpu_library : MatmulWayKind::gpu_step;
  }
  return w;
}

std::vector<MatmulWay> matmul_ways(const Backends& backends) {
  std::vector<MatmulWay> ways{matmul_way_of("cpu", "naive", -1, false), matmul_way_of("cpu", "reordered", -1, false),
                              matmul_way_of("cpu", "blas", 1, true), matmul_way_of("cpu", "blas", 0, true)};
  if (backends.gpu) {
    int step = 0;
    for (const auto& v : backends.gpu->gemm_variants()) {
      // A vendor's library (cuBLAS, cuBLASLt), not one of gpulab's own steps.
      const bool library = v == ladder_variant(LadderStep::cublas) || v == "cublaslt";
      MatmulWay w = matmul_way_of(backends.gpu->kind(), v, -1, library);
      w.step = library ? 0 : ++step;
      ways.push_back(w);
    }
  }
  return ways;
}

// A rough single-run rate for ways not measured yet, only to decide which jobs a big size runs once (and, for
// the matmul suite on a GPU, which size each step runs at).
double matmul_guess_gflops(const MatmulWay& w, double naive_gflops) {
  switch (w.kind) {
    case MatmulWayKind::cpu_naive: return naive_gflops > 0 ? naive_gflops : matmul_assumed_naive_gflops;
    case MatmulWayKind::cpu_reordered: return 8;
    case MatmulWayKind::cpu_blas_one:
    case MatmulWayKind::cpu_blas_all: return 30;
    case MatmulWayKind::gpu_step: return w.step <= 2 ? 300 : 5000;
    case MatmulWayKind::gpu_library: return 5000;
  }
  return matmul_assumed_naive_gflops;
}

Plan matmul_plan(const Backends& backends, const MatmulControls& c) {
  PlanBuilder builder(plan_name::matmul);
  const double flops = 2.0 * double(c.m) * double(c.n) * double(c.k);
  std::vector<bool> once;  // per job: a big size, checked once and timed once
  for (const MatmulWay& w : matmul_ways(backends)) {
    if (std::find(c.left_out.begin(), c.left_out.end(), matmul_way_key(w)) != c.left_out.end()) continue;
    Backend& b = w.backend == "cpu" ? *backends.cpu : *backends.gpu;
    builder.gemm(b, c.m, c.n, c.k, w.variant, Precision::fp32, w.threads < 0 ? 0 : w.threads);
    once.push_back(flops / (matmul_guess_gflops(w, c.naive_gflops) * 1e9) > c.single_run_s);
  }
  Plan plan = builder.take();
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    if (!once[i]) continue;
    // A second sample would double minutes of waiting for little.
    plan.jobs[i].run = [run = std::move(plan.jobs[i].run)](const RunContext& ctx) {
      RunContext single = ctx;
      single.policy.warmup_runs = 0;
      single.policy.min_samples = 1;
      single.policy.max_samples = 1;
      return run(single);
    };
  }
  return plan;
}

Plan matmul_practice_plan(const Backends& backends) {
  MatmulControls c;  // 60³
  for (const MatmulWay& w : matmul_ways(backends))
    if (w.kind != MatmulWayKind::cpu_naive && w.kind != MatmulWayKind::cpu_blas_all)
      c.left_out.push_back(matmul_way_key(w));
  return matmul_plan(backends, c);
}

bool is_matmul_page_plan(const std::string& plan) {
  // The quick suite's GEMMs are this page's own ways (the CPU's four at 512³, a GPU's ladder at 2048³): a
  // `bench --suite quick` recording must show here, not leave the page empty.
  return plan.empty() || plan == plan_name::matmul || plan == plan_name::matmul_sizes || plan == plan_name::quick;
}

Plan matmul_sizes_plan(const Backends& backends) {
  PlanBuilder plan(plan_name::matmul_sizes);
  Backend& cpu = *backends.cpu;
  for (long long n : {64, 128, 256, 512, 1024, 2048, 4096}) {
    for (const auto& v : cpu.gemm_variants()) {
      // The naive loop at 2048³ takes minutes; the point (it is slow) is made by 1024³.
      if (v == "naive" && n > 1024) continue;
      if (v == "reordered" && n > 2048) continue;
      if (v == "blas") {
        plan.gemm(cpu, n, n, n, v, Precision::fp32, 1);
        plan.gemm(cpu, n, n, n, v, Precision::fp32, 0);
      } else {
        plan.gemm(cpu, n, n, n, v, Precision::fp32);
      }
    }
  }
  plan.direct_blas(cpu, 1024, 0);
  // The matmul page's presets beyond the squares above: the lesson's n = 60 practice and its layer, batch 32
  // times 4096×4096 (m = 32, k = n = 4096; the naive loop there is ~1 GFLOP, seconds, not minutes), so a
  // recording shows bars at both.
  auto lesson_shapes = [&plan](Backend& b, bool cpu_side) {
    for (const auto& [m, k, n] : {std::array<long long, 3>{60, 60, 60}, std::array<long long, 3>{32, 4096, 4096}})
      for (const auto& v : b.gemm_variants()) {
        if (cpu_side && v == "blas") {
          plan.gemm(b, m, n, k, v, Precision::fp32, 1);
          plan.gemm(b, m, n, k, v, Precision::fp32, 0);
        } else {
          plan.gemm(b, m, n, k, v, Precision::fp32);
        }
      }
  };
  lesson_shapes(cpu, true);
  if (backends.gpu) {
    Backend& gpu = *backends.gpu;
    for (long long n : {256, 1024, 2048, 4096})
      for (const auto& v : gpu.gemm_variants()) plan.gemm(gpu, n, n, n, v, Precision::fp32);
    const std::string cublas{ladder_variant(LadderStep::cublas)};
    if (offers_variant(gpu, cublas)) plan.gemm(gpu, 8192, 8192, 8192, cublas, Precision::fp32);
    lesson_shapes(gpu, false);
  }
  return plan.take();
}

GPULAB_PLAN_FILE(matmul) {
  registry.add({10, "matmul",
                "the matrix-multiply page's default: every way at the lesson's n = 60 (the CPU's naive loop, reordered loop, BLAS on 1 and all threads; on a GPU its kernel ladder and cuBLAS, and these again at 4096³ (the naive steps at the largest size a quarter-second run allows) with cuBLAS at 8192³ too)",
                false, [](const Backends& b, const SuiteOptions& o) { (void)o; return matmul_suite_plan(b); }});
  registry.add({11, "matmul-sizes",
                "the matrix-multiply page's ways from 64³ to 4096³ and at the lesson's shapes (60³, 32×4096·4096), for a recording; in all instead of matmul",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return matmul_sizes_plan(b); }});
}

}  // namespace gpulab

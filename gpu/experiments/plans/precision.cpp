// The precision page's plan (see precision.hpp).
#include "plans/precision.hpp"

#include "gpulab/precision_error.hpp"
#include "gpulab/underflow_demo.hpp"
#include "gpulab/matmul_suite.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/suite_registry.hpp"

#include <algorithm>

namespace gpulab {
// ---- precision -------------------------------------------------------------------------------------------------

long long precision_default_n(const Backend& b) { return b.kind() == "cpu" ? 1024 : 8192; }

double precision_assumed_gflops(const Backend& b, Precision p) {
  const DeviceInfo d = b.device_info();
  // The datasheet's dense peak where the device is a catalogue card; else the backend's own peak model (FP64 its
  // FMA lanes, with the FP64 tensor cores where cuBLAS uses them), which the tensor-core formats only exceed.
  double peak = 0;
  if (const models::GpuSpec* card = models::find_gpu(d.name))
    if (const auto f = card->peak_flops_for(p)) peak = *f / 1e9;
  if (!(peak > 0)) peak = p == Precision::fp64 ? d.peak_gflops_fp64 : d.peak_gflops_fp32;
  // cuBLAS reaches a half to four fifths of the dense peak at these sizes: the lower end, so a job is not undersized.
  return peak > 0 ? 0.5 * peak : 0;
}

long long precision_gpu_n(const Backend& b, Precision p) {
  // Sized by estimated time, as the matmul suite sizes its ladder steps (matmul_suite.hpp): a DGEMM at 8192³ is
  // 1.1 TFLOP, 3-12 s a run on a consumer card whose FP64 is 1/64 of its FP32, past the cancel window.
  const double gflops = precision_assumed_gflops(b, p);
  long long n = precision_default_n(b);
  if (!(gflops > 0)) return n;
  while (n > kMatmulGpuMinN && 2.0 * double(n) * double(n) * double(n) / (gflops * 1e9) > kMatmulGpuMaxRunS) n /= 2;
  return n;
}

std::string precision_gemm_variant(Backend& b, Precision p, Support* why) {
  std::vector<std::string> order{"cublas", "cublaslt", "blas"};
  for (const auto& v : b.gemm_variants())
    if (std::find(order.begin(), order.end(), v) == order.end()) order.push_back(v);
  GemmSpec s;
  s.precision = p;
  Support first = Support::no("no GEMM variant on " + b.kind() + " runs " + std::string(display_name(p)));
  bool have_first = false;
  for (const auto& v : order) {
    if (!offers_variant(b, v)) continue;
    s.variant = v;
    const Support ok = b.supports(s);
    if (ok.ok) {
      if (why) *why = ok;
      return v;
    }
    if (!have_first) {
      first = ok;
      have_first = true;
    }
  }
  if (why) *why = first;
  return {};
}

Plan precision_plan(const Backends& backends, const PrecisionControls& c) {
  PlanBuilder plan(plan_name::precision);
  Backend& b = c.use_gpu && backends.gpu ? *backends.gpu : *backends.cpu;
  for (Precision p : all_precisions) {
    // The page's own size when it asks for one; otherwise the device's default, sized by time on a GPU.
    const long long n = c.n > 0 ? c.n : b.kind() == "cpu" ? precision_default_n(b) : precision_gpu_n(b, p);
    Support why;
    const std::string v = precision_gemm_variant(b, p, &why);
    if (!v.empty()) plan.gemm(b, n, n, n, v, p);
    else plan.note(b, "gemm", "library", p, {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}}, why.reason);
  }
  // Each format's own error against FP64: software on the CPU, a second or two for all seven.
  for (Precision p : all_precisions) {
    PrecisionErrorSpec s;
    s.m = s.n = 64;
    s.k = 4096;
    s.precision = p;
    plan.add({{}, "precision error " + std::string(display_name(p)) + " against FP64 (emulated)", 0.05,
              backends.cpu, experiment_name::precision_error, "emulated", p,
              {{"m", double(s.m)}, {"n", double(s.n)}, {"k", double(s.k)}},
              [s](const RunContext&) { return one_result(emulated_error_result(s)); }});
  }
  if (c.underflow)
    plan.add({{}, "underflow demo (FP16, BF16, loss scaling)", 0.2, backends.cpu, experiment_name::underflow,
              "software-fp16-bf16", Precision::fp16, {},
              [](const RunContext&) { return one_result(underflow_result(UnderflowSpec{})); }});
  return plan.take();
}

GPULAB_PLAN_FILE(precision) {
  registry.add({50, "precision",
                "the precision page's default: GEMM in every format on the GPU (8192³; the CPU at 1024³ without one), the formats it lacks recorded with the reason; each format's emulated error; the FP16 underflow demo",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return precision_plan(b); }});
}

}  // namespace gpulab

// The precision page's plan (see precision.hpp).
#include "plans/precision.hpp"

#include "gpulab/precision_error.hpp"
#include "gpulab/underflow_demo.hpp"
#include "gpulab/suite_registry.hpp"

#include <algorithm>

namespace gpulab {
// ---- precision -------------------------------------------------------------------------------------------------

long long precision_default_n(const Backend& b) { return b.kind() == "cpu" ? 1024 : 8192; }

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
  const long long n = c.n > 0 ? c.n : precision_default_n(b);
  for (Precision p : all_precisions) {
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

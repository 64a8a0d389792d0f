// The batch page's plan (see batch.hpp).
#include "plans/batch.hpp"

#include "gpulab/suite_registry.hpp"

#include <algorithm>

namespace gpulab {
// Y = X·W with X B×d and W d×d: at small B the weights' bytes dominate (memory-bound), at large B the FLOPs do
// (compute-bound). The sweep finds where the crossover is on this machine.
std::vector<long long> batch_default_sizes() {
  std::vector<long long> out;
  for (long long b = 1; b <= 1024; b *= 2) out.push_back(b);
  return out;
}

std::string batch_gemm_variant(Backend& b, Precision p, long long max_batch, long long d_in, long long d_out,
                               std::string* why) {
  std::vector<std::string> order;
  for (const char* lib : {"cublas", "cublaslt", "blas"})
    if (offers_variant(b, lib)) order.push_back(lib);
  const auto ladder = b.gemm_variants();
  for (auto it = ladder.rbegin(); it != ladder.rend(); ++it)  // a ladder's last step is its fastest
    if (std::find(order.begin(), order.end(), *it) == order.end()) order.push_back(*it);
  std::string first_reason;
  for (const auto& v : order) {
    const Support ok = b.supports(GemmSpec{std::max(1LL, max_batch), d_out, d_in, p, v, 0, 42});
    if (ok.ok) return v;
    if (first_reason.empty()) first_reason = ok.reason;
  }
  if (why) *why = first_reason.empty() ? "no GEMM on " + b.kind() : first_reason;
  return {};
}

std::size_t batch_triad_array_bytes(BackendKind k) { return k == BackendKind::cuda ? 1024 * kMiB : 64 * kMiB; }

// The batch page's sweep on one device: the triad first (the memory roof the points are read against, measured in
// the same run), then Y = X·W for every batch size through the device's library GEMM.
Plan batch_plan(const Backends& backends, const BatchControls& c) {
  PlanBuilder plan(plan_name::batch);
  Backend& b = c.use_gpu && backends.gpu ? *backends.gpu : *backends.cpu;
  std::string why;
  const long long largest = c.batches.empty() ? 1 : *std::max_element(c.batches.begin(), c.batches.end());
  const std::string variant = batch_gemm_variant(b, c.precision, largest, c.d_in, c.d_out, &why);
  if (variant.empty()) {
    const long long first = c.batches.empty() ? 1 : c.batches.front();
    plan.note(b, "gemm", "library", c.precision,
              {{"m", double(first)}, {"n", double(c.d_out)}, {"k", double(c.d_in)}}, why);
    return plan.take();
  }
  plan.bandwidth(b, "triad", batch_triad_array_bytes(b.kind_id()));
  for (long long batch : c.batches) plan.gemm(b, batch, c.d_out, c.d_in, variant, c.precision);
  return plan.take();
}

GPULAB_PLAN_FILE(batch) {
  registry.add({40, "batch",
                "the batch page's sweep: the triad, then Y = X·W (d = 4096, FP32) for batch 1…1024 on the GPU (the CPU without one): memory-bound to compute-bound",
                true, [](const Backends& b, const SuiteOptions& o) { (void)o; return batch_plan(b); }});
}

}  // namespace gpulab

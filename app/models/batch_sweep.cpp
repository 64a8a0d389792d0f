#include "models/batch_sweep.h"

#include <algorithm>
#include <vector>

namespace gpulab::models {

std::string library_gemm_variant(Backend& backend, GemmSpec spec) {
  std::vector<std::string> order{"cublas", "cublaslt", "blas"};
  const std::vector<std::string> offered = backend.gemm_variants();
  for (const auto& v : offered)
    if (std::find(order.begin(), order.end(), v) == order.end()) order.push_back(v);
  for (const auto& v : order) {
    if (std::find(offered.begin(), offered.end(), v) == offered.end()) continue;
    spec.variant = v;
    if (backend.supports(spec).ok) return v;
  }
  return {};
}

double crossover_batch_for_ridge(double ridge, double bpe, double di, double dout) {
  if (!(ridge > 0)) return 0;
  const double den = 2 * di * dout - ridge * bpe * (di + dout);
  if (den <= 0) return 0;
  return ridge * bpe * di * dout / den;
}

}  // namespace gpulab::models

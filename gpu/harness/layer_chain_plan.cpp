#include "gpulab/layer_chain_plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gpulab {

std::vector<ChainStep> plan_layer_chain(const LayerChainSpec& spec, std::vector<long long>& buffer_width) {
  std::vector<ChainStep> steps;
  const std::size_t per_layer = spec.matrices.size();
  buffer_width.assign(2 * per_layer, 0);  // two sets, alternating by layer, so a layer never overwrites its input
  std::size_t offset = 0;
  int layer_input = -1;
  long long layer_input_width = spec.matrices.front().k;
  for (int l = 0; l < spec.layers; ++l) {
    const int base = static_cast<int>((l % 2) * per_layer);
    for (std::size_t j = 0; j < per_layer; ++j) {
      const auto& m = spec.matrices[j];
      ChainStep s;
      s.k = m.k;
      s.n = m.n;
      s.weight = offset;
      offset += static_cast<std::size_t>(m.k * m.n);
      s.out_buffer = base + static_cast<int>(j);
      // Candidates, most recent first: this layer's outputs so far, then the layer's input.
      int exact = -2, wide = -2;
      long long wide_width = 0;
      for (int c = static_cast<int>(j) - 1; c >= -1; --c) {
        const int buf = c >= 0 ? base + c : layer_input;
        const long long w = c >= 0 ? spec.matrices[static_cast<std::size_t>(c)].n : layer_input_width;
        if (w == m.k) { exact = buf; break; }
        if (w > m.k && wide == -2) { wide = buf; wide_width = w; }
      }
      if (exact != -2) {
        s.in_buffer = exact;
        s.lda = m.k;
      } else if (wide != -2) {
        s.in_buffer = wide;
        s.lda = wide_width;
      } else {
        throw std::invalid_argument("Layer chain: no earlier activation is at least " + std::to_string(m.k) +
                                    " wide to feed matrix " + std::to_string(j + 1) + " (" + std::to_string(m.k) +
                                    " -> " + std::to_string(m.n) + ")");
      }
      buffer_width[static_cast<std::size_t>(s.out_buffer)] = m.n;
      steps.push_back(s);
    }
    layer_input = base + static_cast<int>(per_layer) - 1;
    layer_input_width = spec.matrices.back().n;
  }
  return steps;
}

std::vector<long long> chain_check_columns(long long n) {
  const int samples = static_cast<int>(std::min<long long>(n, 24));
  std::vector<long long> cols;
  for (int c = 0; c < samples; ++c) cols.push_back(std::min(samples == n ? c : (c * n) / samples + (c % 3), n - 1));
  return cols;
}

void check_chain_row(Check& total, std::size_t product, long long row, const float* in, const float* out, long long k,
                     long long n, const std::function<double(long long i, long long col)>& weight,
                     const std::function<double(double mag, double ref)>& tolerance) {
  auto text = [](double v) {
    std::ostringstream s;
    s.precision(7);
    s << v;
    return s.str();
  };
  for (const long long col : chain_check_columns(n)) {
    double ref = 0, mag = 0;
    for (long long i = 0; i < k; ++i) {
      const double term = static_cast<double>(in[i]) * weight(i, col);
      ref += term;
      mag += std::fabs(term);
    }
    const double got = out[col];
    const double err = std::isfinite(got) ? std::fabs(got - ref) : INFINITY;
    ++total.checked;
    total.max_abs_err = std::max(total.max_abs_err, err);
    total.max_rel_err = std::max(total.max_rel_err, err / std::max(std::fabs(ref), 1e-30));
    if (!(err <= tolerance(mag, ref)) && total.passed) {
      total.passed = false;
      total.first_bad_index = static_cast<long long>(product);
      total.message = "layer chain product " + std::to_string(product + 1) + " (" + std::to_string(k) + " -> " +
                      std::to_string(n) + "), batch row " + std::to_string(row) + ", column " + std::to_string(col) +
                      ": got " + text(got) + ", expected " + text(ref);
    }
  }
}

}  // namespace gpulab

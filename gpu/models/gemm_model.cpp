#include "gpulab/models/gemm_model.hpp"

namespace gpulab::models {

double matmul_flops(double m, double k, double n) { return 2.0 * m * k * n; }

double output_cells(double m, double n) { return m * n; }

double layer_bytes(double batch, double d_in, double d_out, double bytes_per_element) {
  // X (B×d_in) read, W (d_in×d_out) read, Y (B×d_out) written: each once, as in the lesson's gpu_numbers.py.
  return bytes_per_element * (batch * d_in + d_in * d_out + batch * d_out);
}

double arithmetic_intensity(double batch, double d_in, double d_out, double bytes_per_element) {
  const double bytes = layer_bytes(batch, d_in, d_out, bytes_per_element);
  return bytes > 0 ? matmul_flops(batch, d_in, d_out) / bytes : 0.0;
}

LayerCost layer_cost(double batch, double d_in, double d_out, double bytes_per_element) {
  LayerCost c;
  c.flops = matmul_flops(batch, d_in, d_out);
  c.cells = output_cells(batch, d_out);
  c.bytes = layer_bytes(batch, d_in, d_out, bytes_per_element);
  c.intensity = c.bytes > 0 ? c.flops / c.bytes : 0.0;
  return c;
}

}  // namespace gpulab::models

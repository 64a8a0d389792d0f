#pragma once
// Counting work and traffic for a matrix multiply Y = X·W, X being M×K and W K×N (lesson 17.1,
// "Why deep learning is mostly matrix multiplication"). All counts are doubles so a 70B-sized layer
// stack never overflows; the lesson's figures are exact in double.

namespace gpulab::models {

// FLOPs of an M×K by K×N product: every output cell needs K multiplies and K adds -> 2·M·K·N.
// Lesson: 2×3 · 3×4 = 48 FLOPs; batch 32 × 4096×4096 = 1,073,741,824 FLOPs.
double matmul_flops(double m, double k, double n);

// Output cells M·N: each is an independent dot product (8 for 2×3·3×4; 131,072 for batch 32, d_out 4096).
double output_cells(double m, double n);

// Bytes moved for a dense layer, counting X, W and Y once each (the lesson's gpu_numbers.py):
// bytes_per_element · (B·d_in + d_in·d_out + B·d_out). A perfect cache is assumed: this is the minimum traffic.
double layer_bytes(double batch, double d_in, double d_out, double bytes_per_element);

// FLOPs per byte moved = 2·B·d_in·d_out / layer_bytes. Lesson (FP16, d = 4096): 1.0 at B = 1, 227.55… at B = 256.
double arithmetic_intensity(double batch, double d_in, double d_out, double bytes_per_element);

// Everything about one layer in one struct, for the batch-sweep page.
struct LayerCost {
  double flops = 0;
  double cells = 0;
  double bytes = 0;
  double intensity = 0;  // FLOPs per byte
};
LayerCost layer_cost(double batch, double d_in, double d_out, double bytes_per_element);

}  // namespace gpulab::models

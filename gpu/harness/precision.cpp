// Names, storage sizes and check tolerances of the number formats.
#include "gpulab/precision.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace gpulab {

std::string_view to_string(Precision p) {
  switch (p) {
    case Precision::fp64: return "fp64";
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::int8: return "int8";
    case Precision::fp8: return "fp8";
  }
  return "unknown";
}

std::string_view display_name(Precision p) {
  switch (p) {
    case Precision::fp64: return "FP64";
    case Precision::fp32: return "FP32";
    case Precision::tf32: return "TF32";
    case Precision::fp16: return "FP16";
    case Precision::bf16: return "BF16";
    case Precision::int8: return "INT8";
    case Precision::fp8: return "FP8";
  }
  return "unknown";
}

std::optional<Precision> precision_from_string(std::string_view s) {
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (Precision p : all_precisions)
    if (lower == to_string(p)) return p;
  return std::nullopt;
}

double bytes_per_element(Precision p) {
  switch (p) {
    case Precision::fp64: return 8;
    case Precision::fp32: return 4;
    case Precision::tf32: return 4;  // TF32 is a compute mode: values are stored as FP32
    case Precision::fp16: return 2;
    case Precision::bf16: return 2;
    case Precision::int8: return 1;
    case Precision::fp8: return 1;
  }
  return 0;
}

// The model behind these numbers: a length-k dot product of values in [-1, 1) accumulated in a format with unit
// roundoff u has an error that grows like u·sqrt(k) relative to the typical size of the result (random rounding
// errors add up like a random walk). The constants leave a wide margin over that for a correct kernel (any
// summation order, with or without FMA), yet stay tight enough to tell the formats apart: an "FP32" GEMM that
// silently ran in TF32 fails the FP32 tolerance.
double default_rtol(Precision p, long long k) {
  const double sk = std::sqrt(static_cast<double>(std::max(1LL, k)));
  switch (p) {
    case Precision::fp64: return 1e-13 * sk;  // u = 1.1e-16: ~1000x margin
    case Precision::fp32: return 4e-6 * sk;   // u = 6.0e-8: ~60x margin over the rms error of a serial loop
    // The low-precision formats usually accumulate in FP32; their error is dominated by rounding the output
    // (and the inputs, when the reference saw the unrounded values): a few units of u, growing slowly with k.
    case Precision::tf32: return 0x1p-11 * (4 + sk / 4);  // 10-bit mantissa
    case Precision::fp16: return 0x1p-11 * (4 + sk / 4);  // 10-bit mantissa
    case Precision::bf16: return 0x1p-8 * (4 + sk / 4);   // 7-bit mantissa
    case Precision::fp8: return 0x1p-4 * (2 + sk / 16);   // E4M3: 3-bit mantissa
    // INT8 GEMM accumulates exactly in INT32; only converting the sum to floating point rounds.
    case Precision::int8: return 1e-6;
  }
  return 1e-6;
}

// Values cancel, so a cell's true result can be near zero while its rounding error is not: judge the absolute error
// against the typical size of a cell, |C| ~ sqrt(k)/3 for inputs in [-1, 1).
double default_atol(Precision p, long long k) {
  const double sk = std::sqrt(static_cast<double>(std::max(1LL, k)));
  return default_rtol(p, k) * sk / 2;
}

}  // namespace gpulab

#pragma once
// How far a matrix product drifts from the exact answer in each number format (Precision page). The product is
// computed here on the CPU in software, the way the hardware paths treat the numbers: inputs rounded to the
// format, products accumulated in FP32 (as tensor cores do; FP64 and FP32 accumulate in their own format; INT8
// quantises each matrix with one scale and sums exactly in integers), the result stored in the output format.
// It is compared with a product of the *unrounded* inputs summed in extended precision (the FP64 reference), so the error includes the rounding of the
// inputs: that is what a model sees when its FP32 weights are cast down. Timing is not the point here; the
// backends' own runs say how fast each format goes, and their checks bound their own errors.
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"

#include <cstdint>
#include <string>

namespace gpulab {

struct PrecisionErrorSpec {
  long long m = 128, n = 128;  // output cells: enough for stable statistics
  long long k = 4096;          // dot-product length: the lesson's d_in
  Precision precision = Precision::fp32;
  std::uint64_t seed = 42;     // inputs uniform in [-1, 1), as fill_random makes them
};

struct PrecisionError {
  Precision precision = Precision::fp32;
  double max_abs = 0;        // max |C - C_ref|
  double rel_frobenius = 0;  // ||C - C_ref||_F / ||C_ref||_F
  double ref_rms = 0;        // rms of C_ref: the scale the absolute error is measured against
  long long cells = 0;
  std::string method;        // how the format was emulated, in words
};

// Throws std::invalid_argument for sizes < 1 or above 2^26 cells/elements per matrix (a teaching tool, not a BLAS).
PrecisionError emulated_gemm_error(const PrecisionErrorSpec& spec);

// The same as a Result for recordings and the result store: experiment "precision_error", variant "emulated",
// backend "cpu", check.max_abs_err = max_abs, params m, n, k, rel_frobenius, ref_rms; provenance says how.
Result emulated_error_result(const PrecisionErrorSpec& spec);

// ||out - ref||_F / ||ref||_F over `count` elements; +inf if out holds NaN/Inf; 0 when both are all zero.
double relative_frobenius(const double* out, const double* ref, long long count);
double relative_frobenius(const float* out, const double* ref, long long count);

// The value a single number takes in this format (INT8 and FP8 as the emulation stores them, for a tensor whose
// largest magnitude is `absmax`).
double round_to_precision(double x, Precision p, double absmax = 1.0);

}  // namespace gpulab

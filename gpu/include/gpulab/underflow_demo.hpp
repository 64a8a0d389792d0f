#pragma once
// The FP16 underflow demo (lesson 17.1, "Common mistake"): gradients smaller than FP16's smallest subnormal
// (2^-24 ≈ 5.96e-8) round to zero when they are stored in FP16, so those weights silently stop learning.
// Multiplying the loss (and hence every gradient) by a scale before the backward pass lifts them into range;
// BF16 keeps FP32's exponent range and never needs it. Everything here is computed for real, in software, on
// the CPU: IEEE binary16 and bfloat16 rounding (round to nearest, ties to even, gradual underflow or flush).
#include "gpulab/results.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpulab {

// ---- software rounding -----------------------------------------------------------------------------------------
// A binary floating-point format by its parameters: `precision_bits` counts the implicit leading bit
// (FP16: 11, BF16: 8, TF32: 11, FP8 E4M3: 4), emin is the exponent of the smallest normal number,
// max_finite the largest finite value. Values whose rounded magnitude exceeds max_finite become ±inf
// (or ±max_finite when `saturate`, as FP8 E4M3 conversions do).
struct FloatFormat {
  int precision_bits = 11;
  int emin = -14;
  double max_finite = 65504.0;
  bool subnormals = true;  // false: results below the smallest normal flush to ±0 (FTZ)
  bool saturate = false;
};

inline constexpr FloatFormat fp16_format{11, -14, 65504.0, true, false};
inline constexpr FloatFormat bf16_format{8, -126, 3.3895313892515355e38, true, false};
inline constexpr FloatFormat tf32_format{11, -126, 3.4011621342146535e38, true, false};
inline constexpr FloatFormat fp8_e4m3_format{4, -6, 448.0, true, true};

// Rounds x to the nearest value of the format, ties to even. NaN stays NaN, ±inf stays ±inf, the sign of
// zero is kept. Examples (FP16): 1e-8 -> 0, 6e-8 -> 5.96e-8 (the smallest subnormal), 65504 -> 65504,
// 65520 -> inf (the tie between 65504 and 2^16 goes to the even 2^16, which overflows).
double round_to_format(double x, const FloatFormat& f);
inline double round_to_half(double x) { return round_to_format(x, fp16_format); }
inline double round_to_bf16(double x) { return round_to_format(x, bf16_format); }

// Bit patterns, for tests and the curious: IEEE binary16 (1-5-10) and bfloat16 (1-8-7).
std::uint16_t half_bits(double x);
double half_from_bits(std::uint16_t bits);
std::uint16_t bf16_bits(double x);
double bf16_from_bits(std::uint16_t bits);

// Smallest positive subnormal and normal of a format: FP16 5.96e-8 and 6.10e-5.
double smallest_subnormal(const FloatFormat& f);
double smallest_normal(const FloatFormat& f);

// ---- the demo ---------------------------------------------------------------------------------------------------
// Gradients of magnitude min_grad … max_grad, log-uniform (each decade equally represented), random sign,
// arriving in `steps` optimiser steps of count/steps gradients each. Every method stores each gradient in its
// format (what the backward pass hands the optimiser), then the optimiser unscales it in FP32 and adds it to an
// FP32 master weight. An update is *lost* when the stored gradient is zero (or the step was skipped).
struct UnderflowSpec {
  double min_grad = 1e-8;       // smallest gradient magnitude
  double max_grad = 1e-4;       // largest gradient magnitude
  long long count = 200000;     // gradients in total
  int steps = 200;              // optimiser steps they are spread over (dynamic scaling acts per step)
  int bins = 24;                // log-spaced magnitude bins for the plot
  double loss_scale = 1024;     // the static loss scale of the "FP16 × scale" method
  // Dynamic loss scaling, the usual recipe: start high, halve and skip the step on inf/NaN, double after
  // `growth_interval` clean steps.
  double dynamic_initial_scale = 65536;
  int dynamic_growth_interval = 20;
  std::uint64_t seed = 7;
};

enum class UnderflowMethod { fp16_plain, fp16_static_scale, fp16_dynamic_scale, bf16_plain, fp32_reference };

struct UnderflowMethodResult {
  UnderflowMethod method{};
  std::string name;                 // "FP16, no loss scaling", ...
  std::vector<long long> lost;      // per bin: updates that arrived as zero (or in a skipped step)
  std::vector<long long> damaged;   // per bin: arrived, but with relative error > 10 % (FP16 subnormals)
  long long total_lost = 0;
  long long total_damaged = 0;
  long long skipped_steps = 0;      // dynamic scaling only: steps thrown away after an overflow
  double final_scale = 1;           // the loss scale at the end (static: the scale; plain: 1)
  double mean_rel_error = 0;        // over the updates that arrived, |stored/scale - g| / |g|
  double mass_kept = 0;             // Σ|arrived| / Σ|g|: the share of the total gradient that reached the weights
};

struct UnderflowResult {
  UnderflowSpec spec;
  std::vector<double> bin_lo, bin_hi, bin_center;  // magnitudes (geometric centre)
  std::vector<long long> per_bin;                  // gradients in each bin
  std::vector<UnderflowMethodResult> methods;      // in UnderflowMethod order
  const UnderflowMethodResult* find(UnderflowMethod m) const;
};

// Throws std::invalid_argument for a bad spec (non-positive or inverted range, count < 1, bins < 1, ...).
UnderflowResult run_underflow_demo(const UnderflowSpec& spec);

const char* underflow_method_name(UnderflowMethod m);

// The demo as one Result for recordings: experiment "underflow", backend "cpu", variant "software-fp16-bf16",
// precision fp16, params count, min_grad, max_grad, loss_scale and, per method, lost_<method> / damaged_<method>
// (fp16_plain, fp16_static, fp16_dynamic, bf16, fp32), plus dynamic_skipped_steps and dynamic_final_scale.
Result underflow_result(const UnderflowSpec& spec);

}  // namespace gpulab

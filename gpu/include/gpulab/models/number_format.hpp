#pragma once
// Storage formats for weights, KV cache and activations in the memory models. This is wider than
// gpulab::Precision (which lists formats the experiments can *run*): the lesson also sizes INT4 weights,
// which no experiment computes in, so the models keep their own small enum.
#include "gpulab/precision.hpp"

#include <optional>
#include <string_view>

namespace gpulab::models {

enum class NumberFormat { fp64, fp32, fp16, bf16, fp8, int8, int4 };

// Bytes one stored value takes: the lesson's table (FP32 4, FP16/BF16 2, INT8 1, INT4 0.5) plus FP64 8, FP8 1.
constexpr double bytes_per_value(NumberFormat f) {
  switch (f) {
    case NumberFormat::fp64: return 8.0;
    case NumberFormat::fp32: return 4.0;
    case NumberFormat::fp16: return 2.0;
    case NumberFormat::bf16: return 2.0;
    case NumberFormat::fp8: return 1.0;
    case NumberFormat::int8: return 1.0;
    case NumberFormat::int4: return 0.5;
  }
  return 0.0;
}

std::string_view format_name(NumberFormat f);                            // "FP16", "INT4", ...
std::optional<NumberFormat> format_from_string(std::string_view s);      // "fp16" or "FP16"; "int4"
bool is_float_training_format(NumberFormat f);                           // fp32/fp16/bf16: formats full training keeps

// The stored format of an experiment precision (TF32 is stored as FP32).
constexpr NumberFormat format_of(Precision p) {
  switch (p) {
    case Precision::fp64: return NumberFormat::fp64;
    case Precision::fp32: return NumberFormat::fp32;
    case Precision::tf32: return NumberFormat::fp32;
    case Precision::fp16: return NumberFormat::fp16;
    case Precision::bf16: return NumberFormat::bf16;
    case Precision::int8: return NumberFormat::int8;
    case Precision::fp8: return NumberFormat::fp8;
  }
  return NumberFormat::fp32;
}

}  // namespace gpulab::models

#include "gpulab/models/number_format.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace gpulab::models {

namespace {
struct Name {
  NumberFormat format;
  std::string_view lower;
  std::string_view display;
};
constexpr std::array<Name, 7> k_names{{{NumberFormat::fp64, "fp64", "FP64"},
                                       {NumberFormat::fp32, "fp32", "FP32"},
                                       {NumberFormat::fp16, "fp16", "FP16"},
                                       {NumberFormat::bf16, "bf16", "BF16"},
                                       {NumberFormat::fp8, "fp8", "FP8"},
                                       {NumberFormat::int8, "int8", "INT8"},
                                       {NumberFormat::int4, "int4", "INT4"}}};
}  // namespace

std::string_view format_name(NumberFormat f) {
  for (const auto& n : k_names)
    if (n.format == f) return n.display;
  return "?";
}

std::optional<NumberFormat> format_from_string(std::string_view s) {
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& n : k_names)
    if (n.lower == lower) return n.format;
  return std::nullopt;
}

bool is_float_training_format(NumberFormat f) {
  return f == NumberFormat::fp32 || f == NumberFormat::fp16 || f == NumberFormat::bf16;
}

}  // namespace gpulab::models

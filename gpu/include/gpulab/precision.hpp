#pragma once
// Number formats the experiments run in. Plain enum + string names: the recording stores the names.
#include <array>
#include <optional>
#include <string_view>

namespace gpulab {

enum class Precision { fp64, fp32, tf32, fp16, bf16, int8, fp8 };

inline constexpr std::array<Precision, 7> all_precisions{Precision::fp64, Precision::fp32, Precision::tf32,
                                                         Precision::fp16, Precision::bf16, Precision::int8,
                                                         Precision::fp8};

std::string_view to_string(Precision p);           // "fp64", "fp32", ...
std::string_view display_name(Precision p);        // "FP64", "TF32", ...
std::optional<Precision> precision_from_string(std::string_view s);  // accepts either spelling
// Bytes one stored element occupies (TF32 is stored as FP32).
double bytes_per_element(Precision p);
// Relative tolerance for a dot product of length k accumulated in this precision (checks, not timing).
double default_rtol(Precision p, long long k);
// Matching absolute tolerance for inputs in [-1, 1) (fill_random): cells that cancel to near zero are judged
// against the typical size of a cell instead of their own.
double default_atol(Precision p, long long k);

}  // namespace gpulab

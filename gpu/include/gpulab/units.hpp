#pragma once
// Numbers for people: SI prefixes, thousands separators, sensible significant digits.
#include <string>

namespace gpulab {

// format_si(1.23e12, "FLOP/s") -> "1.23 TFLOP/s"; 3 significant digits by default.
std::string format_si(double value, const std::string& unit, int significant = 3);
// format_bytes(14e9) -> "14.0 GB" (decimal GB, as datasheets use)
std::string format_bytes(double bytes, int significant = 3);
// format_seconds(0.00123) -> "1.23 ms"
std::string format_seconds(double seconds, int significant = 3);
// format_count(131072) -> "131,072"
std::string format_count(long long n);
// format_whole(131071.6) -> "131,072": rounded half away from zero, for counts a model computes as a double
std::string format_whole(double v);
// format_fixed(19.94, 1) -> "19.9"; format_fixed(4096, 1) -> "4,096.0"
std::string format_fixed(double v, int decimals);
// format_fixed_plain(4096, 1) -> "4096.0": no thousands separators, for figures a script reads back (the CLI's)
std::string format_fixed_plain(double v, int decimals);

}  // namespace gpulab

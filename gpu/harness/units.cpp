// Numbers for people: SI prefixes, thousands separators, a fixed number of significant digits.
#include "gpulab/units.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace gpulab {
namespace {

// Inserts ',' every three digits into the integer part of a plain decimal string ("-12345.6" -> "-12,345.6").
std::string group_thousands(const std::string& s) {
  std::size_t begin = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  std::size_t end = s.find_first_not_of("0123456789", begin);
  if (end == std::string::npos) end = s.size();
  std::string out = s.substr(0, begin);
  const std::size_t digits = end - begin;
  for (std::size_t i = 0; i < digits; ++i) {
    if (i > 0 && (digits - i) % 3 == 0) out += ',';
    out += s[begin + i];
  }
  out += s.substr(end);
  return out;
}

// std::to_chars, not printf: a Qt app runs under the user's locale (QCoreApplication calls setlocale), and "%f"
// would then write "1,5" in German and collide with the thousands separators.
std::string fixed_raw(double v, int decimals) {
  char buf[512];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals < 0 ? 0 : decimals);
  return res.ec == std::errc{} ? std::string(buf, res.ptr) : std::string("overflow");
}

// Decimals that give `significant` digits for a value whose magnitude is in [1, 1000).
int decimals_for(double magnitude, int significant) {
  int int_digits = magnitude >= 100 ? 3 : magnitude >= 10 ? 2 : 1;
  return significant > int_digits ? significant - int_digits : 0;
}

std::string non_finite(double v, const std::string& unit) {
  std::string s = std::isnan(v) ? "n/a" : (v > 0 ? "inf" : "-inf");
  return unit.empty() ? s : s + " " + unit;
}

}  // namespace

std::string format_si(double value, const std::string& unit, int significant) {
  if (!std::isfinite(value)) return non_finite(value, unit);
  if (significant < 1) significant = 1;
  const std::string sep = unit.empty() ? "" : " ";
  if (value == 0) return "0" + sep + unit;

  static constexpr const char* prefixes[] = {"q", "r", "y", "z", "a", "f", "p", "n", "\u00b5", "m", "",
                                             "k", "M", "G", "T", "P", "E", "Z", "Y", "R", "Q"};
  constexpr int unity = 10;  // index of "" in prefixes
  const double mag = std::fabs(value);
  int e3 = static_cast<int>(std::floor(std::log10(mag) / 3));
  if (e3 < -unity) e3 = -unity;
  if (e3 > unity) e3 = unity;
  double scaled = mag / std::pow(1000.0, e3);
  int dec = decimals_for(scaled, significant);
  // Rounding can carry into the next prefix (999.7 -> "1000"): then show it as 1.00 of the next one. It can also
  // add a digit within the prefix (9.997 -> "10.00", 99.97 -> "100.0"): then take the decimals the rounded value
  // needs, so it keeps `significant` digits ("10.0", "100").
  const std::string rounded = fixed_raw(scaled, dec);
  const std::size_t int_len = std::min(rounded.find('.'), rounded.size());
  if (int_len >= 4 && e3 < unity) {
    ++e3;
    scaled = mag / std::pow(1000.0, e3);
    dec = decimals_for(scaled, significant);
  } else {
    dec = decimals_for(std::pow(10.0, double(int_len) - 1), significant);
  }
  std::string digits = group_thousands(fixed_raw(scaled, dec));  // only beyond the largest prefix
  return (value < 0 ? "-" : "") + digits + sep + prefixes[e3 + unity] + unit;
}

std::string format_bytes(double bytes, int significant) {
  // Decimal prefixes, as datasheets and the lesson use (80 GB, 3.35 TB/s).
  return format_si(bytes, "B", significant);
}

std::string format_seconds(double seconds, int significant) {
  if (std::isfinite(seconds) && std::fabs(seconds) >= 1000) {
    // "1.23 ks" would puzzle a class; long runs read better in plain seconds.
    return format_fixed(seconds, 0) + " s";
  }
  return format_si(seconds, "s", significant);
}

std::string format_count(long long n) { return group_thousands(std::to_string(n)); }

std::string format_whole(double v) {
  if (!std::isfinite(v)) return non_finite(v, "");
  return format_fixed(std::round(v), 0);  // std::round: half away from zero (to_chars alone rounds half to even)
}

std::string format_fixed(double v, int decimals) { return group_thousands(format_fixed_plain(v, decimals)); }

std::string format_fixed_plain(double v, int decimals) {
  if (!std::isfinite(v)) return non_finite(v, "");
  std::string s = fixed_raw(v, decimals);
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) {
    if (s[0] == '-') s.erase(0, 1);  // "-0.0" reads as a sign error
  }
  return s;
}

}  // namespace gpulab

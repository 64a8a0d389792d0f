#include "calc_support.hpp"

#include <charconv>
#include <iostream>

namespace gpulab::calc_cli {

using namespace gpulab::models;

int usage_error(const std::string& message) {
  std::cerr << "calc: " << message << "\n(try: calc --help)\n";
  return k_usage;
}

// Whole-string decimal number (from_chars: no locale, no leading spaces, no trailing junk); finite only.
std::optional<double> to_number(const std::string& s) {
  double v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 131072 -> "131,072" (rounded to a whole number first).
std::string grouped(double v) {
  if (!std::isfinite(v)) return v > 0 ? "unbounded" : "n/a";
  const bool negative = v < 0;
  std::string digits = fixed(std::fabs(std::round(v)), 0);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

// Decimal GB with one decimal, as the lesson prints weights (28.0 / 14.0 / 7.0 / 3.5 GB); MB below 1 GB.
std::string gb(double bytes) {
  if (bytes == 0 || std::fabs(bytes) >= 0.995e9) return fixed(bytes / 1e9, 1) + " GB";
  return fixed(bytes / 1e6, 1) + " MB";
}

// SI prefix with 3 significant digits: 3.35e12 FLOP/s -> "3.35 TFLOP/s".
std::string si(double v, const std::string& unit) {
  static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 999.5 && p < 6) {
    x /= 1000;
    ++p;
  }
  const int decimals = std::fabs(x) >= 99.95 ? 0 : (std::fabs(x) >= 9.995 ? 1 : 2);
  return fixed(x, decimals) + " " + prefixes[p] + unit;
}

// "1 user", "4 users".
std::string count_of(double n, const std::string& singular, const std::string& plural) {
  return grouped(n) + " " + (std::round(n) == 1 ? singular : plural);
}

// Tokens per second as the lesson prints them: whole tokens from 100 up (239), one decimal below (3.6).
std::string tokens(double t) { return t >= 99.5 ? grouped(t) : fixed(t, 1); }

void print_json(const json& j) { std::cout << j.dump(2) << "\n"; }

json spec_json(const GpuSpec& g) {
  return {{"name", g.name}, {"memory_gb", g.memory_gb}, {"bandwidth_gbs", g.bandwidth_gbs},
          {"lesson_example", g.lesson_example}, {"source", g.source}};
}

}  // namespace gpulab::calc_cli

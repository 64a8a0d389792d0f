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

// Decimal GB with one decimal, as the lesson prints weights (28.0 / 14.0 / 7.0 / 3.5 GB); MB below 1 GB.
std::string gb(double bytes) {
  if (bytes == 0 || std::fabs(bytes) >= 0.995e9) return format_fixed_plain(bytes / 1e9, 1) + " GB";
  return format_fixed_plain(bytes / 1e6, 1) + " MB";
}

// "1 user", "4 users".
std::string count_of(double n, const std::string& singular, const std::string& plural) {
  return format_whole(n) + " " + (std::round(n) == 1 ? singular : plural);
}

// Tokens per second as the lesson prints them: whole tokens from 100 up (239), one decimal below (3.6).
std::string tokens(double t) { return t >= 99.5 ? format_whole(t) : format_fixed_plain(t, 1); }

void print_json(const json& j) { std::cout << j.dump(2) << "\n"; }

json spec_json(const GpuSpec& g) {
  return {{"name", g.name}, {"memory_gb", g.memory_gb}, {"bandwidth_gbs", g.bandwidth_gbs},
          {"lesson_example", g.lesson_example}, {"source", g.source}};
}

}  // namespace gpulab::calc_cli

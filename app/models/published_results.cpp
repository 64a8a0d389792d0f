#include "models/published_results.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace gpulab::models {

namespace {

const char k_bundled_csv[] =
#include "published_results_csv.inc"
    ;

// One CSV record: fields split at commas outside double quotes; "" inside quotes is a quote.
std::vector<std::string> split_record(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

[[noreturn]] void fail(int line, const std::string& what) {
  throw PublishedParseError("published results, line " + std::to_string(line) + ": " + what);
}

double number(const std::string& text, int line, const char* column, bool required) {
  if (text.empty()) {
    if (required) fail(line, std::string(column) + " is empty");
    return 0;
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    fail(line, std::string(column) + " is not a number: '" + text + "'");
  return v;
}

double scale_of(const std::string& unit) {
  static const std::map<std::string, double> scales{{"TFLOP/s", 1e12}, {"GFLOP/s", 1e9}, {"TB/s", 1e12},
                                                    {"GB/s", 1e9},     {"tokens/s", 1.0}};
  const auto it = scales.find(unit);
  return it == scales.end() ? 0 : it->second;
}

const std::pair<PublishedKind, std::string_view> k_kinds[] = {
    {PublishedKind::gemm, "gemm"},           {PublishedKind::gemm_pitfall, "gemm-pitfall"},
    {PublishedKind::sgemm_ladder, "sgemm-ladder"}, {PublishedKind::bandwidth, "bandwidth"},
    {PublishedKind::host_link, "host-link"}, {PublishedKind::decode, "decode"}};

std::string trim_number(double v) {
  char buf[32];
  // Up to four significant digits, as the sources print them (309, 18.88, 794.5, 23250).
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string_view to_string(PublishedKind k) {
  for (const auto& [kind, name] : k_kinds)
    if (kind == k) return name;
  return "?";
}

double PublishedResult::unit_scale() const { return scale_of(unit); }
double PublishedResult::typical_si() const { return typical() * unit_scale(); }

double PublishedResult::gemm_intensity() const {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  double bytes_per = 0;
  if (precision == "fp32") bytes_per = 4;
  else if (precision == "bf16" || precision == "fp16") bytes_per = 2;
  else if (precision == "fp8" || precision == "int8") bytes_per = 1;
  if (bytes_per == 0) return 0;
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const double bytes = bytes_per * (double(m) * double(k) + double(k) * double(n) + double(m) * double(n));
  return flops / bytes;
}

std::string PublishedResult::value_text() const {
  if (is_range()) return trim_number(value) + "–" + trim_number(value_high) + " " + unit;
  return trim_number(value) + " " + unit;
}

std::string published_label(const std::string& source, const std::string& device) {
  return "published: " + source + ", " + device;
}
std::string published_label(const PublishedResult& r) { return published_label(r.source, r.device); }

std::string published_short_label(const PublishedResult& r) {
  const std::size_t slash = r.source.find('/');
  if (slash == std::string::npos) return published_label(r.source, r.device);
  const std::size_t space = r.source.find(' ', slash);
  const std::string project = r.source.substr(slash + 1, space == std::string::npos ? std::string::npos : space - slash - 1);
  return "published: " + r.device + ", " + project;
}

std::vector<PublishedResult> parse_published_results(std::string_view csv) {
  static const std::vector<std::string> k_columns{"id",    "kind",       "device",    "what",           "precision",
                                                  "variant", "m",        "n",         "k",              "value",
                                                  "value_high", "unit",  "reference", "reference_what", "source"};
  std::vector<PublishedResult> out;
  std::set<std::string> ids;
  std::map<std::string, std::size_t> col;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < csv.size()) {
    std::size_t end = csv.find('\n', pos);
    if (end == std::string_view::npos) end = csv.size();
    std::string_view line = csv.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    const std::vector<std::string> f = split_record(line);
    if (col.empty()) {
      for (std::size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
      for (const std::string& c : k_columns)
        if (!col.count(c)) fail(line_no, "the header lacks the column '" + c + "'");
      continue;
    }
    if (f.size() != col.size())
      fail(line_no, std::to_string(f.size()) + " fields, the header has " + std::to_string(col.size()));
    auto get = [&](const char* c) -> const std::string& { return f[col.at(c)]; };
    PublishedResult r;
    r.id = get("id");
    if (r.id.empty()) fail(line_no, "id is empty");
    if (!ids.insert(r.id).second) fail(line_no, "id '" + r.id + "' appears twice");
    const std::string& kind = get("kind");
    const auto k = std::find_if(std::begin(k_kinds), std::end(k_kinds), [&](const auto& e) { return e.second == kind; });
    if (k == std::end(k_kinds)) fail(line_no, "unknown kind '" + kind + "'");
    r.kind = k->first;
    r.device = get("device");
    r.what = get("what");
    r.precision = get("precision");
    r.variant = get("variant");
    r.m = static_cast<long long>(number(get("m"), line_no, "m", false));
    r.n = static_cast<long long>(number(get("n"), line_no, "n", false));
    r.k = static_cast<long long>(number(get("k"), line_no, "k", false));
    r.value = number(get("value"), line_no, "value", true);
    if (!(r.value > 0)) fail(line_no, "value must be positive");
    r.value_high = number(get("value_high"), line_no, "value_high", false);
    if (r.value_high > 0 && r.value_high < r.value) fail(line_no, "value_high is below value");
    r.unit = get("unit");
    if (scale_of(r.unit) == 0) fail(line_no, "unknown unit '" + r.unit + "'");
    r.reference = number(get("reference"), line_no, "reference", false);
    r.reference_what = get("reference_what");
    r.source = get("source");
    if (r.device.empty() || r.source.empty()) fail(line_no, "device and source are required: a figure without them is not citable");
    out.push_back(std::move(r));
  }
  if (col.empty()) throw PublishedParseError("published results: no header row");
  return out;
}

const std::vector<PublishedResult>& published_results() {
  // The bundled table is checked by the tests; a broken edit must not take the app down, so it yields no rows.
  static const std::vector<PublishedResult> rows = [] {
    try {
      return parse_published_results(k_bundled_csv);
    } catch (const PublishedParseError& e) {
      std::fprintf(stderr, "gpulab: %s\n", e.what());
      return std::vector<PublishedResult>{};
    }
  }();
  return rows;
}

std::vector<PublishedResult> published_of_kind(PublishedKind kind) {
  std::vector<PublishedResult> out;
  for (const PublishedResult& r : published_results())
    if (r.kind == kind) out.push_back(r);
  return out;
}

}  // namespace gpulab::models

#include "gpulab/models/catalogue.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

namespace gpulab::models {

namespace {

// One CSV record split into fields. Quoted fields may hold commas, newlines and "" (an escaped quote).
// Returns false at the end of the text.
bool next_record(std::string_view text, std::size_t& pos, std::vector<std::string>& fields, bool& bad_quote) {
  fields.clear();
  bad_quote = false;
  if (pos >= text.size()) return false;
  std::string field;
  bool quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"') {
        if (pos < text.size() && text[pos] == '"') {
          field += '"';
          ++pos;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c == '"' && field.empty()) {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      field += c;
    }
  }
  if (quoted) bad_quote = true;  // the text ended inside a quoted field
  fields.push_back(std::move(field));
  return true;
}

std::string trim(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Whole-field number or nothing.
std::optional<double> parse_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  double v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

// Lower-case tokens of a GPU name, split at anything that is not a letter or digit, vendor/brand words dropped.
std::vector<std::string> name_tokens(std::string_view name) {
  static const std::set<std::string> k_brand{"nvidia", "geforce", "tesla", "amd", "instinct", "radeon", "quadro"};
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty() && !k_brand.count(cur)) out.push_back(cur);
    cur.clear();
  };
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

bool has_digit(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The shortest text that reads back as `v` ("24", "141", "80"); empty if it cannot be written.
std::string shortest_number(double v) {
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, p) : std::string();
}

std::string format_gb_token(double gb) {
  const std::string figure = shortest_number(gb);
  return figure.empty() ? figure : figure + "gb";
}

}  // namespace

std::optional<double> GpuSpec::peak_for(Precision p) const {
  switch (p) {
    case Precision::fp64: return fp64_tflops;
    case Precision::fp32: return fp32_tflops;
    case Precision::tf32: return tf32_tflops;
    case Precision::fp16: return fp16_tflops;
    case Precision::bf16: return bf16_tflops;
    case Precision::int8: return int8_tops;
    case Precision::fp8: return fp8_tflops;
  }
  return std::nullopt;
}

std::optional<double> GpuSpec::peak_flops_for(Precision p) const {
  auto t = peak_for(p);
  if (!t) return std::nullopt;
  return *t * 1e12;
}

std::string GpuSpec::memory_label() const {
  const std::string figure = shortest_number(memory_gb);
  return (figure.empty() ? "?" : figure) + (lesson_example ? " GB" : " GiB");
}

std::string GpuSpec::memory_family() const {
  const std::string t = lower(memory_type);
  if (t.rfind("hbm", 0) == 0) return "HBM";
  if (t.rfind("gddr", 0) == 0) return "GDDR";
  return memory_type.empty() ? "VRAM" : memory_type;
}

double GpuSpec::interconnect_total_gbs() const {
  // The figure is the number before "GB/s": "NVLink4 900 GB/s", "Infinity Fabric 896 GB/s".
  const auto at = interconnect.find("GB/s");
  if (at == std::string::npos) return 0;
  std::size_t start = interconnect.find_last_not_of(' ', at == 0 ? 0 : at - 1);
  if (start == std::string::npos) return 0;
  const std::size_t end = start + 1;
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(interconnect[start - 1])) || interconnect[start - 1] == '.'))
    --start;
  return parse_number(interconnect.substr(start, end - start)).value_or(0);
}

std::string GpuSpec::interconnect_name() const {
  if (!(interconnect_total_gbs() > 0)) return {};
  const auto at = interconnect.find("GB/s");
  std::string s = interconnect.substr(0, at);
  // Drop the figure and the spaces around it, not the digits of the name ("NVLink4").
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.back())) || s.back() == '.')) s.pop_back();
  return trim(s);
}

std::vector<Precision> GpuSpec::tensor_core_formats() const {
  std::vector<Precision> out;
  if (vendor == "NVIDIA" && (compute_capability == "8.0" || compute_capability == "9.0")) out.push_back(Precision::fp64);
  for (Precision p : {Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8, Precision::int8})
    if (peak_for(p)) out.push_back(p);
  return out;
}

CatalogueParse parse_catalogue_csv(std::string_view text) {
  CatalogueParse out;
  std::size_t pos = 0;
  std::vector<std::string> fields;
  bool bad_quote = false;
  if (!next_record(text, pos, fields, bad_quote)) {
    out.errors.push_back("empty catalogue");
    return out;
  }
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < fields.size(); ++i) col[lower(trim(fields[i]))] = i;
  for (const char* required : {"name", "memory_gb", "bandwidth_gbs"}) {
    if (!col.count(required)) {
      out.errors.push_back(std::string("header lacks column ") + required);
      return out;
    }
  }
  int line = 1;
  while (next_record(text, pos, fields, bad_quote)) {
    ++line;
    if (fields.size() == 1 && trim(fields[0]).empty()) continue;  // blank line
    const std::string where = "line " + std::to_string(line) + ": ";
    if (bad_quote) {
      out.errors.push_back(where + "unterminated quoted field");
      continue;
    }
    auto get = [&](const char* name) -> std::string {
      auto it = col.find(name);
      return it != col.end() && it->second < fields.size() ? trim(fields[it->second]) : std::string();
    };
    std::string error;
    auto required_number = [&](const char* name) -> double {
      auto v = parse_number(get(name));
      if (!v && error.empty()) error = std::string("bad or missing ") + name + " '" + get(name) + "'";
      return v.value_or(0);
    };
    auto optional_number = [&](const char* name) -> std::optional<double> {
      const std::string s = get(name);
      if (s.empty()) return std::nullopt;  // empty = the card has no such path
      auto v = parse_number(s);
      if (!v && error.empty()) error = std::string("bad ") + name + " '" + s + "'";
      return v;
    };
    GpuSpec g;
    g.name = get("name");
    if (g.name.empty()) error = "empty name";
    g.vendor = get("vendor");
    g.arch = get("arch");
    g.compute_capability = get("compute_capability");
    g.memory_gb = required_number("memory_gb");
    g.bandwidth_gbs = required_number("bandwidth_gbs");
    g.memory_type = get("memory_type");
    g.sms = static_cast<int>(optional_number("sms").value_or(0));
    g.boost_mhz = static_cast<int>(optional_number("boost_mhz").value_or(0));
    g.fp64_tflops = optional_number("fp64_tflops");
    g.fp32_tflops = optional_number("fp32_tflops");
    g.tf32_tflops = optional_number("tf32_tflops_dense");
    g.fp16_tflops = optional_number("fp16_tflops_dense");
    g.bf16_tflops = optional_number("bf16_tflops_dense");
    g.int8_tops = optional_number("int8_tops_dense");
    g.fp8_tflops = optional_number("fp8_tflops_dense");
    g.interconnect = get("interconnect");
    g.host_link = get("host_link");
    g.host_link_gbs = optional_number("host_link_gbs").value_or(0);
    g.confirmed = get("confirmed");
    g.source = get("source");
    // fp64_tflops is what a DGEMM can reach, and fp64_units says on what: "tensor" (NVIDIA's FP64 tensor cores,
    // twice the FP64 lanes on an A100/H100/H200), "matrix" (AMD's matrix cores) or "vector" (the FP64 lanes).
    // The column must agree with the tensor-core formats the code derives, so a row cannot quote one kind of
    // FP64 while the precision page and the roofline treat it as the other. Empty = not stated (older tables).
    if (const std::string units = get("fp64_units"); !units.empty() && error.empty()) {
      const auto tc = g.tensor_core_formats();
      const bool fp64_tensor = std::find(tc.begin(), tc.end(), Precision::fp64) != tc.end();
      if (units != "tensor" && units != "matrix" && units != "vector")
        error = "bad fp64_units '" + units + "' (tensor, matrix or vector)";
      else if ((units == "tensor") != fp64_tensor)
        error = "fp64_units '" + units + "' disagrees with the card's FP64 tensor cores (compute capability " +
                g.compute_capability + ")";
      else if (units == "matrix" && g.vendor != "AMD")
        error = "fp64_units 'matrix' is AMD's name; NVIDIA's is 'tensor'";
    }
    if (!error.empty()) {
      out.errors.push_back(where + error);
      continue;
    }
    out.gpus.push_back(std::move(g));
  }
  return out;
}

const std::vector<GpuSpec>& catalogue() {
  // Function-local static: initialised once, thread-safe (C++11 magic statics).
  static const std::vector<GpuSpec> k_table = [] {
    const char* csv =
#include "gpu_specs_csv.inc"
        ;
    return parse_catalogue_csv(csv).gpus;
  }();
  return k_table;
}

const GpuSpec* find_gpu(std::string_view name) {
  const auto& table = catalogue();
  const std::string wanted = lower(trim(std::string(name)));
  if (wanted.empty()) return nullptr;
  for (const auto& g : table)
    if (lower(g.name) == wanted) return &g;

  const auto device = name_tokens(name);
  const std::set<std::string> have(device.begin(), device.end());
  const GpuSpec* best = nullptr;
  int best_score = -1;
  for (const auto& g : table) {
    auto tokens = name_tokens(g.name);
    auto model = std::find_if(tokens.begin(), tokens.end(), has_digit);
    if (model == tokens.end() || !have.count(*model)) continue;
    int score = 0;
    for (auto it = tokens.begin(); it != tokens.end(); ++it)
      if (it != model && have.count(*it)) ++score;
    const std::string gb = format_gb_token(g.memory_gb);
    if (!gb.empty() && have.count(gb) && std::find(tokens.begin(), tokens.end(), gb) == tokens.end()) ++score;
    if (score > best_score) {  // strict: ties keep the earlier row
      best_score = score;
      best = &g;
    }
  }
  return best;
}

const GpuSpec& shop_card() {
  static const GpuSpec k_card = [] {
    GpuSpec g;
    g.name = "Shop card (24 GB)";
    g.vendor = "lesson example";
    g.arch = "generic";
    g.memory_gb = 24;  // "Our shop's GPU has 24 GB of VRAM" (lesson 17.1, pause and think)
    g.confirmed = "example";
    g.source = "lesson 17.1: the appliance shop's 24 GB card; only its memory is stated";
    g.lesson_example = true;
    return g;
  }();
  return k_card;
}

}  // namespace gpulab::models

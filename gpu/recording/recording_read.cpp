// JSON text -> Recording, validated. A recording may come from another machine, another gpulab version or a
// hand edit, so every field is checked for type and range, and every error names the field and where it is
// ("results[3].stats.median_s: must be a finite number >= 0") so a teacher can fix or report the file.
#include "gpulab/recording.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace gpulab {
namespace {

using nlohmann::json;

// Caps that keep a hostile or corrupt file from exhausting memory: the largest real suite writes well under
// 1 MiB and a few thousand results.
constexpr std::size_t max_file_bytes = 64u << 20;
constexpr std::size_t max_results = 100000;
constexpr std::size_t max_samples_per_result = 1000000;
// Recordings nest four levels deep; a file nested far deeper is not one of ours.
constexpr int max_nesting = 32;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw RecordingError(where.empty() ? what : where + ": " + what);
}

// Rejects absurd nesting before the parser sees it, so "[[[[..." cannot cost time or stack.
void check_nesting(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_nesting)
        fail("", "not a gpulab recording: nested more than " + std::to_string(max_nesting) + " levels deep at byte " +
                     std::to_string(i));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

json parse_json(const std::string& text) {
  check_nesting(text);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = "truncated or invalid JSON at byte " + std::to_string(e.byte);
    if (e.byte >= text.size()) msg += " (the file ends early)";
    // nlohmann's text after the position says what the parser expected; keep that part for the curious.
    const std::string what = e.what();
    if (auto pos = what.find(": "); pos != std::string::npos) msg += ":" + what.substr(pos + 1);
    fail("", msg);
  } catch (const json::exception& e) {
    // A number too large for a double (1e400) lands here (out_of_range.406), without a byte offset.
    const std::string what = e.what();
    auto pos = what.find("] ");
    fail("", "invalid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
}

std::string type_word(const json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "a list";
  return "an object";
}

// Field readers. `where` is the path of the enclosing object ("results[3].stats").
const json& field(const json& obj, const std::string& where, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(where.empty() ? std::string(key) : where + "." + key, "missing");
  return *it;
}
std::string path_of(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

const json& object_field(const json& obj, const std::string& where, const char* key) {
  const json& v = field(obj, where, key);
  if (!v.is_object()) fail(path_of(where, key), "must be an object, not " + type_word(v));
  return v;
}

std::string string_field(const json& obj, const std::string& where, const char* key) {
  const json& v = field(obj, where, key);
  if (!v.is_string()) fail(path_of(where, key), "must be a string, not " + type_word(v));
  return v.get<std::string>();
}

bool bool_field(const json& obj, const std::string& where, const char* key) {
  const json& v = field(obj, where, key);
  if (!v.is_boolean()) fail(path_of(where, key), "must be true or false, not " + type_word(v));
  return v.get<bool>();
}

// A finite, non-negative number (times, counts of work, rates). `null_is_nan` allows the null the writer uses
// for a non-finite check error.
double nonneg_number(const json& v, const std::string& where, bool null_is_nan = false) {
  if (null_is_nan && v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
    fail(where, "must be a finite number >= 0");
  return v.get<double>();
}
double nonneg_field(const json& obj, const std::string& where, const char* key, bool null_is_nan = false) {
  return nonneg_number(field(obj, where, key), path_of(where, key), null_is_nan);
}

// An integer in [lo, hi]; a JSON float with an integral value (3.0) is accepted, 3.5 is not.
long long integer_field(const json& obj, const std::string& where, const char* key, long long lo, long long hi) {
  const json& v = field(obj, where, key);
  const std::string at = path_of(where, key);
  const std::string range = "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (v.is_number_integer()) {
    // Unsigned values above LLONG_MAX would wrap in get<long long>().
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi)) fail(at, range);
    long long x = v.get<long long>();
    if (x < lo || x > hi) fail(at, range);
    return x;
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
      fail(at, range);
    return static_cast<long long>(d);
  }
  fail(at, range + ", not " + type_word(v));
}

bool has(const json& obj, const char* key) { return obj.contains(key); }

Check read_check(const json& obj, const std::string& where) {
  Check c;
  c.passed = bool_field(obj, where, "passed");
  c.max_abs_err = nonneg_field(obj, where, "max_abs_err", true);
  c.max_rel_err = nonneg_field(obj, where, "max_rel_err", true);
  c.first_bad_index = integer_field(obj, where, "first_bad_index", -1, std::numeric_limits<long long>::max());
  c.checked = integer_field(obj, where, "checked", 0, std::numeric_limits<long long>::max());
  c.message = string_field(obj, where, "message");
  return c;
}

Stats read_stats(const json& obj, const std::string& where) {
  Stats s;
  s.median_s = nonneg_field(obj, where, "median_s");
  s.min_s = nonneg_field(obj, where, "min_s");
  s.max_s = nonneg_field(obj, where, "max_s");
  s.mean_s = nonneg_field(obj, where, "mean_s");
  s.rel_spread = nonneg_field(obj, where, "rel_spread");
  s.n = static_cast<int>(integer_field(obj, where, "n", 0, std::numeric_limits<int>::max()));
  if (s.n > 0 && (s.min_s > s.median_s || s.median_s > s.max_s))
    fail(where, "min_s <= median_s <= max_s does not hold");
  return s;
}

Result read_result(const json& obj, const std::string& where) {
  if (!obj.is_object()) fail(where, "must be an object, not " + type_word(obj));
  Result r;
  r.experiment = string_field(obj, where, "experiment");
  if (r.experiment.empty()) fail(path_of(where, "experiment"), "must not be empty");
  r.backend = string_field(obj, where, "backend");
  if (r.backend != "cpu" && r.backend != "cuda" && r.backend != "vulkan")
    fail(path_of(where, "backend"), "must be \"cpu\", \"cuda\" or \"vulkan\", not \"" + r.backend + "\"");
  r.variant = string_field(obj, where, "variant");
  const std::string precision = string_field(obj, where, "precision");
  auto p = precision_from_string(precision);
  if (!p) fail(path_of(where, "precision"), "unknown precision \"" + precision + "\"");
  r.precision = *p;
  r.check = read_check(object_field(obj, where, "check"), path_of(where, "check"));
  r.stats = read_stats(object_field(obj, where, "stats"), path_of(where, "stats"));

  // The rest is optional: an error result (a precision the device lacks) may carry nothing else.
  if (has(obj, "params")) {
    const std::string at = path_of(where, "params");
    for (const auto& [key, value] : object_field(obj, where, "params").items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>())) fail(at + "." + key, "must be a finite number");
      r.params[key] = value.get<double>();
    }
  }
  if (has(obj, "samples_s")) {
    const json& samples = obj["samples_s"];
    const std::string at = path_of(where, "samples_s");
    if (!samples.is_array()) fail(at, "must be a list of numbers, not " + type_word(samples));
    if (samples.size() > max_samples_per_result)
      fail(at, "has " + std::to_string(samples.size()) + " samples, more than the limit of " +
                   std::to_string(max_samples_per_result));
    r.samples_s.reserve(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i)
      r.samples_s.push_back(nonneg_number(samples[i], at + "[" + std::to_string(i) + "]"));
    // n counts the samples the statistics were computed from, which are the samples stored.
    if (!r.samples_s.empty() && static_cast<std::size_t>(r.stats.n) != r.samples_s.size())
      fail(path_of(where, "stats.n"), "is " + std::to_string(r.stats.n) + " but samples_s holds " +
                                          std::to_string(r.samples_s.size()) + " samples");
  }
  for (const char* key : {"flops", "bytes", "gflops", "gbps"})
    if (has(obj, key)) {
      double v = nonneg_field(obj, where, key);
      if (std::string(key) == "flops") r.flops = v;
      else if (std::string(key) == "bytes") r.bytes = v;
      else if (std::string(key) == "gflops") r.gflops = v;
      else r.gbps = v;
    }
  if (has(obj, "provenance")) {
    const std::string at = path_of(where, "provenance");
    for (const auto& [key, value] : object_field(obj, where, "provenance").items()) {
      if (!value.is_string()) fail(at + "." + key, "must be a string, not " + type_word(value));
      r.provenance[key] = value.get<std::string>();
    }
  }
  if (has(obj, "error")) r.error = string_field(obj, where, "error");
  // Optional: absent in recordings written before results said which plan made them (see parse_recording).
  if (has(obj, "plan")) r.plan = string_field(obj, where, "plan");
  return r;
}

}  // namespace

Recording parse_recording(const std::string& text) {
  if (text.size() > max_file_bytes)
    fail("", "the recording is " + std::to_string(text.size() >> 20) + " MiB, larger than the " +
                 std::to_string(max_file_bytes >> 20) + " MiB limit");
  const json doc = parse_json(text);
  if (!doc.is_object()) fail("", "not a gpulab recording: the top level is " + type_word(doc) + ", not an object");

  auto format = doc.find("format");
  if (format == doc.end()) fail("", "not a gpulab recording: format is missing");
  if (!format->is_string() || format->get<std::string>() != recording_format)
    fail("", "not a gpulab recording: format is " + format->dump() + ", expected \"" + recording_format + "\"");

  Recording rec;
  auto version = doc.find("version");
  if (version == doc.end()) fail("version", "missing");
  if (!version->is_number_integer()) fail("version", "must be a whole number, not " + type_word(*version));
  if (version->is_number_unsigned() && version->get<unsigned long long>() > 1000000u)
    fail("", "version " + version->dump() + " is newer than this gpulab understands (" +
                 std::to_string(recording_version) + ")");
  const long long v = version->get<long long>();
  if (v > recording_version)
    fail("", "version " + std::to_string(v) + " is newer than this gpulab understands (" +
                 std::to_string(recording_version) + ")");
  if (v < 1) fail("version", "must be 1 or more, not " + std::to_string(v));
  rec.version = static_cast<int>(v);
  // Absent in recordings written before partial saves existed; those were only ever written whole.
  if (has(doc, "complete")) rec.complete = bool_field(doc, "", "complete");

  for (const auto& [key, value] : object_field(doc, "", "context").items()) {
    if (!value.is_string()) fail("context." + key, "must be a string, not " + type_word(value));
    rec.context[key] = value.get<std::string>();
  }

  const json& results = field(doc, "", "results");
  if (!results.is_array()) fail("results", "must be a list, not " + type_word(results));
  if (results.size() > max_results)
    fail("results", "has " + std::to_string(results.size()) + " entries, more than the limit of " +
                        std::to_string(max_results));
  rec.results.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    rec.results.push_back(read_result(results[i], "results[" + std::to_string(i) + "]"));
  // Written before results carried their plan: a recording of one suite says which plan made every result (a
  // suite is one plan); one of "all" cannot say, and its results keep an empty plan ("made before plans were
  // recorded"), which pages draw as they did then.
  const auto suite = rec.context.find("suite");
  const bool one_plan = suite != rec.context.end() && !suite->second.empty() && suite->second != "all" &&
                        suite->second != "gui-session";
  if (one_plan)
    for (auto& r : rec.results)
      if (r.plan.empty()) r.plan = suite->second;
  return rec;
}

Recording load_recording(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec) throw RecordingError("cannot open recording " + path + ": " + ec.message());
  if (std::filesystem::is_directory(status))
    throw RecordingError("cannot open recording " + path + ": it is a folder, not a file");
  // Checked before reading so a huge file is refused without loading it (a pipe or a device file has no size).
  const std::uintmax_t file_bytes =
      std::filesystem::is_regular_file(status) ? std::filesystem::file_size(path, ec) : 0;
  if (!ec && file_bytes > max_file_bytes)
    throw RecordingError(path + ": the recording is " + std::to_string(file_bytes >> 20) +
                         " MiB, larger than the " + std::to_string(max_file_bytes >> 20) + " MiB limit");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RecordingError("cannot open recording " + path + ": " + std::strerror(errno));
  // Read at most one byte past the cap: a pipe or a device file has no size to check beforehand.
  std::string text;
  text.reserve(ec ? 0 : static_cast<std::size_t>(file_bytes));
  char chunk[1 << 16];
  while (text.size() <= max_file_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw RecordingError("cannot read recording " + path + ": " + std::strerror(errno));
  try {
    return parse_recording(text);
  } catch (const RecordingError& e) {
    throw RecordingError(path + ": " + e.what());
  }
}

}  // namespace gpulab

// Recording -> JSON text. The field names here are the recording schema (version 1); recording_read.cpp
// validates the same names on load, so change both together (and bump recording_version when a reader of the
// old version would misread the new one).
#include "gpulab/recording.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace gpulab {
namespace {

// ordered_json keeps the fields in the order written, so a recording reads top-down like the schema.
using json = nlohmann::ordered_json;

// JSON has no NaN or Inf. Times and rates are always finite, but a failed check can carry an infinite error
// (an output of Inf); those are written as null and read back as "not a finite number" (see recording_read.cpp).
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json to_json(const Check& c) {
  return {{"passed", c.passed},
          {"max_abs_err", number(c.max_abs_err)},
          {"max_rel_err", number(c.max_rel_err)},
          {"first_bad_index", c.first_bad_index},
          {"checked", c.checked},
          {"message", c.message}};
}

json to_json(const Stats& s) {
  return {{"median_s", number(s.median_s)}, {"min_s", number(s.min_s)},   {"max_s", number(s.max_s)},
          {"mean_s", number(s.mean_s)},     {"rel_spread", number(s.rel_spread)}, {"n", s.n}};
}

json to_json(const Result& r) {
  json params = json::object();
  for (const auto& [key, value] : r.params) params[key] = number(value);
  json samples = json::array();
  for (double s : r.samples_s) samples.push_back(number(s));
  json provenance = json::object();
  for (const auto& [key, value] : r.provenance) provenance[key] = value;
  return {{"experiment", r.experiment},
          {"plan", r.plan},
          {"backend", r.backend},
          {"variant", r.variant},
          {"precision", std::string(to_string(r.precision))},
          {"params", std::move(params)},
          {"check", to_json(r.check)},
          {"stats", to_json(r.stats)},
          {"samples_s", std::move(samples)},
          {"flops", number(r.flops)},
          {"bytes", number(r.bytes)},
          {"gflops", number(r.gflops)},
          {"gbps", number(r.gbps)},
          {"provenance", std::move(provenance)},
          {"error", r.error}};
}

}  // namespace

std::string to_json_text(const Recording& rec, int indent) {
  json context = json::object();
  for (const auto& [key, value] : rec.context) context[key] = value;
  json results = json::array();
  for (const auto& r : rec.results) results.push_back(to_json(r));
  // format first, so `head -c 100 FILE` shows what the file is.
  json doc = json::object();
  doc["format"] = recording_format;
  doc["version"] = rec.version;
  // Optional on read, so version 1 stays: an older gpulab ignores it and still reads every result correctly.
  doc["complete"] = rec.complete;
  doc["context"] = std::move(context);
  doc["results"] = std::move(results);
  // `replace` keeps a stray invalid UTF-8 byte (a device name from a driver, say) from making dump() throw.
  return doc.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

void save_recording(const Recording& rec, const std::string& path) {
  write_file_atomically(path, to_json_text(rec));
}

}  // namespace gpulab

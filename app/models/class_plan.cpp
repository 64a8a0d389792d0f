#include "models/class_plan.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace gpulab::models {

namespace {

// ordered_json keeps the file's key order: controls are applied in the order the teacher wrote them.
using Json = nlohmann::ordered_json;

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

bool optionalString(const Json& obj, const char* key, std::string* out, const std::string& where, std::string* error) {
  if (!obj.contains(key)) return true;
  if (!obj[key].is_string()) return fail(error, where + "'" + key + "' must be a string");
  *out = obj[key].get<std::string>();
  return true;
}

bool readStep(const Json& s, PlanStep* step, const std::string& where, std::string* error) {
  if (!s.is_object()) return fail(error, where + "a step must be an object");
  if (!s.contains("page") || !s["page"].is_string() || s["page"].get<std::string>().empty())
    return fail(error, where + "'page' must be a non-empty string (a page id such as \"matmul\")");
  step->page = s["page"].get<std::string>();
  if (!optionalString(s, "title", &step->title, where, error) || !optionalString(s, "note", &step->note, where, error) ||
      !optionalString(s, "recording", &step->recording, where, error))
    return false;
  if (s.contains("minutes")) {
    if (!s["minutes"].is_number() || !std::isfinite(s["minutes"].get<double>()) || s["minutes"].get<double>() < 0)
      return fail(error, where + "'minutes' must be a number of minutes, 0 or more");
    step->minutes = s["minutes"].get<double>();
  }
  if (s.contains("controls")) {
    const Json& c = s["controls"];
    if (!c.is_object()) return fail(error, where + "'controls' must be an object of control name -> value");
    for (auto it = c.begin(); it != c.end(); ++it) {
      const Json& v = it.value();
      if (v.is_boolean()) step->controls.emplace_back(it.key(), PlanValue(v.get<bool>()));
      else if (v.is_number() && std::isfinite(v.get<double>())) step->controls.emplace_back(it.key(), PlanValue(v.get<double>()));
      else if (v.is_string()) step->controls.emplace_back(it.key(), PlanValue(v.get<std::string>()));
      else return fail(error, where + "control '" + it.key() + "' must be a number, true/false or a string");
    }
  }
  return true;
}

}  // namespace

double ClassPlan::planned_minutes() const {
  double total = 0;
  for (const PlanStep& s : steps) total += s.minutes;
  return total;
}

std::optional<ClassPlan> parse_class_plan(const std::string& text, std::string* error) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    fail(error, "not valid JSON");
    return std::nullopt;
  }
  if (!doc.is_object() || doc.value("format", std::string()) != kClassPlanFormat) {
    fail(error, std::string("not a class plan: the file needs \"format\": \"") + kClassPlanFormat + "\"");
    return std::nullopt;
  }
  if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<int>() != kClassPlanVersion) {
    fail(error, "unsupported class plan version (this gpulab reads version " + std::to_string(kClassPlanVersion) + ")");
    return std::nullopt;
  }
  ClassPlan plan;
  if (!optionalString(doc, "title", &plan.title, "", error)) return std::nullopt;
  if (!doc.contains("steps") || !doc["steps"].is_array() || doc["steps"].empty()) {
    fail(error, "'steps' must be a list with at least one step");
    return std::nullopt;
  }
  int n = 0;
  for (const Json& s : doc["steps"]) {
    PlanStep step;
    if (!readStep(s, &step, "step " + std::to_string(++n) + ": ", error)) return std::nullopt;
    plan.steps.push_back(std::move(step));
  }
  return plan;
}

std::string write_class_plan(const ClassPlan& plan) {
  Json doc;
  doc["format"] = kClassPlanFormat;
  doc["version"] = kClassPlanVersion;
  if (!plan.title.empty()) doc["title"] = plan.title;
  doc["steps"] = Json::array();
  for (const PlanStep& s : plan.steps) {
    Json j;
    j["page"] = s.page;
    if (!s.title.empty()) j["title"] = s.title;
    if (s.minutes > 0) j["minutes"] = s.minutes;
    if (!s.controls.empty()) {
      Json c = Json::object();
      for (const auto& [key, value] : s.controls)
        std::visit([&c, &key = key](const auto& v) { c[key] = v; }, value);
      j["controls"] = c;
    }
    if (!s.recording.empty()) j["recording"] = s.recording;
    if (!s.note.empty()) j["note"] = s.note;
    doc["steps"].push_back(std::move(j));
  }
  return doc.dump(2) + "\n";
}

bool operator==(const PlanStep& a, const PlanStep& b) {
  return a.page == b.page && a.title == b.title && a.controls == b.controls && a.recording == b.recording &&
         a.note == b.note && a.minutes == b.minutes;
}

bool operator==(const ClassPlan& a, const ClassPlan& b) { return a.title == b.title && a.steps == b.steps; }

std::string clock_text(double seconds) {
  const long total = seconds > 0 ? long(seconds) : 0;
  char buf[32];
  if (total >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", total / 3600, (total / 60) % 60, total % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", total / 60, total % 60);
  return buf;
}

}  // namespace gpulab::models

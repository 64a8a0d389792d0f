#include "models/series_csv.h"

#include <cmath>
#include <cstdio>
#include <set>

namespace gpulab::models {

namespace {
std::string number(double v) {
  if (!std::isfinite(v)) return {};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Every field of every line, unquoted (a quoted field may hold commas; our CSVs put no line breaks in one).
std::set<std::string> all_fields(const std::string& csv) {
  std::set<std::string> out;
  std::size_t at = 0;
  while (at < csv.size()) {
    std::string field;
    if (csv[at] == '"') {
      ++at;
      while (at < csv.size()) {
        if (csv[at] == '"' && at + 1 < csv.size() && csv[at + 1] == '"') {
          field += '"';
          at += 2;
        } else if (csv[at] == '"') {
          ++at;
          break;
        } else {
          field += csv[at++];
        }
      }
    }
    while (at < csv.size() && csv[at] != ',' && csv[at] != '\n') field += csv[at++];
    out.insert(field);
    ++at;  // past the comma or the line break
  }
  return out;
}
}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string series_csv(const std::string& x_name, const std::string& y_name, const std::vector<CsvPoint>& points) {
  std::string out = "series,source," + csv_field(x_name) + ',' + csv_field(y_name) + ',' + csv_field(y_name + "_low") +
                    ',' + csv_field(y_name + "_high") + '\n';
  for (const CsvPoint& p : points)
    out += csv_field(p.series) + ',' + csv_field(p.source) + ',' + number(p.x) + ',' + number(p.y) + ',' +
           number(p.low) + ',' + number(p.high) + '\n';
  return out;
}

namespace {
// "B sweep · FP32 (11)" -> "B sweep · FP32": the roofline's key counts a group's points, its CSV has a row for each.
std::string without_point_count(const std::string& name) {
  const std::size_t open = name.rfind(" (");
  if (open == std::string::npos || name.back() != ')' || name.size() < open + 4) return name;
  for (std::size_t i = open + 2; i + 1 < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return name;
  return name.substr(0, open);
}
}  // namespace

std::vector<std::string> series_missing(const std::vector<std::string>& drawn, const std::string& csv) {
  const std::set<std::string> have = all_fields(csv);
  std::vector<std::string> out;
  for (const std::string& name : drawn)
    if (!name.empty() && !have.count(name) && !have.count(without_point_count(name))) out.push_back(name);
  return out;
}

}  // namespace gpulab::models

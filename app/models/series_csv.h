#pragma once
// The CSV behind a plot: one row per point of every series the plot draws, each with the series' name (as in
// the legend) and its source (measured here / recorded on … / datasheet / model), and a measured point's
// spread. Also the check that a CSV leaves no drawn series out. Qt-free; tests/models.
#include <limits>
#include <string>
#include <vector>

namespace gpulab::models {

struct CsvPoint {
  std::string series;  // the legend's name
  std::string source;  // "measured here", "recorded on …", "datasheet", "model"
  double x = 0, y = 0;
  double low = std::numeric_limits<double>::quiet_NaN();   // the slowest/fastest sample's value; NaN: none
  double high = std::numeric_limits<double>::quiet_NaN();
};

// A field quoted when it holds a comma, quote or line break (quotes doubled), as RFC 4180 has it.
std::string csv_field(const std::string& text);

// Header "series,source,<x_name>,<y_name>,<y_name>_low,<y_name>_high", then the points; empty spread cells
// where a point has none.
std::string series_csv(const std::string& x_name, const std::string& y_name, const std::vector<CsvPoint>& points);

// The drawn series whose name is no field of `csv` (any column: pages keep their own layouts, with the
// series' legend name in one of them). Empty names are skipped.
std::vector<std::string> series_missing(const std::vector<std::string>& drawn, const std::string& csv);

}  // namespace gpulab::models

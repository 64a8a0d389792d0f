#pragma once
// Qt-string wrappers over gpulab/units.hpp so every page formats numbers the same way.
#include "gpulab/units.hpp"

#include <QString>

inline QString fmtSi(double v, const char* unit, int sig = 3) {
  return QString::fromStdString(gpulab::format_si(v, unit, sig));
}
inline QString fmtBytes(double b, int sig = 3) { return QString::fromStdString(gpulab::format_bytes(b, sig)); }
inline QString fmtSeconds(double s, int sig = 3) { return QString::fromStdString(gpulab::format_seconds(s, sig)); }
inline QString fmtCount(long long n) { return QString::fromStdString(gpulab::format_count(n)); }
inline QString fmtFixed(double v, int decimals) { return QString::fromStdString(gpulab::format_fixed(v, decimals)); }

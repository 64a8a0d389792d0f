#pragma once
// The Amdahl page's number formats, shared by its controls (amdahl_page.cpp) and its drawing (amdahl_page_views.cpp).
#include "format.h"
#include "gpulab/models/amdahl_model.hpp"

#include <QObject>
#include <QString>

#include <cmath>

namespace amdahl_page_detail {

inline constexpr double k_maxWorkers = 10000;

// Speed-ups as the lesson prints them: "4096.0×", "19.9×", "5.9×", "1.33×" (two decimals below 10 would
// turn 5.9× into 5.93×; the lesson keeps one decimal for Amdahl and two for the data-loading 1.33×).
inline QString fmtTimes(double v, int decimals = 1) {
  if (!std::isfinite(v)) return QStringLiteral("∞");
  return fmtFixed(v, decimals) + QStringLiteral("×");
}

inline QString fmtLimit(double s) {
  if (s <= 0) return QObject::tr("none (∞)");
  const double lim = gpulab::models::amdahl_limit(s);
  const bool whole = std::fabs(lim - std::round(lim)) < 0.05;
  return fmtTimes(lim, whole ? 0 : 1);
}

inline QString fmtPercent(double share) {
  const double p = share * 100;
  if (p == 0) return QStringLiteral("0 %");
  return fmtFixed(p, p < 2 ? 1 : (std::fabs(p - std::round(p)) < 1e-9 ? 0 : 1)) + QStringLiteral(" %");
}

}  // namespace amdahl_page_detail

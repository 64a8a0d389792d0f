#pragma once
// Small helpers the precision page's three files share (page, views, lesson).
#include "gpulab/precision.hpp"

#include <QString>

#include <string>

namespace precision_detail {

inline QString precName(gpulab::Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }
inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline QString sci(double v) {
  if (!(v > 0)) return QStringLiteral("0");
  return QString::number(v, 'e', 1);
}

}  // namespace precision_detail

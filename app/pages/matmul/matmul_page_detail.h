#pragma once
// One-liners the matrix-multiply page's files share (matmul_page.cpp, matmul_page_views.cpp, matmul_lesson.cpp).
// It does not include matmul_page.h, which would make the page and this header an include cycle.
#include "plans/matmul.hpp"

#include <QString>

namespace matmul_detail {

// "60³", or "32×4096 · 4096×4096" for a product that is not square.
inline QString shape(long long m, long long k, long long n) {
  if (m == k && k == n) return QString::number(n) + QStringLiteral("³");  // not "%1³": arg() reads ³ as a digit
  return QStringLiteral("%1×%2 · %2×%3").arg(m).arg(k).arg(n);
}

// The first row of this kind (-1: none); `rows` are MatmulPage::Row.
template <class Rows>
int rowOfKind(const Rows& rows, gpulab::MatmulWayKind kind) {
  for (int i = 0; i < rows.size(); ++i)
    if (rows[i].model.way.kind == kind) return i;
  return -1;
}

}  // namespace matmul_detail

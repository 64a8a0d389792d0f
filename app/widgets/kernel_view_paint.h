#pragma once
// Painting helpers shared by the kernel views (kernel_views.cpp, kernel_timeline_view.cpp): block hues, a
// picture's header with its provenance line, messages, cells fitted to an area. Needs only the theme, so the
// views' header can include it without an include cycle (tools/include-cycles.py).
#include "theme.h"

#include <QFont>
#include <QFontMetrics>
#include <QObject>
#include <QPainter>
#include <QRect>
#include <QString>
#include <QStringList>

#include <algorithm>

// The line every figure of the page carries (the pictures' headers, and the kernel page's notes and tooltips).
inline QString kernelTraceProvenance() {
  return QObject::tr("traced on the CPU emulator: counts exact, times not a GPU's");
}

namespace kernelview_paint {


inline const QColor& blockHue(int index) {
  using namespace okabe_ito;
  static const QColor hues[6] = {orange, sky_blue, bluish_green, blue, vermillion, reddish_purple};
  return hues[((index % 6) + 6) % 6];
}

// Title, lines and the provenance at the top of a picture; returns the y below them.
inline int drawHeader(QPainter& p, const QRect& r, const Theme& theme, const QString& title, const QStringList& lines) {
  QFont bold = p.font();
  bold.setBold(true);
  const QFontMetrics fmBold(bold), fm(p.font());
  int y = r.top();
  p.setPen(theme.text);
  if (!title.isEmpty()) {
    p.setFont(bold);
    p.drawText(QRect(r.left(), y, r.width(), fmBold.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fmBold.elidedText(title, Qt::ElideRight, r.width()));
    y += fmBold.height();
  }
  QFont plain = bold;
  plain.setBold(false);
  p.setFont(plain);
  for (const QString& line : lines) {
    const QRect br = fm.boundingRect(QRect(r.left(), y, r.width(), 1000), Qt::TextWordWrap, line);
    p.drawText(QRect(r.left(), y, r.width(), br.height()), Qt::TextWordWrap | Qt::AlignLeft, line);
    y += br.height();
  }
  p.setPen(theme.mutedText);
  QFont small = plain;
  small.setItalic(true);
  p.setFont(small);
  p.drawText(QRect(r.left(), y, r.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             QFontMetrics(small).elidedText(kernelTraceProvenance(), Qt::ElideRight, r.width()));
  y += fm.height() + 4;
  p.setFont(plain);
  return y;
}

// The height drawHeader() will take at this width.
inline int headerHeight(const QFont& font, int width, const QString& title, const QStringList& lines) {
  QFont bold = font;
  bold.setBold(true);
  const QFontMetrics fm(font);
  int h = title.isEmpty() ? 0 : QFontMetrics(bold).height();
  for (const QString& line : lines) h += fm.boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, line).height();
  return h + fm.height() + 4;
}

inline void drawMessage(QPainter& p, const QRect& r, const Theme& theme, const QString& message) {
  p.setPen(theme.mutedText);
  p.drawText(r.adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message);
}

inline QRectF fitCells(const QRect& area, int cols, int rows, double maxCell) {
  if (cols <= 0 || rows <= 0 || area.width() <= 0 || area.height() <= 0) return {};
  const double cell = std::min({double(area.width()) / cols, double(area.height()) / rows, maxCell});
  return QRectF(area.left(), area.top(), cell * cols, cell * rows);
}

}  // namespace kernelview_paint

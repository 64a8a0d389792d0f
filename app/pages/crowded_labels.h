#pragma once
// Bar charts with a bar per source in each row (measured here, each opened recording) can have rows too thin
// for every value label on a small screen or in a projector's font. Rather than write labels over each other,
// a page first moves a recording's label to the other side of its bar's end (inside a long bar rather than past
// it), then leaves out what still would: the second recording's labels before the first's, and those before the
// measured ones. Header-only; include it from .cpp files that draw with QCustomPlot.
#include "qcustomplot.h"

#include <QFontMetrics>
#include <QRectF>
#include <QVector>

#include <algorithm>

namespace crowded_labels {

// The rectangle a text item paints, from its anchor, alignment, font and padding (as QCPItemText draws it). Valid
// once the plot has been laid out (after a replot at its size).
inline QRectF drawnRect(QCPItemText* t) {
  const QPointF at = t->position->pixelPosition();
  QRectF r = QFontMetrics(t->font()).boundingRect(QRect(0, 0, 10000, 10000), t->textAlignment() | Qt::TextDontClip, t->text());
  const QMargins pad = t->padding();
  r.setSize(r.size() + QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom()));
  const Qt::Alignment a = t->positionAlignment();
  const double x = a & Qt::AlignLeft ? at.x() : a & Qt::AlignRight ? at.x() - r.width() : at.x() - r.width() / 2;
  const double y = a & Qt::AlignTop ? at.y() : a & Qt::AlignBottom ? at.y() - r.height() : at.y() - r.height() / 2;
  return QRectF(x, y, r.width(), r.height());
}

// Whether `r` covers more than 15 % of any of `drawn` (or of itself): a line's descent may run into the next
// line's ascent, where glyphs seldom reach (the fit test counts a quarter as drawn over).
inline bool coversAny(const QVector<QRectF>& drawn, const QRectF& r) {
  return std::any_of(drawn.begin(), drawn.end(), [&](const QRectF& k) {
    const QRectF both = k & r;
    return !both.isEmpty() && both.width() * both.height() > 0.15 * std::min(k.width() * k.height(), r.width() * r.height());
  });
}

// Moves a label anchored at its bar's end to the bar's other side of that end: from just past it to inside it
// (right-aligned), or back. Its text alignment and padding follow.
inline void flipAtBarEnd(QCPItemText* t) {
  const Qt::Alignment a = t->positionAlignment();
  const bool wasOutside = a & Qt::AlignLeft;
  t->setPositionAlignment((a & ~Qt::AlignHorizontal_Mask) | (wasOutside ? Qt::AlignRight : Qt::AlignLeft));
  t->setTextAlignment(wasOutside ? Qt::AlignRight : Qt::AlignLeft);
  const QMargins p = t->padding();
  t->setPadding(QMargins(p.right(), p.top(), p.left(), p.bottom()));
}

struct SourcedLabel {
  QCPItemText* item = nullptr;
  int source = -1;  // -1: measured here (placed first, one by one); else the recording's index
};

// Hides the labels among `labels` that would be drawn over other text of `plot` (every other text item stays):
// the measured ones first, then each recording's in source order. A recording's label that would cover text is
// first tried at the other side of its bar's end (flipAtBarEnd), where it must stay within its axis rect. Call
// after the plot was laid out at its size; returns the labels left out. Does nothing when the plot has no size yet.
inline QVector<QCPItemText*> leaveOutCrowded(QCustomPlot* plot, QVector<SourcedLabel> labels) {
  QVector<QCPItemText*> hidden;
  if (plot->width() <= 0 || plot->height() <= 0 || labels.isEmpty()) return hidden;
  auto listed = [&](QCPItemText* t) {
    return std::any_of(labels.begin(), labels.end(), [t](const SourcedLabel& l) { return l.item == t; });
  };
  QVector<QRectF> kept;
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible() && !listed(t)) kept << drawnRect(t);
  std::stable_sort(labels.begin(), labels.end(), [](const SourcedLabel& a, const SourcedLabel& b) { return a.source < b.source; });
  for (const SourcedLabel& l : labels) {
    QRectF r = drawnRect(l.item);
    bool fits = !coversAny(kept, r);
    if (!fits && l.source >= 0) {
      flipAtBarEnd(l.item);
      const QRectF flipped = drawnRect(l.item);
      const QCPAxisRect* area = l.item->clipAxisRect();
      const bool within = !area || (flipped.left() >= area->left() && flipped.right() <= area->right() + 1);
      fits = within && !coversAny(kept, flipped);
      if (fits) r = flipped;
      else flipAtBarEnd(l.item);  // back where it was: it is left out
    }
    if (fits) {
      kept << r;
    } else {
      l.item->setVisible(false);
      hidden << l.item;
    }
  }
  return hidden;
}

}  // namespace crowded_labels

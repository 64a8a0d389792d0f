#pragma once
// The "recorded on …" badges a page shows now, by their text: what page tests with recordings open compare.
#include "widgets/source_badge.h"

#include <QStringList>
#include <QWidget>

inline QStringList recordedBadgeTexts(const QWidget* page) {
  QStringList out;
  for (SourceBadge* b : page->findChildren<SourceBadge*>())
    if (b->kind() == SourceBadge::Kind::Recorded && !b->isHidden()) out << b->text().simplified();
  return out;
}

#pragma once
// One "recorded on <device, date>" badge per recording a page draws: two recordings open at once are two
// sources, each named on its own badge (never one badge for both, never only the first). The page adds every
// badge beside its title once (Page::addBadge) and calls show() with the sources it drew whenever it redraws.
#include <QList>
#include <QString>

#include <set>

class ResultStore;
class SourceBadge;

class RecordedBadges {
 public:
  // Hidden badges, one per recording the store can hold open at once.
  explicit RecordedBadges(const ResultStore& store);
  const QList<SourceBadge*>& badges() const { return m_badges; }
  // One badge per recording among `sources` (the store's indices; -1, measured here, is not a recording), in
  // source order and named by the store's label; the rest hidden. `what` says how recordings are drawn
  // ("Hollow bars"), for the tooltip: "Hollow bars (dashed outline, square marks): recorded on …". Returns true
  // when the number of badges shown changed (the page's header may need refitting).
  bool show(const std::set<int>& sources, const QString& what);
  int shown() const { return m_shown; }

 private:
  const ResultStore& m_store;
  QList<SourceBadge*> m_badges;
  int m_shown = 0;
};

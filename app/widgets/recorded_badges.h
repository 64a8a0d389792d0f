#pragma once
// One "recorded on <device, date>" badge per recording a page draws: two recordings open at once are two
// sources, each named on its own badge (never one badge for both, never only the first). The page adds every
// badge beside its title once (Page::addBadge) and calls show() whenever it redraws.
#include <QList>
#include <QString>

class SourceBadge;

class RecordedBadges {
 public:
  // `count` hidden badges, one per recording that can be open at once.
  explicit RecordedBadges(int count);
  const QList<SourceBadge*>& badges() const { return m_badges; }
  struct Drawn {
    int source;     // the recording's index in the result store: it decides the look (widgets/recorded_look.h)
    QString label;  // "recorded on NVIDIA H200, 2026-12-02"
  };
  // One badge per recording drawn, in source order; the rest hidden. `what` says how recordings are drawn
  // ("Hollow bars"), for the tooltip: "Hollow bars (dashed outline, square marks): recorded on …".
  void show(const QList<Drawn>& drawn, const QString& what);
  int shown() const { return m_shown; }

 private:
  QList<SourceBadge*> m_badges;
  int m_shown = 0;
};

#include "widgets/recorded_badges.h"

#include "runner/result_store.h"
#include "widgets/source_badge.h"

#include <QCoreApplication>

RecordedBadges::RecordedBadges(const ResultStore& store) : m_store(store) {
  for (int i = 0; i < ResultStore::maxRecordings; ++i) {
    auto* b = new SourceBadge(SourceBadge::Kind::Recorded, QString());
    b->setVisible(false);
    m_badges << b;
  }
}

bool RecordedBadges::show(const std::set<int>& sources, const QString& what) {
  const int before = m_shown;
  m_shown = 0;
  auto source = sources.lower_bound(0);  // the recordings, in order
  for (SourceBadge* b : m_badges) {
    const bool on = source != sources.end();
    b->setVisible(on);
    if (!on) continue;
    ++m_shown;
    const QString label = m_store.sourceLabel(*source);
    b->set(SourceBadge::Kind::Recorded, label);
    // The second recording's marks are deeper in shade, square and dashed (widgets/recorded_look.h).
    const QString how = *source == 0 ? QCoreApplication::translate("RecordedBadges", "solid outline, round marks")
                                     : QCoreApplication::translate("RecordedBadges", "dashed outline, square marks");
    b->setToolTip(QCoreApplication::translate("RecordedBadges", "%1 (%2): %3").arg(what, how, label));
    ++source;
  }
  return m_shown != before;
}

#include "widgets/recorded_badges.h"

#include "widgets/source_badge.h"

#include <QCoreApplication>

RecordedBadges::RecordedBadges(int count) {
  for (int i = 0; i < count; ++i) {
    auto* b = new SourceBadge(SourceBadge::Kind::Recorded, QString());
    b->setVisible(false);
    m_badges << b;
  }
}

void RecordedBadges::show(const QList<Drawn>& drawn, const QString& what) {
  m_shown = 0;
  for (int i = 0; i < m_badges.size(); ++i) {
    SourceBadge* b = m_badges[i];
    const bool on = i < drawn.size();
    b->setVisible(on);
    if (!on) continue;
    ++m_shown;
    b->set(SourceBadge::Kind::Recorded, drawn[i].label);
    // The second recording's marks are deeper in shade, square and dashed (widgets/recorded_look.h).
    const QString how = drawn[i].source <= 0 ? QCoreApplication::translate("RecordedBadges", "solid outline, round marks")
                               : QCoreApplication::translate("RecordedBadges", "dashed outline, square marks");
    b->setToolTip(QCoreApplication::translate("RecordedBadges", "%1 (%2): %3").arg(what, how, drawn[i].label));
  }
}

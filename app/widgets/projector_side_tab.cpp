#include "widgets/projector_side_tab.h"

#include <QEvent>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QWidget>

ProjectorSideTab::ProjectorSideTab(QTabWidget* tabs, QVBoxLayout* controls, QList<QWidget*> groups, QWidget* before,
                                   QString name, QString tip)
    : QObject(tabs), m_tabs(tabs), m_controls(controls), m_groups(std::move(groups)), m_before(before),
      m_name(std::move(name)), m_tip(std::move(tip)) {
  tabs->installEventFilter(this);  // the column resizes with the window
  m_tab = new QWidget(tabs);
  m_tab->hide();
  auto* col = new QVBoxLayout(m_tab);
  col->addStretch(1);
}

bool ProjectorSideTab::inOwnTab() const { return m_tabs->indexOf(m_tab) >= 0; }

void ProjectorSideTab::place(bool projector) {
  m_projector = projector;
  apply();
}

bool ProjectorSideTab::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_tabs && event->type() == QEvent::Resize) apply();
  return false;
}

void ProjectorSideTab::apply() {
  const bool ownTab = m_projector && m_tabs->window()->height() < kShortWindow;
  const int at = m_tabs->indexOf(m_tab);
  if (ownTab) {
    auto* col = static_cast<QVBoxLayout*>(m_tab->layout());
    for (int i = 0; i < m_groups.size(); ++i)
      if (m_groups[i]->parentWidget() != m_tab) col->insertWidget(i, m_groups[i]);  // above the stretch, in order
    if (at < 0) {
      m_tabs->addTab(m_tab, m_name);
      m_tabs->setTabToolTip(m_tabs->indexOf(m_tab), m_tip);
    }
    return;
  }
  if (at >= 0) m_tabs->removeTab(at);
  for (QWidget* group : m_groups) {
    if (group->parentWidget() != m_tab) continue;
    const int index = m_before ? m_controls->indexOf(m_before) : -1;
    m_controls->insertWidget(index, group);
  }
}

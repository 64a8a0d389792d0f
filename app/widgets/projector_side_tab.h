#pragma once
// Groups of a page's controls that take their own side tab on a projector, where the column's big fonts cannot
// hold every group in a 768-pixel-high window, and go back among the controls (before `before`, in order) otherwise.
// The tab is appended after the page's own tabs (Controls, Lesson), so the keys that switch those two still do.
#include <QList>
#include <QString>

class QTabWidget;
class QVBoxLayout;
class QWidget;

class ProjectorSideTab {
 public:
  ProjectorSideTab(QTabWidget* tabs, QVBoxLayout* controls, QList<QWidget*> groups, QWidget* before, QString name,
                   QString tip);
  void place(bool ownTab);
  bool inOwnTab() const;

 private:
  QTabWidget* m_tabs;
  QVBoxLayout* m_controls;
  QList<QWidget*> m_groups;
  QWidget* m_before;  // null: the group goes back at the end of the controls
  QWidget* m_tab;
  QString m_name, m_tip;
};

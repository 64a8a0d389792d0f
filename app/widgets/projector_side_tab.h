#pragma once
// Groups of a page's controls that take their own side tab on a projector in a short window (1366×768), where the
// column's big fonts cannot hold every group, and go back among the controls (before `before`, in order) in the
// window theme or a tall window (1920×1080). The tab is appended after the page's own tabs (Controls, Lesson), so
// the keys that switch those two still do. It follows the window's height as it changes.
#include <QList>
#include <QObject>
#include <QString>

class QTabWidget;
class QVBoxLayout;
class QWidget;

class ProjectorSideTab : public QObject {
 public:
  ProjectorSideTab(QTabWidget* tabs, QVBoxLayout* controls, QList<QWidget*> groups, QWidget* before, QString name,
                   QString tip);
  // Called from the page's applyTheme: whether the projector's fonts are on.
  void place(bool projector);
  bool inOwnTab() const;
  // Below this window height a projector's column cannot hold every group.
  static constexpr int kShortWindow = 900;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void apply();
  QTabWidget* m_tabs;
  QVBoxLayout* m_controls;
  QList<QWidget*> m_groups;
  QWidget* m_before;  // null: the groups go back at the end of the controls
  QWidget* m_tab;
  QString m_name, m_tip;
  bool m_projector = false;
};

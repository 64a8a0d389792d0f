#pragma once
// The presenter's own screen while a class plan runs: the current step's speaker note, the next step, and a
// clock (time since the plan started against the time planned so far). On a second screen when there is one;
// otherwise a small window the teacher opens from the Presenter menu. The class never sees it.
#include <QWidget>

class ClassPlanRunner;
class QLabel;
class QTimer;

class PresenterView : public QWidget {
  Q_OBJECT
 public:
  explicit PresenterView(ClassPlanRunner& plan, QWidget* parent = nullptr);

  // Shows the view on a screen other than `classScreen`'s when there is one (full size), else as a small window
  // beside it. Returns true when it went to a second screen.
  bool showFor(const QWidget* classScreen);

  // What the labels say now (tests read these).
  QString stepText() const;
  QString noteText() const;
  QString nextText() const;
  QString clockText() const;

 private:
  void refresh();
  void refreshClock();

  ClassPlanRunner& m_plan;
  QLabel* m_step = nullptr;
  QLabel* m_note = nullptr;
  QLabel* m_next = nullptr;
  QLabel* m_clock = nullptr;
  QLabel* m_problems = nullptr;
  QTimer* m_tick = nullptr;
};

#pragma once
// Walks a class plan (docs/class-plan.md; the file format is app/models/class_plan.h): each step shows its page,
// sets the page's controls, opens the step's recording, and hands the speaker note to the presenter view. The
// clicker's Page Down / Page Up move through the steps while a plan runs (MainWindow's key filter asks here).
#include "models/class_plan.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

class PageNavigator;

class ClassPlanRunner : public QObject {
  Q_OBJECT
 public:
  explicit ClassPlanRunner(PageNavigator& window, QObject* parent = nullptr);

  // Reads a plan (a file path or a ":/" resource) and checks that every step names a page of this build. On
  // failure the running plan, if any, is untouched and *error names the problem. Does not start it.
  bool load(const QString& path, QString* error);
  // The same from text; relative recording paths resolve against `baseDir`.
  bool loadText(const QString& text, const QString& baseDir, QString* error);

  void start();  // shows step 1 and starts the clock
  void stop();   // back to plain page turning; the pages stay as they are
  bool isActive() const { return m_active; }
  bool next();      // false at the last step (nothing changes)
  bool previous();  // false at the first
  void goTo(int index);

  const gpulab::models::ClassPlan& plan() const { return m_plan; }
  QString planPath() const { return m_path; }
  int currentStep() const { return m_current; }
  int stepCount() const { return int(m_plan.steps.size()); }
  // "3 · Batch size sweep": the step's title, or its page's title when it has none.
  QString stepTitle(int index) const;
  QString stepName(int index) const;  // the same without the number
  qint64 elapsedSeconds() const { return m_clock.isValid() ? m_clock.elapsed() / 1000 : 0; }
  double plannedMinutesBefore(int index) const;  // the planned time of the steps before `index`
  // What the last step could not do (a control missing on this machine, a recording not found).
  QStringList problems() const { return m_problems; }

  // A plan from the window as it is now. With a plan loaded: its steps, the current step's controls taken from
  // the screen (walk to a step, change what the class should see, save). Without one: one step per page in
  // lesson order, each with its controls as they are now.
  gpulab::models::ClassPlan captured() const;

  static QString bundledPlanPath();  // the 30-minute lesson plan shipped in the app's resources

 Q_SIGNALS:
  void stepChanged(int index);
  void activeChanged(bool active);

 private:
  void applyStep(int index);
  QString resolveRecording(const QString& path) const;

  PageNavigator& m_window;
  gpulab::models::ClassPlan m_plan;
  QString m_path;
  QString m_baseDir;
  bool m_active = false;
  int m_current = -1;
  QElapsedTimer m_clock;
  QStringList m_problems;
};

#include "shell/presenter_view.h"

#include "shell/class_plan_runner.h"

#include <QGuiApplication>
#include <QLabel>
#include <QScreen>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

PresenterView::PresenterView(ClassPlanRunner& plan, QWidget* parent) : QWidget(parent, Qt::Window), m_plan(plan) {
  setObjectName(QStringLiteral("presenterView"));
  setWindowTitle(tr("gpulab — presenter view"));
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(18, 14, 18, 14);
  lay->setSpacing(10);
  setAutoFillBackground(true);  // an opaque window even where no window manager draws one
  m_clock = new QLabel(this);
  m_clock->setWordWrap(true);
  m_clock->setStyleSheet(QStringLiteral("font-size:18pt;"));
  m_step = new QLabel(this);
  m_step->setWordWrap(true);
  m_step->setStyleSheet(QStringLiteral("font-size:16pt; font-weight:bold;"));
  m_note = new QLabel(this);
  m_note->setWordWrap(true);
  m_note->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  m_note->setTextFormat(Qt::PlainText);
  m_note->setStyleSheet(QStringLiteral("font-size:17pt;"));
  m_problems = new QLabel(this);
  m_problems->setWordWrap(true);
  m_problems->setStyleSheet(QStringLiteral("color:#b34700;"));
  m_next = new QLabel(this);
  m_next->setWordWrap(true);
  m_next->setStyleSheet(QStringLiteral("font-size:14pt;"));
  lay->addWidget(m_clock);
  lay->addWidget(m_step);
  lay->addWidget(m_note, 1);
  lay->addWidget(m_problems);
  lay->addWidget(m_next);

  m_tick = new QTimer(this);
  m_tick->setInterval(1000);
  connect(m_tick, &QTimer::timeout, this, &PresenterView::refreshClock);
  m_tick->start();
  connect(&m_plan, &ClassPlanRunner::stepChanged, this, &PresenterView::refresh);
  connect(&m_plan, &ClassPlanRunner::activeChanged, this, &PresenterView::refresh);
  refresh();
}

bool PresenterView::showFor(const QWidget* classScreen) {
  const QScreen* shown = classScreen ? classScreen->screen() : nullptr;
  for (QScreen* s : QGuiApplication::screens())
    if (s != shown) {
      // Maximised on that screen, not given its whole geometry: a window manager's frame around a window as
      // big as the screen put the title bar and edges on the projector next to it.
      setScreen(s);
      move(s->availableGeometry().topLeft());
      resize(s->availableGeometry().size() * 3 / 4);
      showMaximized();
      return true;
    }
  resize(720, 600);
  if (classScreen) move(classScreen->geometry().topLeft() + QPoint(40, 40));
  show();
  raise();
  return false;
}

QString PresenterView::stepText() const { return m_step->text(); }
QString PresenterView::noteText() const { return m_note->text(); }
QString PresenterView::nextText() const { return m_next->text(); }
QString PresenterView::clockText() const { return m_clock->text(); }

void PresenterView::refresh() {
  if (!m_plan.isActive()) {
    m_step->setText(tr("No class plan is running"));
    m_note->setText(tr("Presenter → Start the lesson plan (30 min), or open a plan of your own. The notes of each "
                       "step appear here, on your screen only."));
    m_next->clear();
    m_problems->hide();
  } else {
    const int i = m_plan.currentStep();
    m_step->setText(tr("Step %1 of %2: %3").arg(i + 1).arg(m_plan.stepCount()).arg(m_plan.stepName(i)));
    const auto& step = m_plan.plan().steps[size_t(i)];
    m_note->setText(step.note.empty() ? tr("(no note for this step)") : QString::fromStdString(step.note));
    m_next->setText(i + 1 < m_plan.stepCount() ? tr("Next (Page Down): %1").arg(m_plan.stepTitle(i + 1))
                                               : tr("This is the last step."));
    const QStringList problems = m_plan.problems();
    m_problems->setText(tr("Could not: %1").arg(problems.join(QStringLiteral("; "))));
    m_problems->setVisible(!problems.isEmpty());
  }
  refreshClock();
}

void PresenterView::refreshClock() {
  const QString now = QTime::currentTime().toString(QStringLiteral("HH:mm"));
  if (!m_plan.isActive()) {
    m_clock->setText(now);
    return;
  }
  const double planned = m_plan.plannedMinutesBefore(m_plan.currentStep()) * 60;
  const double total = m_plan.plan().planned_minutes() * 60;
  const qint64 elapsed = m_plan.elapsedSeconds();
  // Ahead or behind the plan, by the start of this step: what a teacher glances at to decide whether to skip.
  const double late = double(elapsed) - planned;
  const QString pace = std::abs(late) < 60 ? tr("on time")
                       : late > 0          ? tr("%1 behind").arg(QString::fromStdString(gpulab::models::clock_text(late)))
                                           : tr("%1 ahead").arg(QString::fromStdString(gpulab::models::clock_text(-late)));
  m_clock->setText(tr("Elapsed %1  ·  this step planned at %2 of %3  ·  %4  ·  %5")
                       .arg(QString::fromStdString(gpulab::models::clock_text(double(elapsed))),
                            QString::fromStdString(gpulab::models::clock_text(planned)),
                            QString::fromStdString(gpulab::models::clock_text(total)), pace, now));
}

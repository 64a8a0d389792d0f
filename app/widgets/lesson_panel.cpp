#include "widgets/lesson_panel.h"

#include "format.h"
#include "widgets/lesson_more.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

QLabel* wrapped(const QString& text, QWidget* parent) {
  auto* l = new QLabel(text, parent);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Never wider than the column: a wrapped label's minimum width is its longest word (a long name, a rich-text
  // box with padding and a border), which at the projector's font pushed the lesson past its viewport and cut
  // off the right edge. Ignored: the label takes the width it is given and wraps (height for width) to fit.
  // A new size policy drops the height-for-width flag word wrap had set; without it the layout gave the label
  // its height at its preferred width, and the intro's last paragraph was cut off below it.
  QSizePolicy policy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  l->setSizePolicy(policy);
  l->setMinimumWidth(0);
  return l;
}

// Numbers in answers: whole numbers as whole numbers ("32 rounds", not "32.0"), else three significant digits,
// thousands separators for big ones.
QString fmtAnswer(double v) {
  if (!std::isfinite(v)) return QStringLiteral("—");
  const double a = std::fabs(v);
  if (a < 1e15 && v == std::nearbyint(v)) return fmtCount(std::llround(v));
  if (a >= 1000) return fmtCount(std::llround(v));
  if (a >= 100) return fmtFixed(v, 0);
  if (a >= 10) return fmtFixed(v, 1);
  if (a >= 1) return fmtFixed(v, 2);
  return QString::number(v, 'g', 3);
}

}  // namespace

LessonPanel::LessonPanel(const LessonContent& content, QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("lessonPanel"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  // The lesson text may be longer than the column on a 1366×768 screen: this one part is allowed to scroll.
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* host = new QWidget(scroll);
  auto* lay = new QVBoxLayout(host);
  lay->setContentsMargins(8, 8, 8, 8);
  lay->setSpacing(8);
  scroll->setWidget(host);
  outer->addWidget(scroll);

  auto heading = [&](const QString& text) {
    auto* h = wrapped(text, host);
    h->setTextInteractionFlags(Qt::NoTextInteraction);
    h->setObjectName(QStringLiteral("lessonHeading"));
    m_headings.push_back(h);
    lay->addWidget(h);
  };

  if (!content.runningExample.isEmpty()) {
    // The shop's chatbot, threaded through the memory, decode, precision and many-GPUs pages: one boxed line each.
    m_example = wrapped(QStringLiteral("<b>%1</b><br>%2").arg(tr("Running example · the shop's 7B chatbot"),
                                                             content.runningExample.toHtmlEscaped()),
                        host);
    m_example->setObjectName(QStringLiteral("lessonRunningExample"));
    m_example->setTextFormat(Qt::RichText);
    m_example->setToolTip(tr("One story across the lesson: which card, how many and which number format an "
                             "appliance shop needs for its 7B support chatbot"));
    lay->addWidget(m_example);
  }

  if (!content.intro.isEmpty()) {
    const auto [lead, more] = splitLessonMore(content.intro);
    auto* intro = wrapped(lead, host);
    intro->setObjectName(QStringLiteral("lessonIntro"));
    intro->setTextFormat(Qt::AutoText);
    lay->addWidget(intro);
    if (!more.isEmpty()) {
      // The detail a first reading can skip, one click away (lessonWithMore).
      auto* rest = wrapped(more, host);
      rest->setObjectName(QStringLiteral("lessonMore"));
      rest->setTextFormat(Qt::AutoText);
      rest->setVisible(false);
      auto* toggle = new QPushButton(tr("More…"), host);
      toggle->setObjectName(QStringLiteral("lessonMoreButton"));
      toggle->setCheckable(true);
      toggle->setToolTip(tr("Show the details behind the short text above"));
      connect(toggle, &QPushButton::toggled, this, [rest, toggle](bool on) {
        rest->setVisible(on);
        toggle->setText(on ? tr("Less") : tr("More…"));
      });
      auto* moreRow = new QHBoxLayout;
      moreRow->addWidget(toggle);
      moreRow->addStretch(1);
      lay->addLayout(moreRow);
      lay->addWidget(rest);
    }
  }

  if (!content.questions.isEmpty()) heading(tr("Pause and think"));
  for (const LessonQuestion& q : content.questions) {
    QuestionRow row;
    lay->addWidget(wrapped(q.question, host));
    row.reveal = new QPushButton(tr("Reveal answer"), host);
    row.reveal->setToolTip(tr("Think first, then show the lesson's answer to this question"));
    row.answer = wrapped(q.answer, host);
    row.answer->setObjectName(QStringLiteral("lessonAnswer"));
    row.answer->setVisible(false);
    auto* revealRow = new QHBoxLayout;
    revealRow->addWidget(row.reveal);
    revealRow->addStretch(1);
    lay->addLayout(revealRow);
    lay->addWidget(row.answer);
    const int index = m_questions.size();
    connect(row.reveal, &QPushButton::clicked, this, [this, index] { revealAnswer(index); });
    m_questions.push_back(row);
  }

  if (!content.exercises.isEmpty()) heading(tr("Now change it: predict, then check"));
  // Digits with optional separators, a decimal point, an exponent and a trailing unit the student may type.
  static const QRegularExpression accepted(QStringLiteral(R"(^\s*[-+]?[0-9][0-9,\s]*(\.[0-9]*)?([eE][-+]?[0-9]+)?\s*[^\d]*$|^\s*$)"));
  for (const LessonExercise& ex : content.exercises) {
    ExerciseRow row;
    row.ex = ex;
    lay->addWidget(wrapped(ex.prompt, host));
    auto* inputRow = new QHBoxLayout;
    row.input = new QLineEdit(host);
    row.input->setMinimumWidth(40);  // shrinks before the row passes the column's width
    row.input->setPlaceholderText(tr("your prediction"));
    row.input->setValidator(new QRegularExpressionValidator(accepted, row.input));
    row.input->setToolTip(tr("Type the number you expect (in %1) before the app computes it")
                              .arg(ex.unit.isEmpty() ? tr("the unit shown") : ex.unit));
    inputRow->addWidget(row.input, 1);
    auto* unit = new QLabel(ex.unit, host);
    // Shown whole ("FLOPs per byte" cut to "FLOPs p" asked the wrong question): the input field gives way instead.
    unit->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    inputRow->addWidget(unit);
    row.checkButton = new QPushButton(tr("Check"), host);
    row.checkButton->setToolTip(tr("Compute the answer and compare it with your prediction"));
    inputRow->addWidget(row.checkButton);
    if (ex.measured) {
      row.againButton = new QPushButton(tr("Measure again"), host);
      row.againButton->setToolTip(tr("Take a fresh measurement (the first one is kept until you ask: timings on a "
                                     "busy machine vary)"));
      row.againButton->setVisible(false);
    }
    lay->addLayout(inputRow);
    if (row.againButton) {
      // On its own line: beside the input, Check and the unit it made the row wider than a 1366×768 column.
      auto* againRow = new QHBoxLayout;
      againRow->addWidget(row.againButton);
      againRow->addStretch(1);
      lay->addLayout(againRow);
    }
    row.result = wrapped(QString(), host);
    row.result->setVisible(false);
    lay->addWidget(row.result);
    const int index = m_exercises.size();
    connect(row.checkButton, &QPushButton::clicked, this, [this, index] { check(index); });
    connect(row.input, &QLineEdit::returnPressed, this, [this, index] { check(index); });
    if (row.againButton) connect(row.againButton, &QPushButton::clicked, this, [this, index] { remeasure(index); });
    m_exercises.push_back(row);
  }
  lay->addStretch(1);
  applyTheme(m_theme);
}

LessonPanel::Verdict LessonPanel::judge(double prediction, double answer, double tolerance) {
  if (!std::isfinite(prediction) || !std::isfinite(answer)) return Verdict::Invalid;
  // A tolerance of 0 means the answer is exact (a count of rounds, of FLOPs): only that number is right. The
  // last-bit slack only absorbs how the answer was computed in floating point.
  const double tol = std::max(tolerance, 0.0);
  // Relative difference; an answer of exactly zero is judged on the absolute difference instead.
  const double diff = answer != 0 ? std::fabs(prediction - answer) / std::fabs(answer) : std::fabs(prediction);
  if (diff <= tol + 1e-12) return Verdict::Right;
  if (diff <= std::max(3 * tol, 0.2)) return Verdict::Close;
  return Verdict::Off;
}

double LessonPanel::parsePrediction(const QString& text) {
  QString t = text.trimmed();
  t.remove(QLatin1Char(',')).remove(QLatin1Char(' ')).remove(QChar(0x2009)).remove(QChar(0x202F));
  static const QRegularExpression number(QStringLiteral(R"(^[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)"));
  const auto m = number.match(t);
  if (!m.hasMatch()) return std::numeric_limits<double>::quiet_NaN();
  bool ok = false;
  const double v = m.captured(0).toDouble(&ok);
  return ok ? v : std::numeric_limits<double>::quiet_NaN();
}

void LessonPanel::revealAnswer(int question) {
  if (question < 0 || question >= m_questions.size()) return;
  auto& row = m_questions[question];
  row.answer->setVisible(true);
  row.reveal->setEnabled(false);
  row.reveal->setText(tr("Answer shown"));
}

bool LessonPanel::answerVisible(int question) const {
  return question >= 0 && question < m_questions.size() && !m_questions[question].answer->isHidden();
}

QString LessonPanel::answerText(int question) const {
  return question >= 0 && question < m_questions.size() ? m_questions[question].answer->text() : QString();
}

void LessonPanel::setPrediction(int exercise, const QString& text) {
  if (exercise >= 0 && exercise < m_exercises.size()) m_exercises[exercise].input->setText(text);
}

void LessonPanel::check(int exercise) {
  if (exercise < 0 || exercise >= m_exercises.size()) return;
  ExerciseRow& row = m_exercises[exercise];
  const double prediction = parsePrediction(row.input->text());
  row.answer = answer(exercise);
  row.result->setVisible(true);
  if (row.againButton) row.againButton->setVisible(true);
  const QString unit = row.ex.unit.isEmpty() ? QString() : QStringLiteral(" ") + row.ex.unit;
  if (!std::isfinite(row.answer)) {
    // Nothing to judge against yet (an exercise that reads a run which has not happened): say what to do.
    row.verdict = Verdict::Invalid;
    if (row.againButton) row.againButton->setVisible(false);
    row.result->setText(row.ex.unavailable.isEmpty() ? tr("The app could not compute this one here.")
                                                     : row.ex.unavailable.toHtmlEscaped());
    return;
  }
  const QString answerLine = tr("Answer: <b>%1%2</b>").arg(fmtAnswer(row.answer), unit.toHtmlEscaped());
  if (!std::isfinite(prediction)) {
    row.verdict = Verdict::Invalid;
    row.result->setText(tr("Type a number first (you can still read the answer).<br>%1<br>%2")
                            .arg(answerLine, row.ex.explanation.toHtmlEscaped()));
    return;
  }
  row.verdict = judge(prediction, row.answer, row.ex.tolerance);
  const double diffPct = row.answer != 0 ? 100.0 * (prediction - row.answer) / std::fabs(row.answer) : 0.0;
  QString word;
  QColor colour;
  switch (row.verdict) {
    case Verdict::Right: word = tr("Right"); colour = m_theme.good; break;
    case Verdict::Close: word = tr("Close"); colour = m_theme.warn; break;
    default: word = tr("Off"); colour = m_theme.bad; break;
  }
  const QString diff = row.answer != 0 ? tr("%1%2 %").arg(diffPct >= 0 ? QStringLiteral("+") : QString(),
                                                          fmtFixed(diffPct, std::fabs(diffPct) < 10 ? 1 : 0))
                                       : tr("%1 away").arg(fmtAnswer(prediction));
  row.result->setText(tr("<span style='color:%1; font-weight:bold;'>%2</span> — you said %3%4 (%5).<br>%6<br>%7")
                          .arg(colour.name(), word, fmtAnswer(prediction), unit.toHtmlEscaped(), diff, answerLine,
                               row.ex.explanation.toHtmlEscaped()));
}

double LessonPanel::answer(int exercise) {
  if (exercise < 0 || exercise >= m_exercises.size()) return std::numeric_limits<double>::quiet_NaN();
  ExerciseRow& row = m_exercises[exercise];
  // Computed (or measured) once: a second guess is judged against the same answer, not a fresh, noisy timing.
  if (!row.computed) {
    row.answer = row.ex.compute ? row.ex.compute() : std::numeric_limits<double>::quiet_NaN();
    // No answer yet (the run it reads has not happened) is not kept: the next Check after the run reads it.
    row.computed = std::isfinite(row.answer);
  }
  return row.answer;
}

void LessonPanel::remeasure(int exercise) {
  if (exercise < 0 || exercise >= m_exercises.size() || !m_exercises[exercise].ex.measured) return;
  m_exercises[exercise].computed = false;
  check(exercise);
}

LessonPanel::Verdict LessonPanel::verdict(int exercise) const {
  return exercise >= 0 && exercise < m_exercises.size() ? m_exercises[exercise].verdict : Verdict::None;
}

double LessonPanel::computedAnswer(int exercise) const {
  return exercise >= 0 && exercise < m_exercises.size() ? m_exercises[exercise].answer
                                                        : std::numeric_limits<double>::quiet_NaN();
}

QString LessonPanel::resultText(int exercise) const {
  return exercise >= 0 && exercise < m_exercises.size() ? m_exercises[exercise].result->text() : QString();
}

void LessonPanel::applyTheme(const Theme& theme) {
  m_theme = theme;
  for (QLabel* h : m_headings)
    h->setStyleSheet(QStringLiteral("font-weight:bold; font-size:%1pt; color:%2; margin-top:6px;")
                         .arg(theme.baseFontPt + 2)
                         .arg(theme.accent.name()));
  if (m_example)
    m_example->setStyleSheet(QStringLiteral("background:%1; border:2px solid %2; border-radius:4px; padding:6px;")
                                 .arg(theme.background.name(), theme.memory.name()));
  for (auto& q : m_questions)
    q.answer->setStyleSheet(QStringLiteral("background:%1; border-left:4px solid %2; padding:4px;")
                                .arg(theme.background.name(), theme.gpu.name()));
}

QString LessonPanel::runningExampleText() const { return m_example ? m_example->text() : QString(); }

#pragma once
// The "Lesson" tab of every page: the page's intro in the app's own words, the lesson's "pause and think"
// questions (each answer hidden until the student asks for it), and its "now change it" exercises as
// predict-then-check: the student types a number, the app computes the answer and says how close it was.
#include "theme.h"
#include "widgets/lesson_content.h"

#include <QVector>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

class LessonPanel : public QWidget {
  Q_OBJECT
 public:
  enum class Verdict { None, Right, Close, Off, Invalid };

  explicit LessonPanel(const LessonContent& content, QWidget* parent = nullptr);

  // right: within the exercise's tolerance (0: exactly the answer); close: within max(3 × tolerance, 20 %);
  // off: further away.
  static Verdict judge(double prediction, double answer, double tolerance);
  // Parses what a student types: "5.9", "4,096", "1.33x", "239 tokens/s", "1e9" (commas are thousands
  // separators). NaN if there is no number.
  static double parsePrediction(const QString& text);

  int questionCount() const { return m_questions.size(); }
  int exerciseCount() const { return m_exercises.size(); }
  void revealAnswer(int question);
  bool answerVisible(int question) const;
  QString answerText(int question) const;

  void setPrediction(int exercise, const QString& text);
  // The exercise's answer, computed or measured on first use and kept for later checks.
  double answer(int exercise);
  // Computes the exercise's answer, compares it with the prediction and shows the outcome.
  void check(int exercise);
  // Measured exercises only: forget the kept answer, measure afresh and judge the same prediction again.
  void remeasure(int exercise);
  Verdict verdict(int exercise) const;
  double computedAnswer(int exercise) const;
  QString resultText(int exercise) const;
  // The running-example box's text (empty when the page has none).
  QString runningExampleText() const;

  void applyTheme(const Theme& theme);

 private:
  struct QuestionRow {
    QLabel* answer = nullptr;
    QPushButton* reveal = nullptr;
  };
  struct ExerciseRow {
    LessonExercise ex;
    QLineEdit* input = nullptr;
    QPushButton* checkButton = nullptr;
    QPushButton* againButton = nullptr;  // measured exercises: shown once there is an answer
    QLabel* result = nullptr;
    Verdict verdict = Verdict::None;
    double answer = 0;
    bool computed = false;
  };
  QVector<QuestionRow> m_questions;
  QVector<ExerciseRow> m_exercises;
  QVector<QLabel*> m_headings;
  QLabel* m_example = nullptr;  // the running-example box, when the page has one
  Theme m_theme = Theme::normal();
};

#pragma once
// A page's teaching layer as data (intro, running example, questions, exercises): its own header, so the lesson
// panel that shows it need not include the page base class (the page ↔ lesson panel include cycle).
#include <QList>
#include <QString>

#include <functional>

// The lesson's teaching layer for a page (shown by the lesson panel).
struct LessonQuestion {
  QString question;
  QString answer;
};
struct LessonExercise {
  QString prompt;                // "Set cells = 1 × 4096. How many rounds for 8 workers?"
  QString unit;                  // "rounds"
  std::function<double()> compute;  // the app's answer (from a model or a measurement); may run quickly only
  QString explanation;           // shown with the answer
  double tolerance = 0.05;       // relative: a prediction within this counts as right; 0 = exact
  // compute() times something on this machine (or reads what was timed): its answer is kept for later guesses,
  // and the panel offers "Measure again" to take a fresh one.
  bool measured = false;
  // Shown instead of an answer while compute() has none (NaN): what to run first ("Measure the ceilings first").
  QString unavailable = {};
};
struct LessonContent {
  QString intro;  // a short text in the app's own words
  // The lesson's running example (the shop's 7B chatbot) as it meets this page: shown in a box above the intro.
  // Empty on pages the story does not pass through. See pages/running_example.h.
  QString runningExample;
  QList<LessonQuestion> questions;
  QList<LessonExercise> exercises;
};

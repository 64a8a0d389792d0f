#pragma once
// Everything a page's lesson layer shows a student, as one text in reading order: title, takeaway, the running
// example, the intro (with what is behind "More"), each question then its answer, each exercise's prompt, the
// answer's explanation and what it says while there is no answer yet. Shared by the tests that read pages whole.
#include "pages/page.h"

#include <QString>

inline QString pageWholeText(const Page& page) {
  const LessonContent c = page.lesson();
  QStringList parts{page.title(), page.takeaway(), c.runningExample, c.intro};
  for (const LessonQuestion& q : c.questions) parts << q.question << q.answer;
  for (const LessonExercise& e : c.exercises) parts << e.prompt << e.explanation << e.unavailable;
  return parts.join(QLatin1Char(' '));
}

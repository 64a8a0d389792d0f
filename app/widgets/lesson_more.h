#pragma once
// A lesson intro with a short lead in view and the rest behind a "More" button. A page writes
// lessonWithMore(lead, rest) into LessonContent::intro; the lesson panel splits it again with splitLessonMore and
// shows the rest only when asked. One QString keeps LessonContent as it is: every page and test that reads
// `intro` still gets the whole text (the verbatim test reads both parts).
#include <QChar>
#include <QString>

#include <utility>

// U+2029 PARAGRAPH SEPARATOR: never typed in a lesson text, so it can only be this mark.
inline constexpr QChar k_lessonMoreMark{char16_t(0x2029)};

inline QString lessonWithMore(const QString& lead, const QString& more) { return lead + k_lessonMoreMark + more; }

// {lead, more}; more is empty when the intro has no mark.
inline std::pair<QString, QString> splitLessonMore(const QString& intro) {
  const qsizetype at = intro.indexOf(k_lessonMoreMark);
  if (at < 0) return {intro, QString()};
  return {intro.left(at), intro.mid(at + 1)};
}

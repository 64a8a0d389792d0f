#pragma once
// On-screen hints ("press Run (Space)", "nothing measured yet: …") speak to the person at the keyboard, not to a
// class looking at a slide: a page marks them, and every export (export/export_cleanup.h) leaves them out.
// Works for QCustomPlot items (QCPItemText is a QObject) and for plain widgets alike.
#include <QObject>

inline constexpr const char* kOnScreenHintProperty = "gpulabOnScreenHint";

inline void markOnScreenHint(QObject* object) {
  if (object) object->setProperty(kOnScreenHintProperty, true);
}
inline bool isMarkedOnScreenHint(const QObject* object) {
  return object && object->property(kOnScreenHintProperty).toBool();
}

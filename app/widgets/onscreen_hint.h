#pragma once
// On-screen hints ("press Run (Space)", "nothing measured yet: …") speak to the person at the keyboard, not to a
// class looking at a slide: a page marks them, and every export (export/export_cleanup.h) leaves them out.
// Works for QCustomPlot items (QCPItemText is a QObject) and for plain widgets alike.
//
// Custom-painted widgets draw their hints themselves, so they ask isBeingExported() in paintEvent and leave the
// hint out; one that has nothing but a hint to show says so (setNothingToShow), and an export skips it like an
// empty plot.
#include <QObject>
#include <QWidget>

inline constexpr const char* kOnScreenHintProperty = "gpulabOnScreenHint";
inline constexpr const char* kExportingProperty = "gpulabExporting";     // set on the exported widget meanwhile
inline constexpr const char* kNothingToShowProperty = "gpulabNothingToShow";

inline void markOnScreenHint(QObject* object) {
  if (object) object->setProperty(kOnScreenHintProperty, true);
}
inline bool isMarkedOnScreenHint(const QObject* object) {
  return object && object->property(kOnScreenHintProperty).toBool();
}

// True while an export draws `widget` or a widget it sits in.
inline bool isBeingExported(const QWidget* widget) {
  for (const QWidget* w = widget; w; w = w->parentWidget())
    if (w->property(kExportingProperty).toBool()) return true;
  return false;
}

inline void setNothingToShow(QWidget* widget, bool nothing) {
  if (widget) widget->setProperty(kNothingToShowProperty, nothing);
}
inline bool hasNothingToShow(const QWidget* widget) {
  return widget && widget->property(kNothingToShowProperty).toBool();
}

#pragma once
// What the shell's helpers need of the window (the class plan runner: find a page, show it, rewrite the lesson
// hints, reach the shared context). MainWindow implements it; the helpers include this header, never
// main_window.h, so the window and its helpers include no cycle (tools/include-cycles.py, ctest cli/test_include_cycles).
#include <QString>
#include <QVector>

class AppContext;
class Page;

class PageNavigator {
 public:
  virtual const QVector<Page*>& pages() const = 0;
  virtual Page* pageById(const QString& id) const = 0;
  virtual bool showPage(const QString& id) = 0;
  // Each page's "Next: …" hint from the lesson order (a running class plan writes its own over it).
  virtual void refreshLessonHints() = 0;
  virtual AppContext& context() const = 0;

 protected:
  ~PageNavigator() = default;  // not owned through this interface
};

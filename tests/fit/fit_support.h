#pragma once
// What the fit tests share: an app context without the GPU module, a wait long enough for pages' redraw timers,
// and the offscreen platform given the screens under test (written before the QApplication exists).
#include "app_context.h"
#include "widgets/frame_coalescer.h"

#include <QApplication>
#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QRect>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QVector>

namespace fit {

inline AppContext::Options noGpu() {
  AppContext::Options o;
  o.loadCuda = false;
  return o;
}

// Whether the pages have work waiting: a frame coalescer's redraw, or a short single-shot timer (the roofline's
// 30 ms rebuild) in any window. Repeating timers (an animation's 60 Hz clock) never stop, so they do not count.
inline bool somethingPending() {
  if (FrameCoalescer::anyPending()) return true;
  for (QWidget* top : QApplication::topLevelWidgets())
    for (const QTimer* t : top->findChildren<QTimer*>())
      if (t->isActive() && t->isSingleShot() && t->interval() <= 250) return true;
  return false;
}

// Until the pages are quiet: events handled and nothing pending for three rounds of 5 ms running, and at most
// rounds × ms (the old fixed wait, longer than a page's 30 ms redraw timer twice). The fixed wait spent ~60 of a
// fit test's ~85 s sleeping on pages that had long finished.
inline void settle(int rounds = 4, int ms = 25) {
  QElapsedTimer waited;
  waited.start();
  int quiet = 0;
  while (waited.elapsed() < rounds * ms) {
    QApplication::processEvents();
    QTest::qWait(5);
    quiet = somethingPending() ? 0 : quiet + 1;
    if (quiet >= 3) break;
  }
}

// Points QT_QPA_PLATFORM at the offscreen platform with these screens (in device pixels); false when the
// configuration cannot be written. `scale` 2 is a desktop set to 200 %: 192 dpi, so Qt draws every logical pixel
// as two and a 3840×2160 screen is 1920×1080 to the widgets. `dir` must outlive the QApplication.
inline bool useOffscreenScreens(const QTemporaryDir& dir, const QVector<QRect>& screens, int scale = 1) {
  QByteArray json = "{ \"screens\": [";
  for (int i = 0; i < screens.size(); ++i) {
    const QRect& s = screens[i];
    json += QStringLiteral("%1{ \"name\": \"screen%2\", \"x\": %3, \"y\": %4, \"width\": %5, \"height\": %6, "
                           "\"logicalDpi\": %7, \"logicalBaseDpi\": 96, \"dpr\": 1 }")
                .arg(i ? QStringLiteral(", ") : QString())
                .arg(i)
                .arg(s.x())
                .arg(s.y())
                .arg(s.width())
                .arg(s.height())
                .arg(96 * scale)
                .toUtf8();
  }
  json += "] }";
  const QString config = dir.filePath(QStringLiteral("screens.json"));
  QFile f(config);
  if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size()) return false;
  f.close();
  qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toUtf8());
  qputenv("GPULAB_NO_SETTINGS", "1");
  return true;
}

}  // namespace fit

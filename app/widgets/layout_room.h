#pragma once
// The width a window's layout may plan for: its screen's, or less when the window was asked for less. `gpulab
// --size 1024x768` on a 1920 px screen must lay out as on an XGA projector: the lesson list's width and the
// controls column's floor chosen for the 1920 px screen made it open 1,116 px wide (issue 39).
#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace layout_room_detail {
inline int& askedWidth() {
  static int width = 0;  // 0: none asked; the screen decides
  return width;
}
}  // namespace layout_room_detail

// Called once at start-up, before the main window is made (main.cpp, from --size).
inline void setAskedWindowWidth(int width) { layout_room_detail::askedWidth() = width; }

// The screen's width under `w` (the primary screen's without one), no wider than the window asked for.
inline int layoutScreenWidth(const QWidget* w) {
  const QScreen* s = w && w->screen() ? w->screen() : QGuiApplication::primaryScreen();
  const int screen = s ? s->geometry().width() : 1280;
  const int asked = layout_room_detail::askedWidth();
  return asked > 0 ? std::min(screen, asked) : screen;
}

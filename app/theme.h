#pragma once
// Colours, fonts and line widths for the screen and for exports. One hue per kind of hardware on every page
// (Okabe–Ito, colour-blind safe); the projector themes keep the hues and raise contrast and sizes.
#include "gpulab/precision.hpp"

#include <QColor>
#include <QString>

class QApplication;

struct Theme {
  enum class Mode { Normal, ProjectorLight, ProjectorDark };
  Mode mode = Mode::Normal;
  bool dark = false;

  QColor background, surface, text, mutedText, grid, accent, border;
  QColor cpu;      // the professor: CPU measurements
  QColor gpu;      // the stadium: GPU measurements
  QColor memory;   // the clerk: bandwidth, transfers, VRAM
  QColor model;    // datasheet ceilings and model predictions (dashed / dotted)
  QColor good, bad, warn;

  int baseFontPt = 10;
  int titleFontPt = 18;
  int takeawayFontPt = 12;
  int plotFontPt = 10;   // axis labels and ticks
  int lineWidth = 2;     // plot lines, px
  int markerSize = 7;    // measured points, px

  QColor precision(gpulab::Precision p) const;
  QString name() const;  // "normal", "projector", "projector-dark"
  bool isProjector() const { return mode != Mode::Normal; }

  static Theme normal();
  static Theme projector(bool dark);
  // The projector theme for a screen `screenHeight` logical pixels tall. A projected picture is as large in the
  // room at 768 lines as at 1080, only its pixels are larger: the sizes made for 1080 lines shrink with the
  // height (never below three quarters of them), so text and lines look the same size from the back row and a
  // 1024×768 projector keeps room for the plot. 1080 lines and more: projector(dark) unchanged.
  static Theme projectorForScreen(bool dark, int screenHeight);
  static Theme byName(const QString& name);  // unknown names give normal()
};

// Okabe–Ito palette entries, for places that need a fixed colour independent of the theme.
namespace okabe_ito {
inline const QColor black{0, 0, 0}, orange{230, 159, 0}, sky_blue{86, 180, 233}, bluish_green{0, 158, 115},
    yellow{240, 228, 66}, blue{0, 114, 178}, vermillion{213, 94, 0}, reddish_purple{204, 121, 167};
}

// Palette and font for the whole application.
void applyThemeToApplication(QApplication& app, const Theme& theme);
